"""Who watches a game: a spectator's short-lived presence, and the count the players see.

A spectator is present while its page or stream was seen within ``WATCHING_SECONDS``. Its row
(``PlaySpectator``) is written at most every ``SEEN_EVERY`` seconds per spectator and process
(a read, a stream opening, and the process's watcher for the streams it holds open: one upsert
for all of them), never once per event. The count is one grouped query, read by the watcher
once a second for the games its streams follow, and by the lobby.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from play.clock.presence import SEEN_EVERY
from play.models import PlaySpectator

WATCHING_SECONDS = 3 * SEEN_EVERY     # a stream is seen every SEEN_EVERY s: two missed beats

_lock = threading.Lock()
_touched: dict[tuple[int, int], float] = {}     # (game, user) → when this process wrote it


def spectators_touch(pairs: Iterable[tuple[int, int | None]],
                     now: datetime | None = None) -> int:
    """(game id, user id) pairs watching now: their rows written in one upsert, those this
    process wrote within ``SEEN_EVERY`` seconds skipped. Returns the rows written."""
    clock = time.monotonic()
    known = {(game, user) for game, user in pairs if user is not None}
    with _lock:
        due = [p for p in known if clock - _touched.get(p, -SEEN_EVERY) >= SEEN_EVERY]
        for pair in due:
            _touched[pair] = clock
        if len(_touched) > 10_000:                      # forget the long gone
            for pair in [p for p, at in _touched.items() if clock - at > WATCHING_SECONDS]:
                del _touched[pair]
    if not due:
        return 0
    now = now or timezone.now()
    PlaySpectator.objects.bulk_create(
        [PlaySpectator(game_id=game, user_id=user, seen_at=now) for game, user in due],
        update_conflicts=True, unique_fields=["game", "user"], update_fields=["seen_at"])
    return len(due)


def spectators_forget() -> None:
    """Forget which rows this process wrote lately (tests: a fresh process)."""
    with _lock:
        _touched.clear()


def watchers_count(game_ids: Iterable[int], now: datetime | None = None) -> Mapping[int, int]:
    """How many people watch each game now (games nobody watches are absent)."""
    ids = list(game_ids)
    if not ids:
        return {}
    since = (now or timezone.now()) - timedelta(seconds=WATCHING_SECONDS)
    rows = (PlaySpectator.objects.filter(game_id__in=ids, seen_at__gte=since)
            .values_list("game_id").annotate(n=Count("pk")))
    return {int(game): int(n) for game, n in rows}
