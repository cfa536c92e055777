"""Runs that carry a balance patch: every deck on both sides plays it, the catalogue never
changes, the run keeps the patch and its readable diff; the API and the command line take it."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cards.card_stats import card_stats
from cards.models import Card
from rules.lab import patches
from rules.lab.stats import MatchStats
from simulations.models import SimulationRun
from simulations.services import SimulationInputError, simulation_request, simulation_what_if
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cards(catalogue):
    return catalogue

PUP = {"name": "Pup +1", "changes": [{"card": "T-M01", "field": "attack", "value": 3}]}
SET_ARGS = ["--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--set",
            "rules/data/test_set.yaml", "--games", "12", "--seed", "3"]


def submit(user, patch=PUP, **kw):
    args = {"kind": "match", "games": 12, "agent_a": "greedy", "agent_b": "greedy", "seed": 5}
    return simulation_request(user=user, deck_specs=[DAWN, DUSK], patch=patch, **{**args, **kw})


def test_a_patched_run_freezes_patched_cards_and_keeps_the_diff(alice):
    run = submit(alice)
    assert run.cards["T-M01"]["attack"] == 3
    assert Card.objects.get(code="T-M01").attack == 2      # the catalogue is unchanged
    assert run.patch["name"] == "Pup +1"
    assert [row["text"] for row in run.patch["diff"]] == ["Ember Pup: attack 2 → 3"]
    assert run.card_data_version and "patch Pup +1" in run.label


def test_both_sides_play_the_patch_and_the_catalogue_figures_stay_clean(alice):
    plain, patched = submit(alice, patch=None), submit(alice)
    play_all(plain)
    pup = Card.objects.get(code="T-M01")
    before = card_stats(card=pup).games_played_in
    play_all(patched)
    counts = patched.matchups.get().result["counts"]
    figures = MatchStats.from_counts(counts)
    for side in "ab":
        assert {row["code"]: row for row in figures.card_figures(side)}["T-M01"][
            "games_played_in"] > 0
    assert counts != plain.matchups.get().result["counts"]
    assert card_stats(card=pup).games_played_in == before


def test_a_card_no_deck_uses_can_be_patched(alice):
    run = submit(alice, patch={"name": "Wyrm", "changes": [
        {"card": "T-M06", "field": "cost", "value": 3}]})
    assert run.cards["T-M06"]["cost"] == 3


@pytest.mark.parametrize("patch, message", [
    ({"name": "x", "changes": [{"card": "NOPE", "field": "cost", "value": 1}]},
     patches.UNKNOWN_CARD.format(i=0, card="NOPE")),
    ({"name": "x", "changes": [{"card": "T-M01", "field": "hp", "value": 1}]}, "T-M01.hp"),
    ({"name": "", "changes": PUP["changes"]}, patches.NO_NAME.format(limit=patches.NAME_MAX)),
])
def test_bad_patches_are_refused_on_the_patch_field(alice, patch, message):
    with pytest.raises(SimulationInputError) as caught:
        submit(alice, patch=patch)
    assert caught.value.field == "patch" and str(message) in caught.value.message
    assert not SimulationRun.objects.exists()


def test_a_what_if_of_a_patched_run_keeps_the_patch(alice):
    base = submit(alice)
    play_all(base)
    what_if = simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-M02",
                                 card_in="T-M03")
    assert what_if.patch == base.patch and what_if.cards["T-M01"]["attack"] == 3


def test_the_api_takes_a_patch_and_shows_it_back(alice, client):
    api = APIClient()
    api.force_authenticate(alice)
    body = {"decks": [DAWN, DUSK], "games": 4, "seed": 1, "patch": PUP}
    data = api.post("/api/simulations/", body, format="json").json()
    assert data["patch"]["diff"][0]["text"] == "Ember Pup: attack 2 → 3"
    assert data["patch"]["changes"] == PUP["changes"]
    bad = api.post("/api/simulations/", {**body, "patch": {"name": "x", "changes": [
        {"card": "T-M01", "field": "name_en", "value": "y"}]}}, format="json")
    assert bad.status_code == 400 and "patch" in bad.json()
    missing = api.post("/api/simulations/", {**body, "patch": {"name": "x", "changes": [
        {"card": "NOPE", "field": "cost", "value": 1}]}}, format="json")
    assert missing.status_code == 400
    assert missing.json() == {"patch": [patches.UNKNOWN_CARD.format(i=0, card="NOPE")]}
    assert api.post("/api/simulations/", {**body, "patch": None}, format="json").json()[
        "patch"] is None
    run = SimulationRun.objects.get(uid=data["uid"])
    client.force_login(alice)
    page = client.get(run.get_absolute_url())
    assert "Ember Pup: attack 2 → 3" in page.content.decode()


def _simulate(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_the_command_line_plays_a_patch_file(tmp_path):
    path = tmp_path / "pup.json"
    path.write_text(json.dumps(PUP), encoding="utf-8")
    text = _simulate(*SET_ARGS, "--patch", str(path))
    assert "patch Pup +1:\n    Ember Pup: attack 2 → 3" in text
    data = json.loads(_simulate(*SET_ARGS, "--patch", str(path), "--json"))
    plain = json.loads(_simulate(*SET_ARGS, "--json"))
    assert data["patch"]["diff"][0]["new"] == 3 and plain["patch"] is None
    assert data["wins"] != plain["wins"] or data["lengths"] != plain["lengths"]


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{not json", "not valid JSON"),
    (json.dumps({"name": "x", "changes": [{"card": "T-M01", "field": "attack", "value": -2}]}),
     "T-M01.attack"),
])
def test_a_bad_patch_file_is_a_clear_command_error(tmp_path, content, message):
    path = tmp_path / "patch.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        _simulate(*SET_ARGS, "--patch", str(path))


SQUIRE = {"name": "Squire draws 2", "changes": [
    {"card": "T-M04", "field": "abilities.0.effects.0.count", "value": 2}]}


def test_an_ability_number_is_patched_and_reads_as_rules_text(alice, client):
    run = submit(alice, patch=SQUIRE)
    assert run.cards["T-M04"]["abilities"][0]["effects"][0]["count"] == 2
    assert run.patch["diff"][0]["text"] == \
        "Dawn Squire: Awaken: Draw a card. → Awaken: Draw 2 cards."
    client.force_login(alice)
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Awaken: Draw a card. → Awaken: Draw 2 cards." in page
    zh = client.get(run.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "抽2张卡" in zh


@pytest.mark.parametrize("change, message", [
    ({"card": "T-M04", "field": "abilities.2.cost", "value": 1},
     patches.NO_SUCH_PATH.format(i=0, card="T-M04", field="abilities.2.cost")),
    ({"card": "T-M04", "field": "abilities.0.effects.0.count", "value": 0},
     patches.OUT_OF_BOUNDS.format(i=0, card="T-M04", field="abilities.0.effects.0.count",
                                  low=1, high=10, printed=1, value=0)),
])
def test_the_api_refuses_a_bad_ability_change_on_the_patch_field(alice, change, message):
    api = APIClient()
    api.force_authenticate(alice)
    body = {"decks": [DAWN, DUSK], "games": 4, "seed": 1,
            "patch": {"name": "x", "changes": [change]}}
    bad = api.post("/api/simulations/", body, format="json")
    assert bad.status_code == 400 and bad.json() == {"patch": [message]}
