"""``manage.py loadtest``: latency and throughput of a running site, page by page.

Sends requests for a fixed time to the busiest addresses of a site served on this machine (the
card list, a catalogue search, a card page, deck validation through the API, the builder page
and a public deck's page) and prints, for each, the requests made, the median and 95th
percentile latency and the requests per second, and first the same figures for a minimal
Django response (``/health/``: the whole middleware stack, no template, no query) served the
same way in the same run. Each address's throughput is also given as a share of that minimal
response's: the ceiling of this stack on this machine, so the share does not move with the
machine the way requests per second do. Only loopback addresses are accepted: this is a
measuring tool, not a way to load someone else's server.

    ./run.sh &                                     # the production-like server on :8000
    .venv/bin/python manage.py loadtest --url http://127.0.0.1:8000 --seconds 10
    .venv/bin/python manage.py loadtest --serve --tool locust --clients 8   # all in one

``--tool locust`` drives the load with locust (headless, FastHttpUser) instead of the command's
own client threads; ``--serve`` starts gunicorn with two processes (DEBUG off, the settings of
the environment: ``DATABASE_URL`` for PostgreSQL) on a free port for the run and stops it after.

With ``--serve`` each address also gets the CPU time the server's processes spent per request
(Linux): a figure the machine's load does not move, to compare two versions of the site.

On a machine shared with other work the load moves from one second to the next: each address's
time is cut into ``--rounds`` slices taken in turn (minimal response, card list, …, then again),
so a busy moment falls on every address alike rather than on whichever was being measured. Each
address is first requested for a moment by every client, uncounted, so each server process has
built and stored it before the measurement starts.

The deck page and the validation body use a public deck of the site's database (the command
runs against the same database as the server); with none, a public copy of a starter deck is
saved for a user named ``loadtest``.

Deck validation is measured twice, as users send it: the same list again and again (the
builder after every change, a shared list: the server answers it from what it kept) and fresh
lists, a different one for every request (``fresh_bodies``: lists of the default format drawn
from the catalogue, three in four legal, the fourth with one problem in turn), more than the
run can send, so the server validates each one as never seen before. The report says how many
fresh lists were sent, how many of them had problems and whether any was sent twice. A third
address sends the fresh lists with one count written as text (``"2"``): a list the API takes
but its plain reader leaves to DRF's parser and serializer (``text_count_bodies``), so the
path every other body takes is measured too.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, TypedDict
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from cards.models import Card, CardSet
from decks.drafts import Draft
from decks.models import Deck
from decks.selectors import deck_counts
from decks.services import deck_create
from decks.validation.services import validation_catalogue
from rules.decks import legality
from tools import play_load

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
NOT_LOOPBACK = ("Only a server on this machine can be measured (127.0.0.1 or localhost), "
                "not {host!r}.")
LOCUST_SAW_NOTHING = ("locust finished no request to {path} in {seconds:g} s (exit code {code}). "
                      "Is the server up, and does it answer within the run? locust said: {said}")
NO_DECK = ("The database has no public deck and no starter deck to make one from: "
           "run load_cards.")
NO_FRESH_LISTS = ("The catalogue has too few cards of the {format!r} format to draw a deck "
                  "from: run load_cards.")


@dataclass
class Target:
    label: str
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    bodies: Sequence[bytes] = ()   # else a body of its own for each request, in turn
    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    # What each failed request got: its status ("500") or what broke ("connection reset").
    failed_by: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0       # seconds spent measuring it, over every round
    server_cpu: float = 0.0    # CPU seconds the server's processes spent meanwhile (--serve)
    turn: Iterator[int] = field(default_factory=itertools.count, repr=False)
    sent: int = 0              # bodies of ``bodies`` sent, the warm-up's too

    def reset(self) -> None:
        self.latencies.clear()
        self.failed_by.clear()
        self.failures, self.elapsed, self.server_cpu = 0, 0.0, 0.0

    def failed(self, why: str) -> None:
        self.failures += 1
        self.failed_by[why] += 1

    def next_body(self) -> bytes | None:
        """The body of the next request: the next of ``bodies`` (each client thread takes its
        own: ``next`` on a count is atomic), else ``body``."""
        if not self.bodies:
            return self.body
        self.sent = next(self.turn) + 1
        return self.bodies[(self.sent - 1) % len(self.bodies)]

    def skip(self, count: int) -> None:
        """Count ``count`` bodies as sent (by another process: locust)."""
        self.sent += count
        self.turn = itertools.count(self.sent)


# Fresh lists made for a run: more than the site answers in the run's seconds (and its
# warm-up), so no list is sent twice.
FRESH_LISTS_PER_SECOND = 2500
FLAWS = ("copy_limit", "deck_too_large", "hero_missing", "unknown_card")


def fresh_bodies(count: int, *, seed: int = 43) -> list[bytes]:
    """``count`` different validation bodies of the default format, drawn from the catalogue:
    three in four are legal lists, every fourth (index 3, 7, …) breaks one rule, in turn: a
    card over its copy limit, a card too many, no hero, a code no card has."""
    catalogue = validation_catalogue()
    rules = catalogue.formats[catalogue.default].rules

    def playable(code: str) -> bool:
        return ((not rules.game or catalogue.game_of[code] == rules.game)
                and (rules.legal_sets is None or catalogue.set_of[code] in rules.legal_sets)
                and rules.card_limits.get(code) != 0)

    heroes = sorted(c for c, card in catalogue.cards.items()
                    if card.kind == "hero" and playable(c))
    pool = sorted((c, rules.copy_limit(card.rarity) or 1) for c, card in catalogue.cards.items()
                  if card.kind in rules.deck_kinds and playable(c)
                  and c not in rules.card_limits and c not in rules.card_copy_limits)
    if not heroes or sum(limit for _, limit in pool) < rules.deck_max + 1:
        raise CommandError(NO_FRESH_LISTS.format(format=catalogue.default))
    rng = random.Random(seed)
    made: dict[bytes, None] = {}
    for _ in range(count * 50):     # duplicates are drawn again (a tiny catalogue has few lists)
        if len(made) == count:
            break
        flaw = FLAWS[len(made) // 4 % len(FLAWS)] if len(made) % 4 == 3 else ""
        hero, cards = _fresh_list(rng, heroes, pool, rules, flaw)
        body = json.dumps({"hero": hero, "cards": cards}).encode()
        made.setdefault(body)
    return list(made)


def text_count_bodies(bodies: Sequence[bytes]) -> list[bytes]:
    """The same lists with their first card's count written as text: still valid, but read by
    DRF's serializer rather than the plain reader."""
    out = []
    for body in bodies:
        data = json.loads(body)
        first = next(iter(data["cards"]), None)
        if first is not None:
            data["cards"][first] = str(data["cards"][first])
        out.append(json.dumps(data).encode())
    return out


