"""Who is here: a player's presence (``seen_p1``, ``seen_p2``), written at most every
``SEEN_EVERY`` seconds. Presence is not a change of the game: it is written without the
version (``play.store``), and raises none."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.utils import timezone

from play.models import PlayGame

SEEN_EVERY = 5.0            # seconds between two writes of a player's presence


def _seen_field(seat: int) -> str:
    return "seen_p1" if seat == 0 else "seen_p2"


def seen_at(record: PlayGame, seat: int) -> datetime | None:
    return record.seen_p1 if seat == 0 else record.seen_p2


def seen_touch(record: PlayGame, seat: int | None, now: datetime | None = None) -> None:
    """The player of ``seat`` is here (a page, a poll, a stream, an action)."""
    if seat is None or not record.friendly:
        return
    now = now or timezone.now()
    last = seen_at(record, seat)
    if last is not None and (now - last).total_seconds() < SEEN_EVERY:
        return
    PlayGame.objects.filter(pk=record.pk).update(**{_seen_field(seat): now})
    setattr(record, _seen_field(seat), now)


def seen_touch_many(ids_by_seat: Mapping[int, list[int]], now: datetime | None = None) -> None:
    """Presence of the players whose pages wait on a stream: one update per seat."""
    now = now or timezone.now()
    for seat, ids in ids_by_seat.items():
        if ids:
            PlayGame.objects.filter(pk__in=ids).update(**{_seen_field(seat): now})
