"""The live-play scenario of ``manage.py loadtest --play-games N``: N games between two people
in progress, both players' pages open and waiting on the game's stream
(``/api/play/<uid>/events/``), while the catalogue is measured; then moves played one at a
time, each timed from the mover's POST to the event on the other player's stream.

The games, their 2·N players and their sessions are written straight into the database the
server reads (as the load test's deck is) and removed after the run. The streams are plain
sockets read by one thread (``selectors``), so 400 of them cost the client little.
"""

from __future__ import annotations

import http.client
import json
import secrets
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone

from play.engine.adapter import game_start
from play.models import HUMAN, PlayGame
from simulations.sources import cards_freeze

PREFIX = "loadtest-live-"
# A clock that never runs out during a run: the scenario measures waiting, not timeouts.
CALM_CLOCK = {"turn": 3600, "reserve": 3600, "away": 3600}


@dataclass
class Player:
    name: str
    session: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))

    def headers(self, *, post: bool = False) -> dict[str, str]:
        cookie = (f"{settings.SESSION_COOKIE_NAME}={self.session}; "
                  f"{settings.CSRF_COOKIE_NAME}={self.csrf}")
        out = {"Cookie": cookie}
        if post:
            out.update({"X-CSRFToken": self.csrf, "Content-Type": "application/json"})
        return out


@dataclass
class LiveGame:
    uid: str
    players: tuple[Player, Player]


def _session(user: Any) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def live_games_make(count: int, deck: dict[str, Any]) -> list[LiveGame]:
    """``count`` games between two people at their start, both players present and their
    clocks running (a game in progress: opening its pages changes nothing)."""
    live_games_remove()
    users = get_user_model()
    made = []
    decks = [dict(deck), dict(deck)]
    cards = cards_freeze(decks)
    now = timezone.now()
    clock = {"to_move": None, "turn_began": now, "deadline": now + timedelta(hours=2)}
    for index in range(count):
        pair = []
        for side in "ab":
            user = users(username=f"{PREFIX}{side}{index}")
            user.set_unusable_password()
            user.save()
            pair.append(user)
        game = PlayGame.objects.create(
            owner=pair[0], guest=pair[1], decks=decks, cards=cards, seats=[HUMAN, HUMAN],
            seed=index, first_player=0, clock=dict(CALM_CLOCK),
            reserve=[float(CALM_CLOCK["reserve"])] * 2, seen_p1=now, seen_p2=now,
            **{**clock, "to_move": game_start(cards=cards, decks=decks, seed=index, ruleset={},
                                              first_player=0).to_move})
        made.append(LiveGame(uid=game.uid, players=(
            Player(pair[0].get_username(), _session(pair[0])),
            Player(pair[1].get_username(), _session(pair[1])))))
    return made


def live_games_remove() -> None:
    """The scenario's games, players and their sessions (deleted with the users' games)."""
    get_user_model().objects.filter(username__startswith=PREFIX).delete()


class Streams:
    """Every player's stream of every game, open at once, read by one thread: the time each
    (game, seat) last received an event, and the version it carried."""

    def __init__(self, host: str, port: int, games: list[LiveGame]) -> None:
        self.host, self.port, self.games = host, port, games
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self.seen: dict[tuple[str, int], tuple[int, float]] = {}
        self.opened = 0
        self._stop = False
        self._thread = threading.Thread(target=self._read, daemon=True)

    def open(self) -> None:
        for game in self.games:
            for seat, player in enumerate(game.players):
                sock = socket.create_connection((self.host, self.port), timeout=30)
                headers = "".join(f"{k}: {v}\r\n" for k, v in player.headers().items())
                sock.sendall((f"GET /api/play/{game.uid}/events/ HTTP/1.1\r\nHost: "
                              f"{self.host}\r\nAccept: text/event-stream\r\n{headers}\r\n")
                             .encode())
                sock.setblocking(False)
                self._selector.register(sock, selectors.EVENT_READ, (game.uid, seat, [b""]))
                self.opened += 1
        self._thread.start()

    def _read(self) -> None:
        while not self._stop:
            for key, _ in self._selector.select(timeout=0.2):
                uid, seat, buffer = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self._selector.unregister(key.fileobj)
                    continue
                arrived = time.perf_counter()
                buffer[0] += chunk
                for line in buffer[0].split(b"\n"):
                    if line.startswith(b"id: "):
                        version = int(line[4:].split(b":")[0])
                        with self._lock:
                            self.seen[(uid, seat)] = (version, arrived)
                buffer[0] = buffer[0][-200:]

    def arrival(self, uid: str, seat: int, version: int, timeout: float) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            with self._lock:
                found = self.seen.get((uid, seat))
            if found is not None and found[0] >= version:
                return found[1]
            time.sleep(0.005)
        return None

    def alive(self) -> int:
        return len(self._selector.get_map())

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()


def _request(host: str, port: int, method: str, path: str, headers: dict[str, str],
             body: bytes | None = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None
    finally:
        connection.close()


def propagation(host: str, port: int, games: list[LiveGame], streams: Streams, moves: int,
                pause: float = 0.25) -> tuple[list[float], int]:
    """Play ``moves`` moves, each in the next game in turn by the player to move; the seconds
    from each POST to the other player's event carrying it, and how many never came (5 s)."""
    delays: list[float] = []
    missed = 0
    for index in range(moves):
        game = games[index % len(games)]
        seat, state = None, None
        for candidate in (0, 1):
            status, data = _request(host, port, "GET", f"/api/play/{game.uid}/",
                                    game.players[candidate].headers())
            if status == 200 and data["actions"]:
                seat, state = candidate, data
                break
        if seat is None or state is None:
            continue
        player = game.players[seat]
        body = json.dumps({"version": state["version"],
                           "action": state["actions"][0]["action"]}).encode()
        sent = time.perf_counter()
        status, data = _request(host, port, "POST", f"/api/play/{game.uid}/actions/",
                                player.headers(post=True), body)
        if status != 200:
            missed += 1
            continue
        came = streams.arrival(game.uid, 1 - seat, int(data["version"]), 5.0)
        if came is None:
            missed += 1
        else:
            delays.append(came - sent)
        time.sleep(pause)
    return delays, missed