def _fresh_list(rng: random.Random, heroes: list[str], pool: list[tuple[str, int]],
                rules: legality.Format, flaw: str) -> tuple[str | None, dict[str, int]]:
    size = rules.deck_max + 1 if flaw == "deck_too_large" else rng.randint(rules.deck_min,
                                                                             rules.deck_max)
    chosen = rng.sample(pool, min(len(pool), size))
    cards: dict[str, int] = {}
    left = size
    for code, limit in chosen + chosen:     # the second pass fills a small catalogue's lists
        count = min(left, limit - cards.get(code, 0),
                    rng.randint(1, limit) if code not in cards else limit)
        if count > 0:
            cards[code] = cards.get(code, 0) + count
            left -= count
    if flaw == "copy_limit":                # one copy over the limit, the size kept
        code, limit = chosen[0]
        _take(cards, limit + 1 - cards[code], but=code)
        cards[code] = limit + 1
    elif flaw == "unknown_card":
        _take(cards, 1)
        cards[f"NO-SUCH-{rng.randrange(10**6)}"] = 1
    return (None if flaw == "hero_missing" else rng.choice(heroes)), cards


def _take(cards: dict[str, int], count: int, *, but: str = "") -> None:
    """Take ``count`` copies out of ``cards``, last entries first, never of ``but``."""
    for code in reversed(list(cards)):
        if count <= 0:
            return
        if code != but:
            taken = min(count, cards[code])
            cards[code] -= taken
            count -= taken
            if not cards[code]:
                del cards[code]


