"""A meta forecast as a job of the workers, met through the API: it runs (in this process, as a
worker's task would) to the forecast the command prints for the same input, fanning its games
out as pieces; it is refused with a 400 naming the input, private to its owner, cancelled by
its owner alone."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from balance import runner
from balance.models import BalanceJob, JobKind, JobPiece
from tests.balance.conftest import DAWN, DUSK
from work.models import WorkStatus

pytestmark = pytest.mark.django_db

BODY = {"decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 3, "settle": 1,
        "max_rounds": 1, "budget_games": 20_000, "verify_games": 100, "tune_games": 2_000,
        "round_games": 100, "final_games": 100, "swaps_per_round": 1, "exploit_swaps": 1,
        "seed": 3}


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def test_a_forecast_job_runs_to_the_settled_meta(api, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    made = api.post("/api/meta-forecasts/", BODY, format="json")
    assert made.status_code == 201, made.json()
    uid = made.json()["uid"]
    job = BalanceJob.objects.get(uid=uid)
    assert job.kind == JobKind.FORECAST and job.get_absolute_url() == f"/balance/forecast/{uid}/"
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    assert JobPiece.objects.filter(job=job).exists()                # fanned out as pieces
    data = api.get(f"/api/meta-forecasts/{uid}/").json()
    assert data["status"] == WorkStatus.DONE and data["progress"]["percent"] == 100
    result = data["result"]
    assert [d["name"] for d in result["final"]["decks"]] == ["Dawn Test", "Dusk Test"]
    assert {"field", "shares", "nash", "relaxed", "matchups"} <= set(result["final"])
    assert result["rounds"][0]["round"] == 0 and result["exploitability"]["games"] > 0
    job.refresh_from_db()
    assert result["games"]["total"] <= job.games_played             # every game counted
    listed = api.get("/api/meta-forecasts/?mine=1").json()["results"]
    assert [j["uid"] for j in listed] == [uid]
    assert api.get("/api/deck-tunings/").json()["results"] == []     # kinds apart


def test_bad_input_is_a_400_naming_the_field_and_cancel_is_the_owners(api, bob):
    for field, value in (("decks", [DAWN]), ("max_changes", 0), ("settle", 80),
                         ("tune_games", 5), ("verify_games", 5), ("max_rounds", 0)):
        bad = api.post("/api/meta-forecasts/", {**BODY, field: value}, format="json")
        assert bad.status_code == 400 and field in bad.json(), (field, bad.json())
    bad = api.post("/api/meta-forecasts/", {**BODY, "patch": {
        "name": "x", "changes": [{"card": "T-M02", "field": "attack", "value": -3}]}},
        format="json")
    assert bad.status_code == 400 and "patch" in bad.json()
    made = api.post("/api/meta-forecasts/", {**BODY, "patch": {
        "name": "Boar +2", "changes": [{"card": "T-M02", "field": "attack", "value": 5}]}},
        format="json").json()
    assert made["patch"]["diff"][0]["new"] == 5
    assert BalanceJob.objects.get(uid=made["uid"]).cards["T-M02"]["attack"] == 5
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get(f"/api/meta-forecasts/{made['uid']}/").status_code == 404    # private
    api.post(f"/api/meta-forecasts/{made['uid']}/", format="json")
    cancelled = api.post(f"/api/meta-forecasts/{made['uid']}/cancel/", format="json")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"


def test_the_pages_from_the_form_to_the_settled_meta(client, alice, catalogue, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    client.force_login(alice)
    form = client.get(reverse("balance:forecast-new"))
    assert form.status_code == 200 and b"Most changed cards" in form.content
    bad = client.post(reverse("balance:forecast-new"), {"agent": "greedy", "max_changes": 0,
                                                        "settle": 1, "max_rounds": 1,
                                                        "budget_games": 20000,
                                                        "verify_games": 100})
    assert bad.status_code == 400
    made = client.post(reverse("balance:forecast-new"), {
        "decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 3, "settle": 1,
        "max_rounds": 1, "budget_games": 20_000, "verify_games": 100, "seed": 3})
    assert made.status_code == 302, made.content.decode()[:2000]
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.FORECAST)
    fragment = client.get(reverse("balance:forecast-progress", args=[job.uid]))
    assert b"Waiting for a worker" in fragment.content and b"hx-get" in fragment.content
    assert b"Cancel the forecast" in client.get(job.get_absolute_url()).content
    # a finished forecast's page: the figures of a small one played here
    spec = dict(job.tuning)
    spec["options"] = {**spec["options"], "tune_games": 2_000, "round_games": 100,
                       "final_games": 100, "swaps_per_round": 1, "exploit_swaps": 1}
    BalanceJob.objects.filter(pk=job.pk).update(tuning=spec)
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    page = client.get(job.get_absolute_url())
    text = page.content.decode()
    assert page.status_code == 200 and 'data-testid="meta-chart"' in text
    assert "Patch day: the printed lists" in text and text.count('data-testid="round"') >= 2
    assert 'data-testid="settled"' in text and 'data-testid="exploit"' in text
    assert text.count('data-testid="verdict"') == 2            # one agent: its verdicts too
    assert "/cards/" in text or "None." in text                      # card art, or no moves
    assert job.title in client.get(reverse("balance:forecast-list") + "?mine=1").content.decode()
    from tests.test_chinese_pages import ZH, english_words

    for url in (job.get_absolute_url(), reverse("balance:forecast-new"),
                reverse("balance:forecast-list"),
                reverse("balance:forecast-progress", args=[job.uid])):
        chinese = client.get(url, **ZH)
        assert chinese.status_code == 200, url
        found = [w for w in english_words(chinese.content.decode()) if "alice" not in w]
        assert found == [], (url, found)


def test_progress_and_time_left_read_against_the_forecasts_own_estimate(client, alice,
                                                                        catalogue):
    """A forecast rarely spends its budget: 120,000 games of an expected 240,000 are half
    done (not 4 % of a 3,000,000-game cap), and the time left is the other half at its pace."""
    client.force_login(alice)
    made = client.post(reverse("balance:forecast-new"), {
        "decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 3, "settle": 1,
        "max_rounds": 8, "budget_games": 3_000_000, "verify_games": 100, "seed": 3})
    assert made.status_code == 302
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.FORECAST)
    BalanceJob.objects.filter(pk=job.pk).update(status="running", games_played=120_000,
                                               progress={"phase": "tuning", "round": 2,
                                                         "games": 120_000,
                                                         "expected": 240_000, "rate": 400.0})
    text = client.get(reverse("balance:forecast-progress", args=[job.uid])).content.decode()
    assert 'data-testid="percent">50 %' in text
    assert '<span data-testid="expected">240000</span>' in text
    assert 'data-testid="time-left">about 5 min 0 s left' in text   # 120,000 games at 400/s
    api = APIClient()
    api.force_authenticate(alice)
    progress = api.get(f"/api/meta-forecasts/{job.uid}/").json()["progress"]
    assert (progress["percent"], progress["expected"], progress["seconds_left"]) == (
        50, 240_000, 300.0)
    from tests.test_chinese_pages import ZH, english_words

    chinese = client.get(reverse("balance:forecast-progress", args=[job.uid]), **ZH)
    assert english_words(chinese.content.decode()) == []


def test_a_finished_forecast_says_the_games_it_played_not_a_cap_it_passed(client, alice,
                                                                          catalogue):
    """The rounds' budget is checked between rounds and leaves out the final figures, so a
    finished forecast may have played past it: its page says how many games it played."""
    client.force_login(alice)
    client.post(reverse("balance:forecast-new"), {
        "decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 3, "settle": 1,
        "max_rounds": 8, "budget_games": 2_000, "verify_games": 100, "seed": 3})
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.FORECAST)
    BalanceJob.objects.filter(pk=job.pk).update(status="done", games_played=11_700,
                                               progress={"phase": "done", "games": 11_700,
                                                         "expected": 11_700})
    text = client.get(reverse("balance:forecast-progress", args=[job.uid])).content.decode()
    assert '<span data-testid="games">11700</span> games played' in text
    assert "caps them" not in text and "of about" not in text


def test_further_agents_play_the_settled_lists_on_the_workers_and_the_page_says_verdicts(
        api, client, alice, settings):
    """``agents``: the first adapts the lists, the second plays the settled lists as pieces of
    their own on the workers; each archetype gets a verdict under both, shown on its page in
    English and in Chinese."""
    settings.BALANCE_PIECE_BLOCKS = 2
    made = api.post("/api/meta-forecasts/", {**BODY, "agents": ["greedy", "random"],
                                             "band": [40, 60]}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["agents"] == ["greedy", "random"] and made.json()["band"] == [40, 60]
    job = BalanceJob.objects.get(uid=made.json()["uid"])
    assert job.agent == "greedy"
    assert (job.tuning["further_agents"], job.tuning["band"]) == (["random"], [0.4, 0.6])
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    played = {part["task"]["agent"] for piece in JobPiece.objects.filter(job=job)
              for part in piece.task}
    assert "random" in played                                        # on the workers
    result = api.get(f"/api/meta-forecasts/{job.uid}/").json()["result"]
    assert list(result["final"]["agents"]) == ["random"] and result["band"] == [0.4, 0.6]
    assert all(f["games"] == 100 for f in result["final"]["agents"]["random"]["field"])
    verdicts = result["verdicts"]
    assert [v["archetype"] for v in verdicts] == ["Dawn Test", "Dusk Test"]
    for row in verdicts:
        rates = [r["rate"] for r in row["agents"].values()]
        assert list(row["agents"]) == ["greedy", "random"]
        assert row["verdict"] == ("nerf" if any(r > 0.6 for r in rates) else
                                  "buff" if all(r < 0.4 for r in rates) else "fine")
    client.force_login(alice)
    text = client.get(job.get_absolute_url()).content.decode()
    assert 'data-testid="verdicts"' in text and text.count('data-testid="verdict"') == 2
    assert 'id="verdicts-h"' in text and "over 60.0 % under any agent" in text
    assert 'data-testid="further-agents"' in text
    from tests.test_chinese_pages import ZH, english_words

    chinese = client.get(job.get_absolute_url(), **ZH).content.decode()
    assert "每个套路的裁定" in chinese
    assert [w for w in english_words(chinese) if "alice" not in w] == []


def test_further_agents_and_band_refused_with_the_field_to_fix(api, alice, catalogue):
    for body, field in ((["greedy", "greedy"], "agents"),
                        (["greedy", "random", "random"], "agents"),
                        (["greedy", "nobody"], "agents")):
        bad = api.post("/api/meta-forecasts/", {**BODY, "agents": body}, format="json")
        assert bad.status_code == 400 and list(bad.json()) == [field], (body, bad.json())
    assert "adapts the lists" in api.post("/api/meta-forecasts/", {
        **BODY, "agents": ["greedy", "greedy"]}, format="json").json()["agents"][0]
    for band in ([55, 45], [0, 55], [45, 100], [45]):
        bad = api.post("/api/meta-forecasts/", {**BODY, "band": band}, format="json")
        assert bad.status_code == 400 and list(bad.json()) == ["band"], (band, bad.json())
    from balance.forecast.services import forecast_job_request
    from balance.services import BalanceInputError

    for further in (["greedy"], ["random", "random"], ["nobody"]):
        with pytest.raises(BalanceInputError) as refused:
            forecast_job_request(user=alice, deck_specs=[DAWN, DUSK], agent="greedy",
                                 further_agents=further)
        assert refused.value.field == "further_agents", further
    with pytest.raises(BalanceInputError) as refused:
        forecast_job_request(user=alice, deck_specs=[DAWN, DUSK], band=(60, 40))
    assert refused.value.field == "band"
    assert not BalanceJob.objects.exists()


def test_a_job_frozen_before_further_agents_still_loads(api):
    from balance.forecast.problem import forecast_problem

    made = api.post("/api/meta-forecasts/", BODY, format="json").json()
    job = BalanceJob.objects.get(uid=made["uid"])
    spec = {k: v for k, v in job.tuning.items() if k not in ("further_agents", "band")}
    BalanceJob.objects.filter(pk=job.pk).update(tuning=spec)
    job.refresh_from_db()
    problem = forecast_problem(job)
    assert (problem.further_agents, problem.band) == ((), (0.45, 0.55))
    data = api.get(f"/api/meta-forecasts/{job.uid}/").json()
    assert (data["agents"], data["band"]) == (["greedy"], [45, 55])


def test_the_form_takes_further_agents_and_the_band(client, alice, catalogue):
    client.force_login(alice)
    form = client.get(reverse("balance:forecast-new")).content.decode()
    assert "Also play the settled lists with" in form and 'name="band_low"' in form
    post = {"decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 3, "settle": 1,
            "max_rounds": 1, "budget_games": 20_000, "verify_games": 100, "seed": 3,
            "band_low": 45, "band_high": 55}
    bad = client.post(reverse("balance:forecast-new"), {**post, "further_agents": ["greedy"]})
    assert bad.status_code == 400 and "adapts the lists" in bad.content.decode()
    bad = client.post(reverse("balance:forecast-new"), {**post, "band_low": 60})
    assert bad.status_code == 400 and "the lower first" in bad.content.decode()
    assert not BalanceJob.objects.exists()
    made = client.post(reverse("balance:forecast-new"), {**post, "further_agents": ["random"]})
    assert made.status_code == 302, made.content.decode()[:2000]
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.FORECAST)
    assert (job.agent, job.tuning["further_agents"], job.tuning["band"]) == (
        "greedy", ["random"], [0.45, 0.55])


def test_further_agents_games_count_against_the_owners_cpu_time(catalogue):
    from balance.forecast.services import forecast_job_request
    from simulations.quota import game_seconds

    sizes = {k: BODY[k] for k in ("tune_games", "round_games", "final_games",
                                  "swaps_per_round", "exploit_swaps")}
    one, two = (forecast_job_request(user=None, deck_specs=[DAWN, DUSK], agent="greedy",
                                     further_agents=further, budget_games=20_000,
                                     verify_games=100, **sizes)
                for further in ((), ("random",)))
    extra = game_seconds("random", "random") * 1 * BODY["final_games"]   # one matchup
    assert two.cpu_seconds == pytest.approx(one.cpu_seconds + extra)
