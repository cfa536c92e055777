"""python manage.py balance_search: a tiny search on the test set writes the best verified
patch, and ``simulate --patch`` with a matchup's replay seed plays exactly the verified games."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from balance.search.cli import BAD_BAND
from rules.decks.cardset import TEST_SET
from rules.lab.patches import load_patch

TINY = ["--set", str(TEST_SET), "--decks", "Dawn Test", "Dusk Test", "--budget-games", "2000",
        "--verify-games", "100", "--cards", "T-H01,T-H02,T-M01,T-M03", "--max-changes", "2",
        "--processes", "1", "--seed", "5", "--objective", "band"]


def test_the_best_verified_patch_replays_with_simulate(tmp_path):
    out = tmp_path / "patch.json"
    stdout = StringIO()
    call_command("balance_search", *TINY, "--out", str(out), "--json", stdout=stdout)
    report = json.loads(stdout.getvalue())
    best = report["best"]
    assert best and load_patch(out).to_dict() == best["patch"]
    (replay,) = report["replay"]
    played = StringIO()
    call_command("simulate", "--set", str(TEST_SET), "--deck-a", "Dawn Test", "--deck-b",
                 "Dusk Test", "--games", "100", "--seed", str(replay["seed"]), "--patch",
                 str(out), "--json", stdout=played)
    summary = json.loads(played.getvalue())
    (verified,) = best["matchups"]
    assert summary["win_rate"]["rate"] == pytest.approx(verified["rate"])
    assert summary["win_rate"]["games"] == verified["games"]


def test_the_text_report_shows_the_front_and_the_replay_command(tmp_path):
    stdout = StringIO()
    call_command("balance_search", *TINY, "--out", str(tmp_path / "p.json"), stdout=stdout)
    text = stdout.getvalue()
    assert "Pareto front" in text and "Best verified patch" in text
    # Every game the search played is counted, and what lies outside the budget is said.
    searched, verified = (int(n.replace(",", "")) for n in re.search(
        r"Searched ([\d,]+) games .*; verified ([\d,]+) games", text).groups())
    within, past, again = (int(n.replace(",", "")) for n in re.search(
        r"Games in all: [\d,]+ = ([\d,]+) within the 2,000-game budget \+ ([\d,]+) finishing "
        r"the round under way when it was spent \+ ([\d,]+) re-verifying \(outside the "
        r"budget\)\.", text).groups())
    assert within <= 2000 and within + past == searched and again == verified > 0
    assert "python manage.py simulate --deck-a \"Dawn Test\"" in text
    # Each change by the card's name, its old and new value, and its code for the files.
    changes = text.split("Best verified patch")[1].split("Matchups (verified):")[0]
    assert re.search(r"^  \S.*: (cost|attack|hp) -?\d+ → -?\d+ \(T-[HM]0[1-3]\)$", changes,
                     re.MULTILINE), changes


def test_bad_options_say_what_to_fix():
    with pytest.raises(CommandError, match="--band"):
        call_command("balance_search", *TINY, "--band", "55-60")
    assert "LOW-HIGH" in BAD_BAND
    with pytest.raises(CommandError, match="--decks"):
        call_command("balance_search", "--set", str(TEST_SET), "--decks", "Nope", "Dawn Test")
    with pytest.raises(CommandError, match="cannot be searched"):
        call_command("balance_search", *TINY, "--fields", "colour")


def test_a_search_from_a_live_patch_plays_that_patch_and_edits_it(tmp_path):
    """A designer's next patch on top of the one already out: the search measures the live
    patch first, and every patch it tries keeps, changes or takes back its changes."""
    live = tmp_path / "live.json"
    live.write_text(json.dumps({"name": "live", "changes": [
        {"card": "T-M01", "field": "attack", "value": 3}]}), encoding="utf-8")
    stdout = StringIO()
    call_command("balance_search", *TINY, "--live-patch", str(live), "--json", stdout=stdout)
    searched = {json.dumps(s["moves"], sort_keys=True): s for s in
                json.loads(stdout.getvalue())["searched"]}
    first = json.dumps([{"card": "T-M01", "field": "attack", "value": 3}], sort_keys=True)
    assert searched[first]["games"] > 0
    assert all(len(s["moves"]) <= 2 for s in searched.values())


def test_a_capped_step_from_a_live_patch_edits_it_in_one_place_at_most(tmp_path):
    """``--max-edits 1``: every patch the search tries keeps the live patch but for one
    change added, taken back or given another value, and the report says so."""
    live = tmp_path / "live.json"
    live.write_text(json.dumps({"name": "live", "changes": [
        {"card": "T-M01", "field": "attack", "value": 3}]}), encoding="utf-8")
    stdout = StringIO()
    call_command("balance_search", *TINY, "--live-patch", str(live), "--max-edits", "1",
                 "--json", stdout=stdout)
    start = {("T-M01", "attack"): 3}
    tried = [{(m["card"], m["field"]): m["value"] for m in s["moves"]}
             for s in json.loads(stdout.getvalue())["searched"]]
    edits = [sum(t.get(k) != start.get(k) for k in t.keys() | start.keys()) for t in tried]
    assert len(tried) > 2 and max(edits) == 1
    text = StringIO()
    call_command("balance_search", *TINY, "--live-patch", str(live), "--max-edits", "1",
                 stdout=text)
    assert "at most 1 edit of the patch it starts from." in text.getvalue()
    with pytest.raises(CommandError, match="--max-edits caps the edits .* --live-patch FILE"):
        call_command("balance_search", *TINY, "--max-edits", "1")


@pytest.mark.parametrize(("changes", "message"), [
    ([{"card": "T-M01", "field": "attack", "value": 9}], "is not one a search makes"),
    ([{"card": "T-Z99", "field": "cost", "value": 1}], "no such card"),
])
def test_a_live_patch_the_search_cannot_start_from_says_what_is_wrong(tmp_path, changes,
                                                                     message):
    live = tmp_path / "live.json"
    live.write_text(json.dumps({"name": "live", "changes": changes}), encoding="utf-8")
    with pytest.raises(CommandError, match=f"--live-patch: .*{message}"):
        call_command("balance_search", *TINY, "--live-patch", str(live))
    with pytest.raises(CommandError, match="--live-patch: .*none.json: no such file"):
        call_command("balance_search", *TINY, "--live-patch", str(tmp_path / "none.json"))
    with pytest.raises(CommandError, match="makes 3 changes and --max-changes allows 2"):
        live.write_text(json.dumps({"name": "live", "changes": [
            {"card": "T-M01", "field": "cost", "value": 2},
            {"card": "T-M03", "field": "cost", "value": 3},
            {"card": "T-H01", "field": "hp", "value": 21}]}), encoding="utf-8")
        call_command("balance_search", *TINY, "--live-patch", str(live))


@pytest.mark.django_db
def test_a_live_patch_sent_to_the_workers_is_checked_before_the_job_is_queued(tmp_path,
                                                                             catalogue):
    from balance.models import BalanceJob
    live = tmp_path / "live.json"
    live.write_text(json.dumps({"name": "far", "changes": [
        {"card": "T-M01", "field": "attack", "value": 9}]}), encoding="utf-8")
    with pytest.raises(CommandError, match="--live-patch: .*is not one a search makes"):
        call_command("balance_search", "--decks", "Dawn Test", "Dusk Test", "--objective",
                     "band", "--live-patch", str(live), "--via-celery")
    with pytest.raises(CommandError, match="--live-patch: .*none.json: no such file"):
        call_command("balance_search", "--decks", "Dawn Test", "Dusk Test", "--objective",
                     "band", "--live-patch", str(tmp_path / "none.json"), "--via-celery")
    assert not BalanceJob.objects.exists()