def public_deck() -> Deck:
    deck = Deck.objects.filter(visibility="public").order_by("-updated_at").first()
    if deck is not None:
        return deck
    starter = next((d for s in CardSet.objects.order_by("code") for d in s.starter_decks or []
                    if d.get("hero")), None)
    if starter is None:
        raise CommandError(NO_DECK)
    owner, _ = get_user_model().objects.get_or_create(username="loadtest")
    draft = Draft(name=str(starter["name"]), hero=str(starter["hero"]),
                  cards={str(k): int(v) for k, v in starter.get("cards", {}).items()},
                  visibility="public")
    return deck_create(owner=owner, draft=draft, note="Made by manage.py loadtest")


def targets(deck: Deck, fresh: Sequence[bytes]) -> list[Target]:
    card = Card.objects.order_by("code").values_list("code", flat=True).first() or "C001"
    body = json.dumps({"hero": deck.hero.code if deck.hero is not None else None,
                       "cards": deck_counts(deck)}).encode()
    json_body = {"Content-Type": "application/json"}
    return [
        Target("minimal response", "GET", "/health/"),
        Target("card list", "GET", "/cards/"),
        Target("search k:minion c<=3", "GET", "/cards/?q=k%3Aminion+c%3C%3D3"),
        Target("validation: same list", "POST", "/api/decks/validate/", body, json_body),
        Target("validation: fresh lists", "POST", "/api/decks/validate/", headers=json_body,
               bodies=fresh),
        Target("validation: via DRF", "POST", "/api/decks/validate/", headers=json_body,
               bodies=text_count_bodies(fresh)),
        Target("card page", "GET", reverse("cards:detail", args=[card])),
        Target("builder page", "GET", "/decks/build/"),
        Target("deck page", "GET", deck.get_absolute_url()),
    ]


class Client:
    """One client: a connection kept alive from request to request, as a browser keeps it
    (``keep_alive=False``: a new connection for each request), opened again after a failure or
    when the server closes it."""

    def __init__(self, host: str, port: int, *, keep_alive: bool = True) -> None:
        self.host, self.port, self.keep_alive = host, port, keep_alive
        self._connection: http.client.HTTPConnection | None = None

    def ask(self, target: Target) -> None:
        started = time.perf_counter()
        if self._connection is None:
            self._connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            self._connection.request(target.method, target.path, body=target.next_body(),
                                     headers=target.headers)
            response = self._connection.getresponse()
            response.read()
            why = "" if response.status == 200 else str(response.status)
            if response.will_close or not self.keep_alive:
                self.close()
        except (OSError, http.client.HTTPException) as exc:
            why = _what_broke(exc)
            self.close()
        if why:
            target.failed(why)
        else:
            target.latencies.append(time.perf_counter() - started)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _what_broke(exc: BaseException) -> str:
    """A failed request's cause in a few words, for the failures-by-status line."""
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(exc, ConnectionResetError):
        return "connection reset"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "closed without answer"
    return type(exc).__name__


def measure(host: str, port: int, target: Target, seconds: float, clients: int, *,
            keep_alive: bool = True) -> None:
    """Keep ``clients`` threads requesting ``target`` for ``seconds``, each over a connection
    it keeps alive (``keep_alive=False``: a connection per request)."""
    deadline = time.perf_counter() + seconds

    def loop() -> None:
        client = Client(host, port, keep_alive=keep_alive)
        try:
            while time.perf_counter() < deadline:
                client.ask(target)
        finally:
            client.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=loop) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    target.elapsed += time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


