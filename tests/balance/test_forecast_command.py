"""python manage.py meta_forecast: a tiny forecast of the test set's starter decks prints each
round's lists as diffs with their field win rates and the meta's shares, the settled field and
its exploitability; --json holds what the issue asks for and the same seed repeats it; a patch
changes the pool it plays; bad options are refused with a message."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.decks.cardset import TEST_SET

TINY = ["--set", str(TEST_SET), "--processes", "1", "--tune-games", "2500", "--verify-games",
        "200", "--round-games", "200", "--final-games", "200", "--max-rounds", "1",
        "--swaps-per-round", "1", "--max-changes", "3", "--exploit-swaps", "1", "--seed", "3"]


def forecast_json(*extra: str) -> dict:
    out = StringIO()
    call_command("meta_forecast", *TINY, *extra, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.long
def test_the_command_prints_rounds_the_settled_field_and_exploitability(tmp_path):
    out, err = StringIO(), StringIO()
    call_command("meta_forecast", *TINY, stdout=out, stderr=err)
    text = out.getvalue()
    assert "Round 0 (patch day)" in text and "Round 1" in text
    assert "The settled field (greedy agent, 200 fresh games a matchup" in text
    assert "Exploitability:" in text and "Cards adopted:" in text
    assert "tuning" in err.getvalue() and "exploit" in err.getvalue()
    data = forecast_json()
    assert {"final", "rounds", "exploitability", "cards", "games"} <= set(data)
    final = data["final"]
    assert [d["name"] for d in final["decks"]] == ["Dawn Test", "Dusk Test"]
    assert {"name", "hero", "cards"} <= set(final["decks"][0])
    assert len(final["field"]) == len(final["shares"]) == 2
    assert final["agent"] == data["exploitability"]["agent"] == "greedy"
    assert all({"rate", "low", "high", "games"} <= set(f) for f in final["field"])
    assert data["options"]["max_changes"] == 3 and data["seed"] == 3
    again = forecast_json()
    for key in ("wall_seconds", "cpu_seconds_this_process"):
        data.pop(key), again.pop(key)
    assert again == data                                   # same seed, same forecast
    patch = tmp_path / "patch.json"
    patch.write_text(json.dumps({"name": "Boar +2", "changes": [
        {"card": "T-M02", "field": "attack", "value": 5}]}))
    patched = forecast_json("--patch", str(patch))
    assert patched["patch"]["diff"][0]["card"] == "T-M02"
    assert patched["rounds"][0]["decks"] != data["rounds"][0]["decks"]


def test_bad_options_are_refused():
    with pytest.raises(CommandError, match="--max-changes"):
        call_command("meta_forecast", *TINY, "--max-changes", "0", stdout=StringIO())
    with pytest.raises(CommandError, match="--tune-games"):
        call_command("meta_forecast", *TINY, "--tune-games", "10", stdout=StringIO())
    with pytest.raises(CommandError, match="--agents"):
        call_command("meta_forecast", *TINY, "--agents", "greedy,greedy", stdout=StringIO())
    with pytest.raises(CommandError, match="--band"):
        call_command("meta_forecast", *TINY, "--band", "55-60", stdout=StringIO())
    with pytest.raises(CommandError, match="--decks"):
        call_command("meta_forecast", *TINY, "--decks", "Nope", stdout=StringIO())
    with pytest.raises(CommandError, match="two archetypes"):
        call_command("meta_forecast", *TINY, "--decks", "Dawn Test", stdout=StringIO())


def test_several_agents_give_each_archetype_a_verdict_by_riots_rule():
    data = forecast_json("--agents", "greedy,random")
    assert data["agent"] == "greedy" and set(data["final"]["agents"]) == {"random"}
    assert data["band"] == [0.45, 0.55]
    for row in data["verdicts"]:
        rates = {a: r["rate"] for a, r in row["agents"].items()}
        assert set(rates) == {"greedy", "random"}
        over = any(r > 0.55 for r in rates.values())
        under = all(r < 0.45 for r in rates.values())
        assert row["verdict"] == ("nerf" if over else "buff" if under else "fine")


@pytest.mark.django_db
def test_via_celery_queues_the_forecast_as_a_job(catalogue):
    from balance.models import BalanceJob, JobKind

    out = StringIO()
    call_command("meta_forecast", "--via-celery", "--no-wait", "--decks", "Dawn Test",
                 "Dusk Test", "--max-changes", "3", "--settle", "2", "--tune-games", "2000",
                 "--verify-games", "100", "--seed", "4", stdout=out)
    job = BalanceJob.objects.get(uid=out.getvalue().strip())
    assert job.kind == JobKind.FORECAST and job.max_changes == 3 and job.seed == 4
    assert job.tuning["options"]["settle"] == 0.02
    assert job.tuning["options"]["tune_games"] == 2000
    assert [d["name"] for d in job.decks] == ["Dawn Test", "Dusk Test"]
    with pytest.raises(CommandError, match="--max-changes"):
        call_command("meta_forecast", "--via-celery", "--no-wait", "--max-changes", "0",
                     stdout=StringIO())
    out = StringIO()
    call_command("meta_forecast", "--via-celery", "--no-wait", "--decks", "Dawn Test",
                 "Dusk Test", "--agents", "greedy,random", "--band", "40-60", stdout=out)
    job = BalanceJob.objects.get(uid=out.getvalue().strip())
    assert job.agent == "greedy" and job.tuning["further_agents"] == ["random"]
    assert job.tuning["band"] == [0.4, 0.6]
    with pytest.raises(CommandError, match="--agents: .*listed twice"):
        call_command("meta_forecast", "--via-celery", "--no-wait", "--agents",
                     "greedy,random,random", stdout=StringIO())
    with pytest.raises(CommandError, match="--band"):
        call_command("meta_forecast", "--via-celery", "--no-wait", "--band", "55-45",
                     stdout=StringIO())


def test_replay_says_for_each_figure_whether_it_falls_inside_the_forecasts_interval(tmp_path):
    saved = tmp_path / "forecast.json"
    saved.write_text(json.dumps(forecast_json()))
    replay = ["--set", str(TEST_SET), "--processes", "1", "--replay", str(saved)]
    out = StringIO()
    call_command("meta_forecast", *replay, "--seed", "9", stdout=out)
    text = out.getvalue()
    assert "The forecast (seed 3) replayed on seed 9 (greedy agent, 200 games a matchup)" in text
    assert "Dawn Test against Dusk Test" in text and "Dusk Test, field win rate" in text
    assert " of 4 replayed figures fall inside the forecast's 95 % interval" in text
    data = json.loads(call_json("meta_forecast", *replay, "--seed", "9"))
    assert data["count"] == 4 and 0 <= data["inside"] <= data["consistent"] <= 4
    with pytest.raises(CommandError, match="seed other than the forecast's"):
        call_command("meta_forecast", *replay, "--seed", "3", stdout=StringIO())
    saved.write_text("{}")
    with pytest.raises(CommandError, match="not a forecast's JSON"):
        call_command("meta_forecast", *replay, "--seed", "9", stdout=StringIO())


def call_json(*args: str) -> str:
    out = StringIO()
    call_command(*args, "--json", stdout=out)
    return out.getvalue()


def test_the_report_says_which_games_an_engine_error_left_out():
    from balance.forecast.report import left_out_text

    assert left_out_text({"games": 0, "by_phase": {}, "examples": []}) == (
        "No game was left out: the engine finished every game.")
    text = left_out_text({"games": 1, "by_phase": {"exploit": 1}, "examples": [{
        "phase": "exploit", "seed": 12, "game": 99, "agent": "greedy",
        "deck": {"name": "Tidewall", "hero": "H"}, "rival": {"name": None, "hero": "G"},
        "error": "EngineError: no result after 2000 actions"}]})
    assert text.startswith("Left out of every figure: 1 game(s) the engine could not finish "
                           "(1 in exploit).")
    assert "Tidewall against G, run seed 12, game 99 (greedy): EngineError" in text


@pytest.mark.long
def test_several_seeds_say_whether_their_forecasts_agree(tmp_path):
    """A forecast on several seeds: each seed's forecast as one seed alone gives it, and each
    archetype's settled field win rate across them, consistent or not; saved forecasts
    compare the same way without playing."""
    data = forecast_json("--seeds", "2")
    first, second = data["forecasts"]
    assert (first["seed"], second["seed"]) == (3, 4)
    alone = forecast_json()
    for one in (first, alone):
        for key in ("wall_seconds", "cpu_seconds_this_process"):
            one.pop(key)
    assert first == alone                              # the first seed's forecast, unchanged
    paths = data["paths"]
    assert paths["seeds"] == [3, 4] and paths["names"] == ["Dawn Test", "Dusk Test"]
    for i, row in enumerate(paths["archetypes"]):
        rates = [f["rate"] for f in row["field"]]
        assert rates == [first["final"]["field"][i]["rate"], second["final"]["field"][i]["rate"]]
        assert row["low"] == min(rates) and row["high"] == max(rates)
    assert paths["agree"] == all(r["consistent"] for r in paths["archetypes"])
    saved = []
    for n, forecast in enumerate(data["forecasts"]):
        saved.append(tmp_path / f"seed-{n}.json")
        saved[-1].write_text(json.dumps(forecast))
    out = StringIO()
    call_command("meta_forecast", "--compare", *map(str, saved), "--json", stdout=out)
    assert json.loads(out.getvalue()) == paths
    text = StringIO()
    call_command("meta_forecast", "--compare", *map(str, saved), stdout=text)
    assert "The same forecast on 2 seeds (3, 4)" in text.getvalue()
    shared = paths["lists"]["shared"]
    assert f"), {shared} came in on every seed" in text.getvalue()
    assert paths["lists"]["brought_in"] == [
        sum(row["copies"] for deck in f["final"]["decks"] for row in deck["diff"]
            if row["copies"] > 0) for f in data["forecasts"]]


def test_several_seeds_refuse_what_cannot_be_compared(tmp_path):
    with pytest.raises(CommandError, match="--seeds: give a whole number from 1 to 8"):
        call_command("meta_forecast", *TINY, "--seeds", "0", stdout=StringIO())
    one = tmp_path / "one.json"
    one.write_text(json.dumps(forecast_json()))
    with pytest.raises(CommandError, match="two or more forecasts"):
        call_command("meta_forecast", "--compare", str(one), stdout=StringIO())
    other = json.loads(one.read_text())
    other["final"]["decks"].reverse()                  # Dusk Test first: another field
    (tmp_path / "other.json").write_text(json.dumps(other))
    with pytest.raises(CommandError, match="different fields"):
        call_command("meta_forecast", "--compare", str(one), str(tmp_path / "other.json"),
                     stdout=StringIO())
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="cannot read a forecast's JSON"):
        call_command("meta_forecast", "--compare", str(one), str(tmp_path / "bad.json"),
                     stdout=StringIO())
