"""The simulation pages as a user meets them: the form (from a deck), the run page with its
live progress and then its results and charts, cancel, what-if, the replay viewer, run history
per deck, and the deck page's panel."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils.html import escape

from simulations.forms import PICK_ONE
from simulations.models import SimulationRun
from simulations.services import simulation_request
from simulations.what_if_form import CANNOT_SWAP_IN
from tests.simulations.helpers import DAWN, DUSK, play_all
from work.models import WorkStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, alice, catalogue):
    client.force_login(alice)
    return client


def make_run(user, specs=(DAWN, DUSK), **kw):
    args = {"kind": "match", "games": 12, "agent_a": "greedy", "agent_b": "random", "seed": 4,
            "chunk_size": 4}
    args.update(kw)
    return simulation_request(user=user, deck_specs=list(specs), **args)


def test_the_form_needs_an_account(client, catalogue):
    response = client.get("/simulations/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_simulate_from_a_deck(logged_in, alice, make_deck):
    deck = make_deck(alice)
    page = logged_in.get(f"/simulations/new/?deck={deck.uid}").content.decode()
    assert re.search(rf'<option value="{deck.uid}" selected>', page)
    assert "Starter decks" in page and "Dusk Test" in page
    response = logged_in.post("/simulations/new/", {
        "kind": "match", "deck": deck.uid, "opponents": [DUSK], "games": "10",
        "agent_a": "greedy", "agent_b": "random", "seed": "5", "stop_width": ""})
    run = SimulationRun.objects.get()
    assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
    assert run.deck == deck and run.decks[1]["name"] == "Dusk Test" and run.seed == 5


def test_form_mistakes_are_shown_on_the_form(logged_in):
    response = logged_in.post("/simulations/new/", {
        "kind": "match", "deck": DAWN, "opponents": [DUSK, DAWN], "games": "10",
        "agent_a": "greedy", "agent_b": "greedy"})
    assert response.status_code == 400 and str(PICK_ONE) in response.content.decode()
    response = logged_in.post("/simulations/new/", {
        "kind": "match", "deck": DAWN, "opponents": [DUSK], "games": "999999",
        "agent_a": "greedy", "agent_b": "greedy"})
    assert response.status_code == 400
    assert "is more than the limit of 100000 per run" in response.content.decode()
    assert not SimulationRun.objects.exists()


def test_a_running_run_shows_a_progress_bar_that_polls(logged_in, alice):
    run = make_run(alice)
    page = logged_in.get(run.get_absolute_url()).content.decode()
    assert f'hx-get="/simulations/{run.uid}/progress/"' in page
    assert 'hx-trigger="every 1s"' in page and "0 of 12 games" in page
    from simulations.execution import chunk_execute

    chunk_execute(chunk_id=run.chunks.get(index=0).pk, claim="x", worker="w")
    fragment = logged_in.get(f"/simulations/{run.uid}/progress/", HTTP_HX_REQUEST="true")
    assert "4 of 12 games" in fragment.content.decode() and "HX-Refresh" not in fragment
    play_all(run)
    fragment = logged_in.get(f"/simulations/{run.uid}/progress/", HTTP_HX_REQUEST="true")
    assert fragment["HX-Refresh"] == "true"          # the page reloads with the results
    assert "hx-get" not in fragment.content.decode()  # and stops polling


def test_results_page_has_headline_charts_cards_and_replays(logged_in, alice):
    run = make_run(alice)
    play_all(run)
    page = logged_in.get(run.get_absolute_url()).content.decode()
    assert "Dawn Test</strong> wins" in page and "95 % interval" in page
    assert page.count('<svg class="chart"') == 2 and 'role="img"' in page
    assert "Going first" in page and "Game length" in page
    assert "Cards of Dawn Test" in page and "Cards of Dusk Test" in page
    # Why "times played" can exceed "times drawn", beside the table that shows both.
    why = page.split('data-testid="played-vs-drawn">')[1].split("</p>")[0]
    assert "summoned straight from the deck" in why and "returned it" in why
    assert reverse("simulations:replay", args=[run.uid, 1]) in page
    assert "What if" in page and 'name="card_out"' in page
    assert "<script" not in page.split("<main")[1]   # charts are SVG, no script


def test_cancel_from_the_page(logged_in, alice, client, bob):
    run = make_run(alice)
    assert "Cancel the run" in logged_in.get(run.get_absolute_url()).content.decode()
    response = logged_in.post(f"/simulations/{run.uid}/cancel/", follow=True)
    run.refresh_from_db()
    assert run.status == WorkStatus.CANCELLED and "Cancelled" in response.content.decode()


def test_what_if_from_the_page(logged_in, alice):
    run = make_run(alice)
    play_all(run)
    response = logged_in.post(f"/simulations/{run.uid}/what-if/",
                              {"deck": "0", "card_out": "T-M02", "card_in": "T-M05"})
    what_if = SimulationRun.objects.get(base_run=run)
    assert response.status_code == 302 and response["Location"] == what_if.get_absolute_url()
    play_all(what_if)
    page = logged_in.get(what_if.get_absolute_url()).content.decode()
    assert "What changed" in page and "lost games became wins" in page
    bad = logged_in.post(f"/simulations/{run.uid}/what-if/",
                         {"deck": "0", "card_out": "T-M02", "card_in": "T-M02"})
    assert bad.status_code == 400
    assert escape(CANNOT_SWAP_IN.format(out="Thorn Boar")) in bad.content.decode()


def test_replay_viewer_steps_through_a_game(logged_in, alice):
    run = make_run(alice)
    play_all(run)
    url = reverse("simulations:replay", args=[run.uid, 1])
    start = logged_in.get(url).content.decode()
    assert "Replay: Dawn Test vs Dusk Test" in start and "Setup" in start
    assert "P1 · Dawn Test" in start and "P2 · Dusk Test" in start
    step = logged_in.get(url, {"step": 5}).content.decode()
    assert "Step 5" in step and "▶ P" in step
    end = logged_in.get(url, {"step": 99999}).content.decode()
    assert "Game over" in end
    assert logged_in.get(url, {"step": "x"}).status_code == 200
    assert logged_in.get(reverse("simulations:replay", args=[run.uid, 9])).status_code == 404


def test_round_robin_page_shows_the_matrix_and_ranking(logged_in, alice, make_deck):
    deck = make_deck(alice)
    run = make_run(alice, [deck.uid, DAWN, DUSK], kind="round_robin", games=4)
    play_all(run)
    page = logged_in.get(run.get_absolute_url()).content.decode()
    assert "Matchup matrix" in page and "Ranking" in page
    assert page.count('style="background: hsl(') == 6


def test_another_users_private_run_is_a_404(client, alice, bob, catalogue):
    run = make_run(alice)
    client.force_login(bob)
    for path in ("", "progress/", "replays/1/"):
        assert client.get(f"/simulations/{run.uid}/{path}").status_code == 404
    assert client.post(f"/simulations/{run.uid}/cancel/").status_code == 404


def test_run_history_per_deck(logged_in, alice, make_deck):
    deck = make_deck(alice)
    mine = make_run(alice, [deck.uid, DUSK])
    other = make_run(alice)
    page = logged_in.get("/simulations/", {"deck": deck.uid}).content.decode()
    assert f"Run history of {deck.name}" in page
    assert mine.get_absolute_url() in page and other.get_absolute_url() not in page
    everything = logged_in.get("/simulations/").content.decode()
    assert mine.get_absolute_url() in everything and other.get_absolute_url() in everything


def test_the_list_shows_anonymous_visitors_only_public_runs(client, alice, catalogue):
    private, public = make_run(alice), make_run(alice, is_public=True)
    page = client.get("/simulations/").content.decode()
    assert public.get_absolute_url() in page and private.get_absolute_url() not in page


def test_the_deck_panel_a_deck_page_can_include(rf, alice, make_deck):
    deck = make_deck(alice)
    run = make_run(alice, [deck.uid, DUSK])
    html = Template("{% load simulations_extras %}{% deck_simulations deck %}").render(
        Context({"deck": deck, "user": alice}))
    assert f"/simulations/new/?deck={deck.uid}" in html and run.label in html
    assert f"/simulations/?deck={deck.uid}" in html


def test_a_deck_page_offers_simulate_and_its_runs(client, alice, make_deck):
    deck = make_deck(alice)
    run = make_run(alice, [deck.uid, DUSK])
    client.force_login(alice)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f"/simulations/new/?deck={deck.uid}" in page and run.label in page


def test_card_pages_show_the_simulated_stats(client, alice, catalogue):
    run = make_run(alice)
    play_all(run)
    page = client.get("/cards/T-M01/").content.decode()
    assert "Games played in" in page and "No simulated games" not in page


@pytest.mark.parametrize("language, words", [
    ("en", ["— not legal: The deck has 32 cards; the Standard format allows exactly 30.",
            "is not legal in Standard — simulated all the same:"]),
    ("zh-hans", ["— 不合规：", "不符合标准赛制的规则——仍照样模拟："]),
])
def test_an_illegal_deck_can_be_simulated_and_the_form_and_result_say_which_rule_it_breaks(
        client, alice, make_deck, language, words):
    from tests.simulations.helpers import DUSK, LEGAL_CARDS, play_all

    deck = make_deck(alice, name="Too Big", cards={**LEGAL_CARDS, "T-M14": 2})
    client.force_login(alice)
    form = client.get(reverse("simulations:new"), HTTP_ACCEPT_LANGUAGE=language)
    assert words[0] in form.content.decode()
    run = simulation_request(user=alice, kind="match", deck_specs=[deck.uid, DUSK], games=4,
                             agent_a="greedy", agent_b="random", seed=1)
    play_all(run)
    page = client.get(run.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words[1] in page and 'data-testid="deck-not-legal"' in page
    assert page.count('data-testid="deck-not-legal"') == 1   # the starter deck is legal
