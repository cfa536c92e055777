"""``manage.py loadtest``: every address is measured beside the minimal response, in rounds
taken in turn, and only a server on this machine is measured."""

from __future__ import annotations

import io
import socket

import pytest
from django.core.management import CommandError, call_command

from tests.cards.test_page_cache import _deck
from tests.fixtures import LEGAL_CARDS

ADDRESSES = ("minimal response", "card list", "search k:minion c<=3", "validation: same list",
             "validation: fresh lists", "validation: via DRF", "card page", "builder page",
             "deck page")


def test_each_address_gets_its_figures_and_its_share_of_the_minimal_response(
        live_server, transactional_db, alice):
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    _deck(alice, cards=dict(LEGAL_CARDS))
    out = io.StringIO()
    call_command("loadtest", url=live_server.url, seconds=0.6, clients=2, rounds=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert "in 2 rounds, load average" in lines[0] and lines[-1].startswith("load average")
    assert "(threads, kept alive)" in lines[0]      # as a browser asks: connections kept
    rows = {line[:24].strip(): line[24:].split() for line in lines[2:-3]}
    assert tuple(rows) == ADDRESSES
    for label, (requests, failed, p50, p95, rate, share, _cpu) in rows.items():
        assert int(requests) > 0 and failed == "0", (label, rows[label])
        assert float(p50) <= float(p95) and float(rate) > 0 and share.endswith("%")
    assert rows["minimal response"][-2] == "100%"
    assert {row[-1] for row in rows.values()} == {"–"}   # server CPU: only with --serve
    assert lines[-3] == "failures by status: none"
    assert lines[-2].startswith("fresh lists: ") and lines[-2].endswith("each once")


def test_failures_are_counted_by_status_over_connections_kept_alive():
    """A server that answers some requests with a 500 on a kept-alive connection: the failures
    are reported by status, the connection is kept while the server keeps it."""
    import http.server
    import threading

    from tools.management.commands.loadtest import Target, measure

    asked: list[str] = []

    class Flaky(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"          # keeps the connection alive

        def do_GET(self):  # noqa: N802   (the standard library's name)
            asked.append(self.client_address[1])
            # the first request fails, then every third: a failure to count however few
            # requests a busy machine lets through in the measured second
            status = 500 if len(asked) % 3 == 1 else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        target = Target("flaky", "GET", "/")
        measure("127.0.0.1", server.server_address[1], target, 1.0, 1)
    finally:
        server.shutdown()
        server.server_close()
    assert target.failures == target.failed_by["500"] > 0 and set(target.failed_by) == {"500"}
    assert len(target.latencies) >= 2 * target.failures - 2
    assert len(set(asked)) == 1                # one client, one connection for every request


def test_fresh_lists_differ_and_every_fourth_breaks_one_rule(catalogue):
    """What the fresh-list address sends: lists never sent before, three in four legal, the
    fourth with one problem, in turn: over a copy limit, a card too many, no hero, an unknown
    card."""
    from decks.validation.services import draft_validate, plain_json, plain_reading
    from tools.management.commands.loadtest import fresh_bodies

    bodies = fresh_bodies(40)
    assert len(set(bodies)) == 40
    problems = []
    for body in bodies:
        draft = plain_reading(plain_json(body))
        assert draft is not None          # each is a body every client could send
        found = draft_validate(draft=draft, format_code=draft.format_code)
        problems.append([problem.code for problem in found.problems])
    assert all(found == [] for index, found in enumerate(problems) if index % 4 != 3)
    assert problems[3::4][:4] == [["copy_limit"], ["deck_too_large"], ["hero_missing"],
                                  ["unknown_card"]]


def test_only_a_server_on_this_machine_is_measured(db):
    with pytest.raises(CommandError, match="Only a server on this machine"):
        call_command("loadtest", url="http://example.com:8000", seconds=1)


def test_rounds_and_clients_are_counted_from_one(db):
    with pytest.raises(CommandError, match="at least 1"):
        call_command("loadtest", rounds=0)


def test_locust_rates_are_requests_over_the_time_they_took(live_server, transactional_db):
    """locust's own requests per second counts whole seconds: a run of two seconds read
    several times too fast. The rate is the requests over their own span."""
    from tools.management.commands.loadtest import Target, measure, measure_with_locust

    target = Target("minimal response", "GET", "/health/")
    host, port = live_server.url.removeprefix("http://").split(":")
    measure(host, int(port), target, 0.5, 1)   # as the command does: the first request loads
    target.reset()                             # the site's code, seconds on a busy machine
    measure_with_locust(live_server.url, target, seconds=2, clients=2)
    assert target.latencies and target.failures == 0
    # The span of the requests themselves: at least the time the two clients spent in them
    # (each sends one after another), at most the run and its last request's time.
    assert sum(target.latencies) / 2 <= target.elapsed <= 2 + max(target.latencies) + 1


def test_a_server_that_never_answers_is_named_not_measured(transactional_db):
    """A locust run in which no request finished says so, with the address, instead of
    reporting an empty row (or failing on one)."""
    from tools.management.commands.loadtest import Target, measure_with_locust

    with socket.socket() as silent:            # takes connections, never answers them
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(CommandError, match=r"locust finished no request to /health/ in 1 s"):
            measure_with_locust(url, Target("minimal response", "GET", "/health/"),
                                seconds=1, clients=1)


def test_the_live_play_scenario_measures_the_card_list_both_ways_and_the_moves(
        live_server, transactional_db, alice, settings):
    """Games between two people with both pages waiting on their streams (the production
    door's coroutines, as on the site): the card list with none and with them, and each move
    timed to the other player's page; the scenario's players and games are gone after."""
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from play.models import PlayGame
    from rules.decks.cardset import TEST_SET

    settings.PLAY_STREAM_HOLD = 8
    card_set_import(source=TEST_SET)
    _deck(alice, cards=dict(LEGAL_CARDS))
    out = io.StringIO()
    call_command("loadtest", url=live_server.url, seconds=0.6, clients=1, rounds=1,
                 play_games=3, play_moves=3, stdout=out)
    text = out.getvalue()
    assert "3 games, 6 streams" in text and "card list, 3 games waiting" in text
    assert "the card list keeps" in text and "(6 streams open" in text
    assert "a move reaches the other player's page: median" in text, text
    assert "(3 moves, 0 not seen" in text, text
    assert not get_user_model().objects.filter(username__startswith="loadtest-live-").exists()
    assert not PlayGame.objects.exists()
