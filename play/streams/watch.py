"""One watcher per server process: the games its open pages wait on, read in ONE query.

A stream (``play.streams.events``) registers the game it follows with the version it last sent
and an ``asyncio.Event``; a thread of the process reads the versions of every watched game in
one query every ``PLAY_WATCH_SECONDS`` (0.2 s) and sets the events of the streams whose game
moved on. A waiting page therefore costs the server nothing but its share of that query: no
replay, no request. Once a second (every ``CLOCK_EVERY``-th read) the query also carries each
game's clock: a game whose period ran out or whose player to move is gone too long is enforced
here (``play.clock.keep``), so the clock runs when both players only watch. Every ``SEEN_EVERY``
seconds the watcher marks the players of the streams open in this process as present (one update
per seat), and their spectators (one upsert); once a second it counts each watched game's
spectators (one grouped query) and wakes the streams whose count changed (``event: watchers``).

Works the same on SQLite and PostgreSQL; needs no Redis. With several processes each watches
its own streams (the versions are in the database, which every process reads).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import close_old_connections
from django.utils import timezone

from play import conf
from play.clock.keep import clock_keep
from play.clock.presence import SEEN_EVERY, seen_touch_many
from play.models import PlayGame, PlayStatus
from play.spectators.presence import spectators_touch, watchers_count

log = logging.getLogger(__name__)
CLOCK_EVERY = 5            # ticks between two reads of the clocks (once a second)


@dataclass(eq=False)
class Waiter:
    """A stream waiting on a game: woken (``event``) when its version moves past ``version``."""

    game_id: int
    seat: int | None
    version: int
    loop: asyncio.AbstractEventLoop
    spectator: int | None = None        # a spectator's user id (their presence)
    watchers: int = -1                  # the spectators of the game last counted (-1: not yet)
    event: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        self.loop.call_soon_threadsafe(self.event.set)


class Watcher:
    def __init__(self, *, autostart: bool = True) -> None:
        self.autostart = autostart      # False: ticked by hand (tests)
        self._lock = threading.Lock()
        self._waiters: dict[int, set[Waiter]] = {}
        self._thread: threading.Thread | None = None
        self._seen_at = 0.0
        self.reads = 0                  # queries made (tests, the load test's report)

    def add(self, waiter: Waiter) -> None:
        with self._lock:
            self._waiters.setdefault(waiter.game_id, set()).add(waiter)
            if self.autostart and (self._thread is None or not self._thread.is_alive()):
                self._thread = threading.Thread(target=self._run, name="play-watch",
                                                daemon=True)
                self._thread.start()

    def remove(self, waiter: Waiter) -> None:
        with self._lock:
            found = self._waiters.get(waiter.game_id)
            if found is not None:
                found.discard(waiter)
                if not found:
                    del self._waiters[waiter.game_id]

    def watched(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def _run(self) -> None:
        while True:
            time.sleep(conf.watch_seconds())
            try:
                self.tick()
            except Exception:            # a failed read must not stop the watching
                log.exception("the play watcher's read failed")
                close_old_connections()

    def tick(self, now: datetime | None = None) -> None:
        """Read every watched game once; wake the streams of those that moved on; enforce the
        clocks that are due; mark the watching players present now and then."""
        with self._lock:
            ids = list(self._waiters)
        if not ids:
            return
        now = now or timezone.now()
        # The clocks are read every CLOCK_EVERY-th tick (their times are in seconds); the
        # versions every tick: the lighter read is what a waiting page costs.
        full = self.reads % CLOCK_EVERY == 0
        self.reads += 1
        due = []
        rows: list[tuple[Any, ...]]
        if full:
            rows = list(PlayGame.objects.filter(pk__in=ids).values_list(
                "pk", "version", "status", "deadline", "to_move", "seen_p1", "seen_p2",
                "clock", "guest_id", "created_at"))
        else:
            rows = [(pk, version, None, None, None, None, None, None, None, None) for pk, version
                    in PlayGame.objects.filter(pk__in=ids).values_list("pk", "version")]
        with self._lock:
            watching = {pk: list(self._waiters.get(pk, ())) for pk, *_ in rows}
        for pk, version, status, deadline, to_move, seen_p1, seen_p2, clock, guest, made in rows:
            for waiter in watching[pk]:
                if version != waiter.version:
                    waiter.version = version
                    waiter.wake()
            if full and status == PlayStatus.PLAYING and guest is not None and clock:
                if _due(now, deadline, to_move, (seen_p1, seen_p2), clock, made):
                    due.append(pk)
        if full:
            self._count(watching, now)
        for pk in due:
            record = PlayGame.objects.filter(pk=pk).first()
            if record is not None:
                clock_keep(record, now=now)
        if time.monotonic() - self._seen_at >= SEEN_EVERY:
            self._seen_at = time.monotonic()
            seats: dict[int, list[int]] = {0: [], 1: []}
            spectators: set[tuple[int, int]] = set()
            with self._lock:
                for pk, kept in self._waiters.items():
                    for seat in {w.seat for w in kept if w.seat in (0, 1)}:
                        seats[int(seat or 0)].append(pk)
                    spectators.update((pk, w.spectator) for w in kept if w.spectator)
            seen_touch_many(seats, now)
            spectators_touch(spectators, now)

    @staticmethod
    def _count(watching: dict[int, list[Waiter]], now: datetime) -> None:
        """Wake the streams of games whose count of spectators changed (one grouped query)."""
        counts = watchers_count(watching, now)
        for pk, waiters in watching.items():
            for waiter in waiters:
                count = counts.get(pk, 0)
                if waiter.watchers != count:
                    first, waiter.watchers = waiter.watchers < 0, count
                    if not first:       # the first count is what the page was drawn with
                        waiter.wake()


def _due(now: datetime, deadline: datetime | None, to_move: int | None,
         seen: tuple[datetime | None, datetime | None], clock: dict[str, Any],
         made: datetime | None = None) -> bool:
    if deadline is None and to_move is None:
        if seen[0] is not None and seen[1] is not None:
            return True                                        # the clock is to start
        # ... or a player never came: the game is to be called off
        return made is not None and (now - made).total_seconds() > float(clock.get("away", 0))
    if deadline is not None and now >= deadline:
        return True
    if to_move in (0, 1):
        last = seen[int(to_move or 0)]
        return last is None or (now - last).total_seconds() > float(clock.get("away", 0))
    return False


WATCHER = Watcher()