LOCUSTFILE = Path(__file__).resolve().parents[2] / "loadtest_locustfile.py"
ROOT = Path(__file__).resolve().parents[3]


class LocustResult(TypedDict):
    """What the locust file writes to ``CARDLAB_LOAD_RESULT`` when locust quits (with none
    written, no latencies and no failures)."""

    latencies_ms: list[float]
    failures: int
    first_failure: NotRequired[str]
    span_s: NotRequired[float]


def measure_with_locust(url: str, target: Target, seconds: float, clients: int) -> None:
    """Run locust headless on ``target`` for ``seconds``; its latencies, failures and span join
    the target's. A run in which no request finished at all is an error that says why."""
    with tempfile.TemporaryDirectory() as folder:
        result = os.path.join(folder, "result.json")
        env = {**os.environ, "CARDLAB_LOAD_METHOD": target.method,
               "CARDLAB_LOAD_PATH": target.path,
               "CARDLAB_LOAD_BODY": (target.body or b"").decode(),
               "CARDLAB_LOAD_HEADERS": json.dumps(target.headers),
               "CARDLAB_LOAD_RESULT": result}
        if target.bodies:       # the bodies not sent yet, one a line (JSON has no raw newline)
            bodies = os.path.join(folder, "bodies.jsonl")
            with open(bodies, "wb") as out:
                out.write(b"\n".join(target.bodies[target.sent:] or target.bodies))
            env["CARDLAB_LOAD_BODIES"] = bodies
        run = subprocess.run([sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
                              "--host", url, "-u", str(clients), "-r", str(clients),
                              "-t", f"{max(1, round(seconds))}s", "--only-summary",
                              "--loglevel", "ERROR", "--stop-timeout", "5"],
                             env=env, check=False, capture_output=True, cwd=folder)
        seen: LocustResult
        try:
            with open(result) as kept:
                seen = json.load(kept)
        except (OSError, ValueError):
            seen = {"latencies_ms": [], "failures": 0}
    if not seen["latencies_ms"] and not seen["failures"]:
        said = (run.stderr or run.stdout).decode(errors="replace").strip()[-1500:]
        raise CommandError(LOCUST_SAW_NOTHING.format(path=target.path, seconds=seconds,
                                                     code=run.returncode, said=said or "nothing"))
    target.latencies.extend(ms / 1000 for ms in seen["latencies_ms"])
    target.failures += int(seen["failures"])
    if target.bodies:
        target.skip(len(seen["latencies_ms"]) + int(seen["failures"]))
    target.elapsed += float(seen["span_s"])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def server_cpu_seconds(master: int) -> float:
    """CPU time (user and system) used so far by the worker processes of gunicorn ``master``,
    from Linux's /proc: unlike requests per second, it does not move with the machine's load."""
    ticks = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:         # gone meanwhile
            continue
        if int(fields[1]) == master:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


SERVERS = {
    # As ./run.sh serves the site: gunicorn managing uvicorn's ASGI workers.
    "asgi": ["config.asgi:application", "-k", "config.asgi_worker.Worker"],
    # gunicorn's own synchronous workers, as the site was served before the live games.
    "wsgi": ["config.wsgi"],
}
SERVER_LABELS = {"asgi": "production entry (gunicorn + config.asgi, as ./run.sh)",
                 "wsgi": "plain WSGI (gunicorn config.wsgi, synchronous workers)"}


