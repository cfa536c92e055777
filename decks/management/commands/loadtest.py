"""``manage.py loadtest``: latency and throughput of a running site, page by page.

Sends requests from a few client threads, for a fixed time, to five addresses of a site served on
this machine (the card list, a catalogue search, deck validation through the API, the builder
page and a public deck's page) and prints, for each, the requests made, the median and 95th
percentile latency and the requests per second. Only loopback addresses are accepted: this is a
measuring tool, not a way to load someone else's server.

    ./run.sh &                                     # the production-like server on :8000
    .venv/bin/python manage.py loadtest --url http://127.0.0.1:8000 --seconds 10

The deck page and the validation body use a public deck of the site's database (the command
runs against the same database as the server); with none, a public copy of a starter deck is
saved for a user named ``loadtest``.
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from dataclasses import dataclass, field
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
        Target("card list", "GET", "/cards/"),
        Target("search k:minion c<=3", "GET", "/cards/?q=k%3Aminion+c%3C%3D3"),
        Target("deck validation (API)", "POST", "/api/decks/validate/", body,
               {"Content-Type": "application/json"}),
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


class Command(BaseCommand):
    help = "Measure p50/p95 latency and requests/s of a site served on this machine."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="The running site (loopback only).")
        parser.add_argument("--seconds", type=float, default=10.0,
                            help="Time spent on each address (default 10).")
        parser.add_argument("--clients", type=int, default=4,
                            help="Concurrent client threads (default 4).")

    def handle(self, *args, url: str, seconds: float, clients: int, **options):
        parts = urlsplit(url)
        if parts.hostname not in LOOPBACK:
            raise CommandError(NOT_LOOPBACK.format(host=parts.hostname))
        host, port = parts.hostname, parts.port or 80
        self.stdout.write(f"{url}: {clients} clients, {seconds:g} s per address")
        self.stdout.write(f"{'address':<24}{'requests':>9}{'failed':>8}{'p50 ms':>9}"
                          f"{'p95 ms':>9}{'req/s':>9}")
        for target in targets(public_deck()):
            _one(host, port, target)                    # warm up (not counted)
            target.latencies.clear()
            target.failures = 0
            elapsed = measure(host, port, target, seconds, clients)
            done = target.latencies
            self.stdout.write(
                f"{target.label:<24}{len(done):>9}{target.failures:>8}"
                f"{percentile(done, 50) * 1000:>9.1f}{percentile(done, 95) * 1000:>9.1f}"
                f"{len(done) / elapsed:>9.1f}")
