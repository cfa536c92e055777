"""Sweeps and the patch page: a family of runs on one seed over a range of one card field, each
point paired with the unpatched baseline; the page that makes patches with a live preview."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from simulations.comparison import compare_runs
from simulations.models import SimulationRun, Sweep
from simulations.reports import run_reports
from simulations.results import field_rate
from simulations.services import SimulationInputError
from simulations.sweeps import services as sweeps
from simulations.sweeps.services import sweep_results, sweep_submit
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cards(catalogue):
    return catalogue


def make_sweep(user, values=(1, 2, 3), **kw):
    args = {"kind": "match", "deck_specs": [DAWN, DUSK], "games": 12, "agent_a": "greedy",
            "agent_b": "random", "card": "T-M01", "field": "attack", "seed": 6}
    args.update(kw)
    sweep = sweep_submit(user=user, values=list(values), **args)
    for run in sweep.runs.all():
        play_all(run)
    return sweep


def test_a_sweep_plays_the_baseline_and_one_patched_run_per_other_value(alice):
    sweep = make_sweep(alice)
    runs = {r.sweep_value: r for r in sweep.runs.all()}
    assert set(runs) == {1, 2, 3} and sweep.baseline_value == 2
    assert runs[2] == sweep.baseline and runs[2].patch is None
    assert {r.seed for r in runs.values()} == {6}
    assert runs[3].cards["T-M01"]["attack"] == 3 and runs[1].cards["T-M01"]["attack"] == 1
    assert runs[3].patch["diff"][0]["text"] == "Ember Pup: attack 2 → 3"


def test_each_point_is_its_runs_rate_paired_with_the_baseline(alice):
    sweep = make_sweep(alice)
    results = sweep_results(sweep)
    assert results["final"] and [p["value"] for p in results["lines"][0]["points"]] == [1, 2, 3]
    (line,) = results["lines"]
    for point in line["points"]:
        run = SimulationRun.objects.get(uid=point["run"])
        (report,) = run_reports(run)
        assert (point["rate"], point["low"], point["high"]) == (
            report["win_rate"]["rate"], report["win_rate"]["low"], report["win_rate"]["high"])
        if run == sweep.baseline:
            continue
        (row,) = compare_runs(sweep.baseline, run)["rows"]
        assert point["change"]["change"] == row["change"]
        assert point["change"]["method"] == "paired" and point["change"]["p_value"] is not None


def test_a_round_robin_sweep_draws_one_line_per_deck(alice, make_deck):
    mine = make_deck(alice)
    sweep = make_sweep(alice, values=(2, 4), kind="round_robin",
                       deck_specs=[mine.uid, DAWN, DUSK], games=8)
    results = sweep_results(sweep)
    assert [line["label"] for line in results["lines"]] == ["Ember Test", "Dawn Test",
                                                             "Dusk Test"]
    run = SimulationRun.objects.get(uid=results["lines"][1]["points"][1]["run"])
    assert results["lines"][1]["points"][1]["rate"] == field_rate(run_reports(run), 1)["rate"]


@pytest.mark.parametrize("changes, field, message", [
    ({"field": "rarity"}, "field", str(sweeps.BAD_FIELD).format(field="rarity")),
    ({"values": [3]}, "values", str(sweeps.BAD_VALUES).format(limit=sweeps.MAX_VALUES,
                                                         top=sweeps.MAX_VALUE)),
    ({"values": [3, 3]}, "values", str(sweeps.BAD_VALUES).format(limit=sweeps.MAX_VALUES,
                                                            top=sweeps.MAX_VALUE)),
    ({"card": "T-H01"}, "field", str(sweeps.NO_SUCH_FIELD).format(name="Flame Warden",
                                                            field="attack", kind="hero")),
    ({"card": "NOPE"}, "card", str(sweeps.NO_SUCH_CARD).format(code="NOPE")),
    ({"games": 40_000, "values": [1, 2, 3, 4]}, "games",
     str(sweeps.TOO_MANY_GAMES).format(total=160_000, runs=4, per_run=40_000, limit=100_000)),
])
def test_bad_sweeps_are_refused_whole(alice, changes, field, message):
    args = {"kind": "match", "deck_specs": [DAWN, DUSK], "games": 12, "agent_a": "greedy",
            "agent_b": "random", "card": "T-M01", "field": "attack", "values": [1, 2, 3]}
    with pytest.raises(SimulationInputError) as caught:
        sweep_submit(user=alice, **{**args, **changes})
    assert caught.value.field == field and message in caught.value.message
    assert not Sweep.objects.exists() and not SimulationRun.objects.exists()


def test_the_sweep_api(alice, bob):
    api = APIClient()
    api.force_authenticate(alice)
    body = {"decks": [DAWN, DUSK], "games": 4, "card": "T-M01", "field": "attack",
            "values": [2, 3], "seed": 1, "agent_b": "random"}
    created = api.post("/api/simulations/sweeps/", body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert data["baseline_value"] == 2 and len(data["runs"]) == 2 and not data["final"]
    for run in SimulationRun.objects.all():
        play_all(run)
    done = api.get(f"/api/simulations/sweeps/{data['uid']}/").json()
    assert done["final"] and len(done["lines"][0]["points"]) == 2
    bad = api.post("/api/simulations/sweeps/", {**body, "field": "name_en"}, format="json")
    assert bad.status_code == 400 and "field" in bad.json()
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get(f"/api/simulations/sweeps/{data['uid']}/").status_code == 404


def test_the_sweep_page_charts_the_points_and_links_their_runs(alice, client):
    sweep = make_sweep(alice)
    client.force_login(alice)
    page = client.get(f"/simulations/sweeps/{sweep.uid}/").content.decode()
    for run in sweep.runs.all():
        assert run.get_absolute_url() in page
    assert '<svg class="chart chart-wide"' in page and "McNemar p" in page
    assert 'viewBox="0 0 880 ' in page            # the card's whole width, not half of it
    assert f"before={sweep.baseline.uid}" in page
    # Each run's link says which run it is, not its status ("Done" thrice).
    assert "Baseline run (attack 2)" in page
    assert "Run with attack 1" in page and "Run with attack 3" in page
    assert ">Done</a>" not in page


def test_staff_open_the_sweep_of_a_private_run_they_can_see(alice, client,
                                                            django_user_model):
    sweep = make_sweep(alice)
    assert not sweep.is_public
    staff = django_user_model.objects.create_user("staffer", password="x", is_staff=True)
    client.force_login(staff)
    run = sweep.runs.exclude(pk=sweep.baseline_id).first()
    page = client.get(run.get_absolute_url())
    assert page.status_code == 200 and sweep.get_absolute_url() in page.text
    assert client.get(sweep.get_absolute_url()).status_code == 200


def test_the_patch_page_previews_and_starts_a_run_or_a_sweep(alice, client):
    client.force_login(alice)
    page = client.get("/simulations/patch/", {"card": "T-M01"})
    assert page.status_code == 200 and "Ember Pup" in page.content.decode()
    preview = client.get("/simulations/patch/preview/", {"card": "T-M01", "attack": 4,
                                                         "rarity": "N", "abilities": "[]"})
    assert "Ember Pup: attack 2 → 4" in preview.content.decode()
    bad = client.get("/simulations/patch/preview/", {"card": "T-M01", "attack": 2,
                                                     "rarity": "N", "abilities": "[{]"})
    assert "Abilities must be a JSON list" in bad.content.decode()
    form = {"card": "T-M01", "attack": 4, "rarity": "N", "abilities": "[]", "kind": "match",
            "deck": DAWN, "opponents": [DUSK], "games": 4, "agent_a": "greedy",
            "agent_b": "random", "sweep_field": "attack"}
    run_response = client.post("/simulations/patch/", {**form, "action": "run"})
    run = SimulationRun.objects.get()
    assert run_response.status_code == 302 and run_response.url == run.get_absolute_url()
    assert run.patch["changes"] == [{"card": "T-M01", "field": "attack", "value": 4}]
    sweep_response = client.post("/simulations/patch/", {
        **form, "action": "sweep", "sweep_from": 1, "sweep_to": 3, "sweep_step": 1})
    sweep = Sweep.objects.get()
    assert sweep_response.url == f"/simulations/sweeps/{sweep.uid}/"
    unchanged = client.post("/simulations/patch/", {**form, "attack": 2, "action": "run"})
    assert unchanged.status_code == 400 and "Change at least one field" in \
        unchanged.content.decode()


def test_the_new_endpoints_are_in_the_openapi_schema(client):
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    compare = paths["/api/simulations/compare/"]["get"]
    assert {"200", "400", "404"} <= set(compare["responses"])
    assert {p["name"] for p in compare["parameters"]} >= {"before", "after", "deck"}
    assert {"201", "400"} <= set(paths["/api/simulations/sweeps/"]["post"]["responses"])
    assert {"200", "404"} <= set(paths["/api/simulations/sweeps/{uid}/"]["get"]["responses"])


def test_the_patch_page_says_an_ability_number_as_a_change_of_its_rules_text(alice, client):
    client.force_login(alice)
    squire = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}]
    preview = client.get("/simulations/patch/preview/", {
        "card": "T-M04", "attack": 2, "cost": 2, "rarity": "R",
        "abilities": json.dumps(squire)}).content.decode()
    assert "Dawn Squire: Awaken: Draw a card. → Awaken: Draw 2 cards." in preview
    form = {"card": "T-M04", "cost": 2, "attack": 2, "rarity": "R", "kind": "match",
            "deck": DAWN, "opponents": [DUSK], "games": 4, "agent_a": "greedy",
            "agent_b": "random", "action": "run"}
    client.post("/simulations/patch/", {**form, "abilities": json.dumps(squire)})
    run = SimulationRun.objects.get()
    assert run.patch["changes"] == [
        {"card": "T-M04", "field": "abilities.0.effects.0.count", "value": 2}]
    client.post("/simulations/patch/", {**form, "abilities": "[]"})
    removed = SimulationRun.objects.exclude(pk=run.pk).get()
    assert removed.patch["changes"] == [{"card": "T-M04", "field": "abilities.0", "value": None}]
