"""The benchmark command runs end to end (its figures are read by people, not asserted)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from cards.models import Card


@pytest.mark.django_db
def test_bench_catalogue_loads_the_core_set_and_prints_figures(capsys):
    call_command("bench_catalogue", "--requests", "3", "--warmup", "1")
    out = capsys.readouterr().out
    assert "Loading the core set" in out and Card.objects.count() > 100
    for label in ("card list API", "gallery page", "p50 ms", "p95 ms", "req/s", "worst p95"):
        assert label in out