def start_server(port: int, kind: str = "asgi") -> subprocess.Popen[bytes]:
    """gunicorn with two processes and DEBUG off on ``port``, as ./run.sh serves the site
    (``kind`` "wsgi": its synchronous workers instead)."""
    # The command's own key: the live-play scenario writes the sessions the server reads.
    env = {**os.environ, "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or settings.SECRET_KEY}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", *SERVERS[kind], "--workers",
                               "2", "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
                              cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/health/")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise CommandError("gunicorn did not answer on /health/ within a minute.")


@dataclass
class Side:
    """One server measured: its address, its gunicorn master (``--serve``: its processes' CPU)
    and its addresses' figures."""

    label: str
    host: str
    port: int
    master: int | None
    measured: list[Target]


class Command(BaseCommand):
    help = ("Measure p50/p95 latency and requests/s of the busiest pages of a site served on "
            "this machine, beside a minimal response served the same way.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="The running site (loopback only).")
        parser.add_argument("--seconds", type=float, default=10.0,
                            help="Time spent on each address (default 10).")
        parser.add_argument("--clients", type=int, default=4,
                            help="Concurrent clients (default 4).")
        parser.add_argument("--tool", choices=("threads", "locust"), default="threads",
                            help="Who sends the requests: this command's client threads "
                                 "(default) or locust, headless.")
        parser.add_argument("--rounds", type=int, default=3,
                            help="Slices each address's time is cut into, taken in turn with "
                                 "the other addresses' (default 3).")
        parser.add_argument("--new-connection-each", action="store_true",
                            help="Open a new connection for every request (default: each "
                                 "client keeps its connection alive, as a browser does).")
        parser.add_argument("--serve", action="store_true",
                            help="Start gunicorn (2 processes, DEBUG off) on a free port for "
                                 "the run instead of measuring --url.")
        parser.add_argument("--server", choices=sorted(SERVERS), default="asgi",
                            help="With --serve: gunicorn's ASGI workers as ./run.sh (default) "
                                 "or its synchronous ones.")
        parser.add_argument("--against-wsgi", action="store_true",
                            help="With --serve: start both, the production entry point (ASGI, "
                                 "as ./run.sh) and plain WSGI gunicorn, measure each address "
                                 "on one then the other in every round, and give the "
                                 "production entry's throughput as a share of WSGI's.")
        parser.add_argument("--play-games", type=int, default=0,
                            help="The live-play scenario: this many games between two people "
                                 "in progress, both players' pages waiting on the game's "
                                 "stream; the card list measured with none and with them "
                                 "waiting, in the same run, then moves timed from a player's "
                                 "POST to the other player's event.")
        parser.add_argument("--play-moves", type=int, default=60,
                            help="Moves timed in the live-play scenario (default 60).")

    def handle(self, *args: Any, url: str, seconds: float, clients: int, tool: str,
               serve: bool, rounds: int, server: str = "asgi", play_games: int = 0,
               play_moves: int = 60, against_wsgi: bool = False,
               new_connection_each: bool = False, **options: Any) -> None:
        if rounds < 1 or clients < 1 or seconds <= 0:
            raise CommandError("--rounds and --clients are at least 1, --seconds above 0.")
        if against_wsgi and (not serve or play_games):
            raise CommandError("--against-wsgi starts both servers itself: give it with "
                               "--serve, without --play-games.")
        kinds = ["asgi", "wsgi"] if against_wsgi else [server]
        started: dict[str, subprocess.Popen[bytes]] = {}
        try:
            sides = []
            for kind in kinds:
                if serve:
                    port = _free_port()
                    started[kind] = start_server(port, kind)
                    url = f"http://127.0.0.1:{port}"
                parts = urlsplit(url)
                if (parts.hostname or "") not in LOOPBACK:
                    raise CommandError(NOT_LOOPBACK.format(host=parts.hostname))
                master = (started[kind].pid if kind in started and os.path.isdir("/proc")
                          else None)
                sides.append(Side(SERVER_LABELS[kind] if serve else url, parts.hostname or "",
                                  parts.port or 80, master, []))
            if play_games > 0:
                side = sides[0]
                live_measure(self.stdout.write, side.host, side.port, games=play_games,
                             moves=play_moves, seconds=seconds, clients=clients,
                             rounds=rounds, master=side.master)
                return
            self._measure(sides, seconds, clients, tool, rounds,
                          keep_alive=not new_connection_each)
        finally:
            for process in started.values():
                process.terminate()
                process.wait(timeout=30)

    def _measure(self, sides: list[Side], seconds: float, clients: int, tool: str,
                 rounds: int, *, keep_alive: bool) -> None:
        connections = "kept alive" if keep_alive else "a new connection per request"
        self.stdout.write(f"{', '.join(side.label for side in sides)}: {clients} clients "
                          f"({tool}, {connections}), {seconds:g} s per address in {rounds} "
                          f"rounds, load average {_load()} at the start")
        warm = min(1.0, seconds / 4)
        count = max(1000, round(FRESH_LISTS_PER_SECOND * (seconds + warm)))
        deck = public_deck()
        for number, side in enumerate(sides):   # lists of their own: no shared cache helps
            side.measured = targets(deck, fresh_bodies(count, seed=43 + number))
            for target in side.measured:        # every server process stores every page
                measure(side.host, side.port, target, warm, clients, keep_alive=keep_alive)
                target.reset()
        for _ in range(rounds):
            for index in range(len(sides[0].measured)):
                for side in sides:              # one address on each server in turn
                    self._slice(side, side.measured[index], seconds / rounds, clients, tool,
                                keep_alive)
        for side in sides:
            if len(sides) > 1:
                self.stdout.write(side.label)
            self._report(side.measured)
            self._fresh_lists_said(side.measured, count)
        if len(sides) > 1:
            self._compare(sides[0], sides[1])
        self.stdout.write(f"load average {_load()} at the end")

    def _slice(self, side: Side, target: Target, seconds: float, clients: int, tool: str,
               keep_alive: bool) -> None:
        before = server_cpu_seconds(side.master) if side.master else 0.0
        if tool == "locust":
            measure_with_locust(f"http://{side.host}:{side.port}", target, seconds, clients)
        else:
            measure(side.host, side.port, target, seconds, clients, keep_alive=keep_alive)
        if side.master:
            target.server_cpu += server_cpu_seconds(side.master) - before

    def _fresh_lists_said(self, measured: list[Target], count: int) -> None:
        sent = next(t.sent for t in measured if t.bodies)
        again = (f"{sent - count:,} of them a second time: raise FRESH_LISTS_PER_SECOND"
                 if sent > count else "each once")
        self.stdout.write(f"fresh lists: {sent:,} sent, warm-up included ({sent // 4:,} with "
                          f"a problem), {again}")

    def _report(self, measured: list[Target]) -> None:
        self.stdout.write(f"{'address':<24}{'requests':>9}{'failed':>8}{'p50 ms':>9}"
                          f"{'p95 ms':>9}{'req/s':>9}{'of minimal':>12}{'server CPU ms':>15}")
        ceiling = None
        for target in measured:
            done = len(target.latencies)
            rate = _rate(target)
            ceiling = ceiling or rate
            share = f"{rate / ceiling:.0%}" if ceiling else "–"
            cpu = f"{target.server_cpu / done * 1000:.2f}" if target.server_cpu and done else "–"
            self.stdout.write(
                f"{target.label:<24}{done:>9}{target.failures:>8}"
                f"{percentile(target.latencies, 50) * 1000:>9.1f}"
                f"{percentile(target.latencies, 95) * 1000:>9.1f}{rate:>9.1f}{share:>12}"
                f"{cpu:>15}")
        failed = [f"{t.label}: " + ", ".join(f"{why} × {n}" for why, n in
                                             sorted(t.failed_by.items()))
                  for t in measured if t.failed_by]
        self.stdout.write("failures by status: " + ("; ".join(failed) if failed else "none"))

    def _compare(self, production: Side, wsgi: Side) -> None:
        """Each address's throughput on the production entry as a share of plain WSGI's, and
        their geometric mean over the pages (every address but the minimal response)."""
        shares = []
        self.stdout.write(f"{'address':<24}{'ASGI / WSGI req/s':>20}")
        for ours, theirs in zip(production.measured, wsgi.measured, strict=True):
            share = _rate(ours) / _rate(theirs) if _rate(theirs) else 0.0
            if ours is not production.measured[0]:
                shares.append(share)
            self.stdout.write(f"{ours.label:<24}{share:>20.2f}")
        mean = statistics.geometric_mean(shares) if all(shares) else 0.0
        self.stdout.write(f"page throughput of the production entry: {mean:.2f}× plain WSGI "
                          f"gunicorn's (geometric mean over {len(shares)} addresses)")


def _rate(target: Target) -> float:
    return len(target.latencies) / target.elapsed if target.elapsed else 0.0


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


def _cpu_measure(host: str, port: int, target: Target, seconds: float, clients: int,
                 master: int | None) -> None:
    before = server_cpu_seconds(master) if master else 0.0
    measure(host, port, target, seconds, clients)
    if master:
        target.server_cpu += server_cpu_seconds(master) - before


def live_measure(say: Any, host: str, port: int, *, games: int, moves: int, seconds: float,
                 clients: int, rounds: int, master: int | None = None) -> None:
    """The card list with no game waiting and with ``games`` games' two pages waiting on their
    streams, in turns (``rounds``), then the moves' propagation; prints both."""
    deck = public_deck()
    frozen = {"name": deck.name, "hero": deck.hero.code if deck.hero is not None else None,
              "cards": deck_counts(deck)}
    made = play_load.live_games_make(games, frozen)
    quiet = Target("card list, none waiting", "GET", "/cards/")
    busy = Target(f"card list, {games} games waiting", "GET", "/cards/")
    say(f"live play: {games} games, {2 * games} streams; {clients} clients on the card list, "
        f"{seconds:g} s each way in {rounds} rounds; load average {_load()} at the start")
    delays: list[float] = []
    missed = 0
    opened = 0
    idle_cpu = idle_span = 0.0
    try:
        measure(host, port, quiet, min(1.0, seconds / 4), clients)
        quiet.reset()
        for _ in range(rounds):
            _cpu_measure(host, port, quiet, seconds / rounds, clients, master)
            streams = play_load.Streams(host, port, made)
            streams.open()
            time.sleep(3.0)                  # every stream answered and waiting
            opened = streams.alive()
            _cpu_measure(host, port, busy, seconds / rounds, clients, master)
            if master:                       # what the waiting pages alone cost the server
                before, started = server_cpu_seconds(master), time.perf_counter()
                time.sleep(2.0)
                idle_cpu += server_cpu_seconds(master) - before
                idle_span += time.perf_counter() - started
            found, lost = play_load.propagation(host, port, made, streams,
                                                max(1, moves // rounds))
            delays += found
            missed += lost
            streams.close()
    finally:
        play_load.live_games_remove()
    rates = {t.label: len(t.latencies) / t.elapsed if t.elapsed else 0.0 for t in (quiet, busy)}
    for target in (quiet, busy):
        done = len(target.latencies)
        cpu = (f"  server CPU {target.server_cpu / done * 1000:.2f} ms/request"
               if target.server_cpu and done else "")
        say(f"{target.label:<32}{done:>8} requests {target.failures:>4} "
            f"failed  p50 {percentile(target.latencies, 50) * 1000:7.1f} ms  "
            f"p95 {percentile(target.latencies, 95) * 1000:7.1f} ms  "
            f"{rates[target.label]:8.1f} req/s{cpu}")
    if idle_span:
        say(f"{2 * games} streams waiting, no other request: the server's processes used "
            f"{idle_cpu / idle_span:.1%} of one core")
    ratio = rates[busy.label] / rates[quiet.label] if rates[quiet.label] else 0.0
    say(f"the card list keeps {ratio:.0%} of its rate with {games} games waiting "
        f"({opened} streams open at the last round)")
    if delays:
        say(f"a move reaches the other player's page: median {statistics.median(delays):.3f} "
            f"s, 95th percentile {percentile(delays, 95):.3f} s, max {max(delays):.3f} s "
            f"({len(delays)} moves, {missed} not seen within 5 s)")
    else:
        say(f"no move reached the other player's page ({missed} not seen within 5 s)")
    say(f"load average {_load()} at the end")
