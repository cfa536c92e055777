"""The production entry point (``config.asgi`` under uvicorn with ./run.sh's worker settings,
``live_server`` here) answers the way a browser asks: several connections, each kept alive and
asking one thing after another — pages, static files, the API — while games between people have
their streams open. No answer may be a 5xx. (Before ``config.sync_pages``, a request on a
kept-alive connection could start in the previous request's context and hand its work to a
thread executor that had quit: a third of such requests answered 500, while one connection per
request never failed.) ./run.sh itself is asked the same way in tests/test_run_script.py."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.urls import reverse

from decks.selectors import deck_counts
from tests.cards.test_page_cache import _deck
from tests.fixtures import LEGAL_CARDS
from tools import play_load
from tools.management.commands.loadtest import Client, Target

CLIENTS = 8
ASKS_EACH = 40


def addresses(deck) -> list[str]:
    """What a browser's visit asks for: pages, the static files they link, the API."""
    from cards.models import Card

    code = Card.objects.order_by("code").values_list("code", flat=True).first()
    return ["/", "/cards/", "/cards/?q=k%3Aminion", reverse("cards:detail", args=[code]),
            reverse("cards:image", args=[code]),
            deck.get_absolute_url(), "/rules/", "/static/css/site.css", "/static/js/site.js",
            "/api/cards/", f"/api/cards/{code}/", "/health/", "/play/", "/no/such/page/"]


def ask_in_parallel(host: str, port: int, paths: list[str]) -> Counter[str]:
    """``CLIENTS`` clients at once, each over one connection kept alive, ``ASKS_EACH`` requests
    each through ``paths`` from its own starting point; every answer's status counted."""
    statuses: Counter[str] = Counter()
    lock = threading.Lock()

    def one_client(offset: int) -> None:
        client = Client(host, port)
        try:
            for turn in range(ASKS_EACH):
                target = Target("", "GET", paths[(offset + turn) % len(paths)])
                client.ask(target)
                with lock:
                    statuses.update(target.failed_by or {"200": 1})
        finally:
            client.close()

    threads = [threading.Thread(target=one_client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.django_db(transaction=True)
def test_parallel_kept_alive_clients_beside_open_streams_get_no_server_error(
        live_server, catalogue, alice):
    deck = _deck(alice, cards=dict(LEGAL_CARDS))
    games = play_load.live_games_make(3, {"name": deck.name, "hero": deck.hero.code,
                                          "cards": deck_counts(deck)})
    host, port = live_server.host, live_server.port
    streams = play_load.Streams(host, port, games)
    try:
        streams.open()
        statuses = ask_in_parallel(host, port, addresses(deck))
        assert streams.alive() == 6                 # every stream still open through the load
        delays, missed = play_load.propagation(host, port, games, streams, 2, pause=0)
    finally:
        streams.close()
        play_load.live_games_remove()
    assert sum(statuses.values()) == CLIENTS * ASKS_EACH
    assert not [status for status in statuses if not status.isdigit() or status >= "500"], \
        statuses
    assert statuses["404"] and statuses["302"]      # the missing page, /play/ signed out
    assert len(delays) == 2 and missed == 0         # the streams still carry the moves
