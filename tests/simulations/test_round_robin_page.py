"""The round-robin results page for six decks stays small and quick: paged or loaded on
demand, never every game of every pairing at once (issue: 527 KB and 1.2 s for six decks)."""

from __future__ import annotations

import time

import pytest

from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db
MAX_BYTES = 150_000


@pytest.fixture
def six_decks(alice, make_deck, django_capture_on_commit_callbacks):
    """Six decks played by the service a worker calls, its finishing hooks run (the meta
    stored on the run, as a worker does)."""
    decks = [make_deck(alice, name=f"Deck {n}").uid for n in range(4)]
    run = simulation_request(user=alice, kind="round_robin",
                             deck_specs=[*decks, DAWN, DUSK], games=40, agent_a="greedy",
                             agent_b="greedy", seed=5, chunk_size=20)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(run)
    run.refresh_from_db()
    return run


def measure(client, url: str, times: int = 5) -> tuple[int, float, float]:
    """The page's size, the server time of its first view (caches emptied) and the median of
    the next ``times``."""
    from django.core.cache import cache

    from common.page_cache import clear_stored_pages

    cache.clear()
    clear_stored_pages()
    client.get("/")   # the process's own first request (imports, templates) is not the page's
    seconds = []
    for _ in range(times + 1):
        start = time.perf_counter()
        response = client.get(url)
        seconds.append(time.perf_counter() - start)
        assert response.status_code == 200
    return len(response.content), seconds[0], sorted(seconds[1:])[times // 2]


def test_the_round_robin_page_of_six_decks_is_under_150_kb(client, alice, six_decks):
    from simulations.models import SimulationRun

    client.force_login(alice)
    url = six_decks.get_absolute_url()
    size, first, then = measure(client, url)
    SimulationRun.objects.filter(pk=six_decks.pk).update(meta_report=None)
    _, unstored, _ = measure(client, url, times=1)
    print(f"\nround-robin page, six decks: {size:,} bytes; server time {first * 1000:.0f} ms "
          f"the first time (the meta stored when the run finished), then {then * 1000:.0f} ms "
          f"(median of 5); a run finished with no meta stored: {unstored * 1000:.0f} ms the "
          f"first time (the meta worked out and stored)")
    assert size < MAX_BYTES


def test_a_pairing_of_the_field_opens_on_demand(client, alice, six_decks):
    client.force_login(alice)
    page = client.get(six_decks.get_absolute_url()).content.decode()
    assert page.count('data-testid="pairing"') == 15
    url = f"{six_decks.get_absolute_url()}matchups/3/"
    part = client.get(url, HTTP_HX_REQUEST="true")
    assert part.status_code == 200 and '<section class="sim-section matchup"' in part.text
    assert "<svg" in part.text and "<html" not in part.text
    alone = client.get(url)
    assert alone.status_code == 200 and "<html" in alone.text and "<svg" in alone.text
    assert client.get(f"{six_decks.get_absolute_url()}matchups/99/").status_code == 404
