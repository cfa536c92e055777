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

The deck page and the validation body use a public deck of the site's database (the command
runs against the same database as the server); with none, a public copy of a starter deck is
saved for a user named ``loadtest``.
"""

from __future__ import annotations

import csv
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from cards.models import CardSet
from decks.drafts import Draft
from decks.models import Deck
from decks.selectors import deck_counts
from decks.services import deck_create

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
NOT_LOOPBACK = ("Only a server on this machine can be measured (127.0.0.1 or localhost), "
                "not {host!r}.")
NO_DECK = ("The database has no public deck and no starter deck to make one from: "
           "run load_cards.")


@dataclass
class Target:
    label: str
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    # Figures of a locust run (--tool locust), which keeps its own latencies.
    summary: tuple[int, int, float, float, float] | None = None


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


def targets(deck: Deck) -> list[Target]:
    body = json.dumps({"hero": deck.hero.code if deck.hero_id else None,
                       "cards": deck_counts(deck)}).encode()
    return [
        Target("minimal response", "GET", "/health/"),
        Target("card list", "GET", "/cards/"),
        Target("search k:minion c<=3", "GET", "/cards/?q=k%3Aminion+c%3C%3D3"),
        Target("deck validation (API)", "POST", "/api/decks/validate/", body,
               {"Content-Type": "application/json"}),
        Target("card page", "GET", "/cards/C001/"),
        Target("builder page", "GET", "/decks/build/"),
        Target("deck page", "GET", deck.get_absolute_url()),
    ]


def _one(host: str, port: int, target: Target) -> None:
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request(target.method, target.path, body=target.body, headers=target.headers)
        response = connection.getresponse()
        response.read()
        ok = response.status == 200
    except OSError:
        ok = False
    finally:
        connection.close()
    if ok:
        target.latencies.append(time.perf_counter() - started)
    else:
        target.failures += 1


def measure(host: str, port: int, target: Target, seconds: float, clients: int) -> float:
    """Keep ``clients`` threads requesting ``target`` for ``seconds``; the elapsed time."""
    deadline = time.perf_counter() + seconds

    def loop() -> None:
        while time.perf_counter() < deadline:
            _one(host, port, target)

    started = time.perf_counter()
    threads = [threading.Thread(target=loop) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


LOCUSTFILE = Path(__file__).resolve().parents[2] / "loadtest_locustfile.py"
ROOT = Path(__file__).resolve().parents[3]


def measure_with_locust(url: str, target: Target, seconds: float, clients: int) -> None:
    """Run locust headless on ``target`` and keep its figures in ``target.summary``."""
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "run")
        env = {**os.environ, "CARDLAB_LOAD_METHOD": target.method,
               "CARDLAB_LOAD_PATH": target.path,
               "CARDLAB_LOAD_BODY": (target.body or b"").decode(),
               "CARDLAB_LOAD_HEADERS": json.dumps(target.headers)}
        subprocess.run([sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
                        "--host", url, "-u", str(clients), "-r", str(clients),
                        "-t", f"{max(1, round(seconds))}s", "--csv", prefix, "--only-summary",
                        "--loglevel", "ERROR", "--stop-timeout", "5"],
                       env=env, check=False, capture_output=True, cwd=folder)
        with open(f"{prefix}_stats.csv", newline="") as stats:
            row = next(r for r in csv.DictReader(stats) if r["Name"] == target.path)
    target.summary = (int(row["Request Count"]), int(row["Failure Count"]),
                      float(row["50%"]), float(row["95%"]), float(row["Requests/s"]))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    """gunicorn with two processes and DEBUG off on ``port``, as ./run.sh serves the site."""
    env = {**os.environ, "DJANGO_DEBUG": "0"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "2",
                               "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
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


class Command(BaseCommand):
    help = ("Measure p50/p95 latency and requests/s of the busiest pages of a site served on "
            "this machine, beside a minimal response served the same way.")

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="The running site (loopback only).")
        parser.add_argument("--seconds", type=float, default=10.0,
                            help="Time spent on each address (default 10).")
        parser.add_argument("--clients", type=int, default=4,
                            help="Concurrent clients (default 4).")
        parser.add_argument("--tool", choices=("threads", "locust"), default="threads",
                            help="Who sends the requests: this command's client threads "
                                 "(default) or locust, headless.")
        parser.add_argument("--serve", action="store_true",
                            help="Start gunicorn (2 processes, DEBUG off) on a free port for "
                                 "the run instead of measuring --url.")

    def handle(self, *args, url: str, seconds: float, clients: int, tool: str, serve: bool,
               **options):
        server = None
        if serve:
            port = _free_port()
            url = f"http://127.0.0.1:{port}"
            server = start_server(port)
        try:
            self._measure(url, seconds, clients, tool)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)

    def _measure(self, url: str, seconds: float, clients: int, tool: str) -> None:
        parts = urlsplit(url)
        if parts.hostname not in LOOPBACK:
            raise CommandError(NOT_LOOPBACK.format(host=parts.hostname))
        host, port = parts.hostname, parts.port or 80
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        self.stdout.write(f"{url}: {clients} clients ({tool}), {seconds:g} s per address, "
                          f"load average {load:.1f}")
        self.stdout.write(f"{'address':<24}{'requests':>9}{'failed':>8}{'p50 ms':>9}"
                          f"{'p95 ms':>9}{'req/s':>9}{'of minimal':>12}")
        ceiling = None
        for target in targets(public_deck()):
            _one(host, port, target)                    # warm up (not counted)
            target.latencies.clear()
            target.failures = 0
            if tool == "locust":
                measure_with_locust(url, target, seconds, clients)
                done, failed, p50, p95, rate = target.summary
            else:
                elapsed = measure(host, port, target, seconds, clients)
                done, failed = len(target.latencies), target.failures
                p50 = percentile(target.latencies, 50) * 1000
                p95 = percentile(target.latencies, 95) * 1000
                rate = done / elapsed
            ceiling = ceiling or rate
            share = f"{rate / ceiling:.0%}" if ceiling else "–"
            self.stdout.write(f"{target.label:<24}{done:>9}{failed:>8}{p50:>9.1f}{p95:>9.1f}"
                              f"{rate:>9.1f}{share:>12}")
