"""python manage.py simulate, as a user runs it."""

import json

import pytest
from django.core.management import CommandError, call_command

ARGS = ["--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--set", "rules/data/test_set.yaml"]


def run(*extra) -> str:
    from io import StringIO

    out = StringIO()
    call_command("simulate", *ARGS, *extra, stdout=out)
    return out.getvalue()


def test_prints_wins_draws_errors_interval_seats_and_length():
    text = run("--games", "20", "--seed", "4", "--agent-a", "greedy", "--agent-b", "random")
    assert "20 games in seat-swapped pairs, seed 4" in text
    for label in ("wins", "draws", "engine errors", "win rate", "95 % CI", "going first",
                  "going second", "average length"):
        assert label in text


def test_json_is_one_object_and_the_same_seed_gives_the_same_output():
    first = run("--games", "10", "--seed", "9", "--json")
    assert first == run("--games", "10", "--seed", "9", "--json")
    data = json.loads(first)
    assert data["games"] == 10
    assert data["wins"] + data["losses"] + data["draws"] + data["errors"] == 10
    assert 0 <= data["win_rate"]["low"] <= data["win_rate"]["high"] <= 1
    assert set(data) >= {"going_first", "going_second", "average_turns", "lengths"}


@pytest.mark.parametrize("extra, message", [
    (["--agent-a", "genius"], "unknown agent 'genius'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--ruleset", '{"turn_limit": "many"}'], "turn_limit"),
])
def test_bad_options_get_a_clear_error(extra, message):
    with pytest.raises(CommandError, match=message):
        run(*extra)


def test_unknown_deck_lists_the_known_ones():
    with pytest.raises(CommandError, match="known: Dawn Test, Dusk Test"):
        call_command("simulate", "--deck-a", "Nope", "--deck-b", "Dusk Test",
                     "--set", "rules/data/test_set.yaml")


def test_the_report_says_how_draws_count_and_what_the_interval_is_computed_on():
    text = run("--games", "20", "--seed", "4")
    assert "(20 games in 10 pairs)" in text and "draws count as not won" in text
    data = json.loads(run("--games", "20", "--seed", "4", "--json"))
    assert {"rate", "low", "high"} <= set(data["win_rate"])
    assert data["win_rate"]["pairs"] == 10 and data["win_rate"]["method"] == "pairs"
    assert data["draws_count_as"] == "not won"
