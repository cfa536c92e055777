"""``python manage.py bench_catalogue``: latency and throughput of the catalogue, in-process.

Requests go through Django's test ``Client`` (the whole middleware, URL, view, template and
database stack, no network), one after another, against the configured database with the full
core set loaded (it is loaded first if it is missing). Prints p50/p95/max latency and requests
per second for each page; the target is p95 ≤ 30 ms.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import Client
from django.test.utils import override_settings

from cards.models import Card, CardSet
from cards.services import card_set_import
from rules.decks.cardset import CORE_SET, load_card_set

TARGET_P95_MS = 30.0
URLS = [
    ("card list API", "/api/cards/"),
    ("gallery page", "/cards/"),
    ("API, query", "/api/cards/?q=k:minion+(a:fire+or+a:water)+c<=3"),
    ("gallery, query", "/cards/?q=k:minion+(a:fire+or+a:water)+c<=3"),
    ("table page", "/cards/?view=table"),
]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Command(BaseCommand):
    help = "Benchmark the card list API and the gallery page in-process (p50/p95, req/s)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=300, help="per URL (default 300)")
        parser.add_argument("--warmup", type=int, default=20, help="unmeasured, per URL")

    def handle(self, *args: Any, requests: int, warmup: int, **options: Any) -> None:
        if requests < 1:
            raise CommandError("--requests must be at least 1")
        self._ensure_core_set()
        self.stdout.write(f"{Card.objects.count()} cards in the catalogue; DEBUG={settings.DEBUG}; "
                          f"database: {settings.DATABASES['default']['ENGINE'].split('.')[-1]}; "
                          f"{requests} requests per URL after {warmup} warm-up requests.")
        header = f"{'page':<16} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'req/s':>8}  target"
        self.stdout.write(header)
        self.stdout.write("-" * len(header))
        worst = 0.0
        with override_settings(ALLOWED_HOSTS=["testserver"]):
            client = Client()
            for label, url in URLS:
                samples = self._measure(client, url, requests, warmup)
                p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
                worst = max(worst, p95)
                verdict = "ok" if p95 <= TARGET_P95_MS else f"OVER {TARGET_P95_MS:g} ms"
                self.stdout.write(f"{label:<16} {p50:8.2f} {p95:8.2f} {max(samples):8.2f} "
                                  f"{1000 / statistics.fmean(samples):8.1f}  {verdict}")
        self.stdout.write(f"worst p95: {worst:.2f} ms (target ≤ {TARGET_P95_MS:g} ms)")
        # Tail latency follows whatever else the machine runs: say how busy it was.
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        self.stdout.write(f"machine: {os.cpu_count()} CPUs, load average {load} (1, 5, 15 min)")

    def _ensure_core_set(self) -> None:
        code = load_card_set(CORE_SET).code
        if not CardSet.objects.filter(code=code).exists():
            self.stdout.write(f"Loading the core set ({CORE_SET.name}) first ...")
            card_set_import(source=CORE_SET)

    def _measure(self, client: Client, url: str, requests: int, warmup: int) -> list[float]:
        for _ in range(warmup):
            self._get(client, url)
        samples: list[float] = []
        for _ in range(requests):
            start = time.perf_counter()
            self._get(client, url)
            samples.append((time.perf_counter() - start) * 1000)
        return samples

    def _get(self, client: Client, url: str) -> None:
        response = client.get(url)
        if response.status_code != 200:
            raise CommandError(f"{url} answered {response.status_code}")
