"""python manage.py simulate --decks A B C …: a round-robin on the command line, with the field's
meta (field win rates with intervals, the Nash and ε-equilibria) in the text and in --json."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from rules.decks.cardset import CORE_SET, load_card_set
from rules.engine.cards import STANDARD
from rules.lab import meta
from simulations.cli.round_robin import BAD_EPSILON, FEW_DECKS, SAME_DECK, play_round_robin

THREE = ["Ember Rush", "Tidewall", "Gravecallers"]
QUICK = ["--agent-a", "random", "--games", "16", "--seed", "7"]


def simulate(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def report_json():
    return json.loads(simulate("--decks", *THREE, *QUICK, "--json", "--processes", "1"))


def test_json_has_every_pairing_and_the_fields_meta(report_json):
    pairs = [(m["deck_a"], m["deck_b"]) for m in report_json["matchups"]]
    assert pairs == [("Ember Rush", "Tidewall"), ("Ember Rush", "Gravecallers"),
                     ("Tidewall", "Gravecallers")]
    assert all(m["games"] == 16 and m["seed"] == 7 for m in report_json["matchups"])
    field = report_json["meta"]
    assert field["decks"] == THREE and field["epsilon"] == 0.005
    assert len(field["field_rates"]) == 3 and field["resamples"] == meta.DEFAULT_RESAMPLES
    assert sum(field["nash"]["shares"]) == pytest.approx(1, abs=1e-6)
    assert sum(field["relaxed"]["shares"]) == pytest.approx(1, abs=1e-6)


def test_a_decks_field_rate_is_its_wins_over_its_games_against_the_rest(report_json):
    wins = {name: 0 for name in THREE}
    games = {name: 0 for name in THREE}
    for m in report_json["matchups"]:
        done = m["wins"] + m["losses"] + m["draws"]
        wins[m["deck_a"]] += m["wins"]
        wins[m["deck_b"]] += m["losses"]
        games[m["deck_a"]] += done
        games[m["deck_b"]] += done
    for d, name in enumerate(THREE):
        rate = report_json["meta"]["field_rates"][d]
        assert rate["rate"] == pytest.approx(wins[name] / games[name])
        assert rate["low"] <= rate["rate"] <= rate["high"]


def test_the_same_seed_gives_the_same_games_in_one_process_or_two(report_json):
    two = json.loads(simulate("--decks", *THREE, *QUICK, "--json", "--processes", "2"))
    assert two == report_json


def test_every_pairing_plays_the_commands_seed_like_a_match():
    card_set = load_card_set(CORE_SET)
    decks = [card_set.deck(n) for n in THREE]
    played = play_round_robin(card_set.cards, decks, games=6, seed=7, agent="random",
                              ruleset=STANDARD)
    match = json.loads(simulate("--deck-a", "Tidewall", "--deck-b", "Gravecallers",
                                "--agent-a", "random", "--agent-b", "random", "--games", "6",
                                "--seed", "7", "--json"))
    results = played[1, 2]
    assert sum(g.winner == "a" for g in results) == match["wins"]
    assert sum(g.winner == "b" for g in results) == match["losses"]


def test_the_text_report_ends_with_the_meta_table_and_sentence():
    text = simulate("--decks", *THREE, *QUICK, "--processes", "1", "--epsilon", "1")
    assert text.count("seat-swapped pairs") >= 3
    assert "vs field (95 %)" in text and "ε=1 pt" in text
    assert "A field that adapts would play" in text
    assert "Allowing 1 point of win rate" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--decks", "Ember Rush", "Tidewall"], FEW_DECKS.format(count=2)),
    (["--decks", *THREE, "--deck-a", "Ember Rush"], "give either --deck-a and --deck-b"),
    (["--deck-a", "Ember Rush"], "give either --deck-a and --deck-b"),
    (["--decks", *THREE, "Tidewall"], SAME_DECK.format(name="Tidewall")),
    (["--decks", *THREE, "Nope"], "--decks: "),
    (["--decks", *THREE, "--agent-a", "random", "--agent-b", "greedy"],
     "a round-robin plays one agent for every deck"),
    (["--decks", *THREE, "--epsilon", "50"], BAD_EPSILON.format(value=50.0)),
    (["--decks", *THREE, "--processes", "0"], "--processes: give a whole number"),
])
def test_bad_round_robin_options_say_what_to_fix(args, message):
    with pytest.raises(CommandError) as caught:
        simulate(*args, "--games", "2")
    assert message in str(caught.value)
