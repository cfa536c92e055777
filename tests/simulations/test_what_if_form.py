"""The what-if form offers only swaps the service accepts: swap-outs from the chosen deck,
swap-ins that can take the chosen card's place, narrowed by a catalogue query."""

from __future__ import annotations

import re

import pytest

from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(alice, catalogue):
    run = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="random", seed=4, chunk_size=4)
    play_all(run)
    return run


def options(html: str, name: str) -> set[str]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group(0)
    return set(re.findall(r'<option value="([^"]+)"', select))


def swap_ins(html: str) -> list[str]:
    return re.findall(r'name="card_in" value="([^"]+)"', html)


def form(client, run, **params) -> str:
    response = client.get(f"/simulations/{run.uid}/what-if/form/", params)
    assert response.status_code == 200
    return response.content.decode()


def test_swap_out_lists_only_the_chosen_deck(client, alice, run):
    client.force_login(alice)
    page = client.get(run.get_absolute_url()).content.decode()
    dawn = {run.decks[0]["hero"], *run.decks[0]["cards"]}
    dusk = {run.decks[1]["hero"], *run.decks[1]["cards"]}
    assert options(page, "card_out") == dawn
    assert options(form(client, run, deck=1), "card_out") == dusk


def test_a_card_is_swapped_for_cards_and_a_hero_for_heroes(client, alice, run):
    client.force_login(alice)
    cards = swap_ins(form(client, run, deck=0, card_out="T-M02"))
    assert cards and "T-M02" not in cards and not any(c.startswith("T-H") for c in cards)
    heroes = swap_ins(form(client, run, deck=0, card_out="T-H01"))
    assert heroes == ["T-H02"]


def test_the_query_language_narrows_the_swap_ins(client, alice, run):
    client.force_login(alice)
    fire = swap_ins(form(client, run, deck=0, card_out="T-M02", q="a:fire k:minion"))
    assert fire == ["T-M01", "T-M06"]
    assert "Tide Caller" in form(client, run, deck=0, card_out="T-M02", q="tide")
    bad = form(client, run, deck=0, card_out="T-M02", q="a:fire)")
    assert "has no matching" in bad and swap_ins(bad) == []


def test_a_card_of_the_other_deck_cannot_be_swapped_out(client, alice, run):
    client.force_login(alice)
    response = client.post(f"/simulations/{run.uid}/what-if/",
                           {"deck": "0", "card_out": "T-M09", "card_in": "T-M01"})
    assert response.status_code == 400 and "Pick the hero or a card of Dawn Test" in \
        response.content.decode()
