"""The adapted objective as its users meet it: the API (a job that runs through the workers'
pieces to every patch's printed-list and adapted figures), the form's option, the job's page in
both languages, the command's refusals; bad input is a 400 naming the input."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from rest_framework.test import APIClient

from balance import runner
from balance.models import BalanceJob, JobPiece
from balance.search.adapted import AdaptedCodec
from balance.search.adapted_request import BAD_FORECAST_SEEDS, BAD_LIST_CHANGES
from balance.search.services import FEW_DECKS_META
from decks.drafts import Draft
from decks.services import deck_create
from rules.lab.balance_search.adapted_play import PAIR, SEARCH, AdaptedTask
from rules.lab.balance_search.space import Move
from rules.lab.deck_tuning.problem import base_key
from tests.balance.conftest import DAWN, DUSK
from tests.fixtures import LEGAL_CARDS
from tests.rules.test_balance_adapted import tiny

pytestmark = pytest.mark.django_db

SMALL = {"iterations": 1, "list_changes": 3, "forecast_budget_games": 20_000,
         "tune_games": 2_000, "round_games": 100, "final_games": 100, "max_rounds": 1,
         "swaps_per_round": 1, "exploit_swaps": 1}
# A patch already out, small enough that its adapted meta meets 10–90 % bands on the test field.
LIVE_PATCH = {"name": "Live 1.1", "changes": [{"card": "T-H01", "field": "hp", "value": 21}]}


@pytest.fixture
def third(alice, catalogue):
    deck = deck_create(owner=alice, draft=Draft(name="Alice's Mix", hero="T-H02",
                                                cards=dict(LEGAL_CARDS)))
    return deck.uid


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def body(third_uid: str, **extra) -> dict:
    return {"decks": [DAWN, DUSK, third_uid], "agent": "greedy", "objective": "adapted",
            "max_changes": 2, "budget_games": 2000, "verify_games": 100, "seed": 5,
            "allowed_cards": ["T-H01", "T-H02"], "fields": ["hp"], "min_share": 0.0,
            "adapted": dict(SMALL), **extra}


@pytest.mark.parametrize(("extra", "field", "message"), [
    ({"decks": [DAWN, DUSK]}, "decks", FEW_DECKS_META),
    ({"adapted": {"list_changes": 0}}, "list_changes", BAD_LIST_CHANGES),
    ({"adapted": {"patches": 2}}, "adapted", None),
    ({"adapted": {"forecast_seeds": 5}}, "forecast_seeds", BAD_FORECAST_SEEDS),
    ({"adapted": {"forecast_seeds": 1.5}}, "forecast_seeds", BAD_FORECAST_SEEDS),
    ({"adapted": {"answer_check": 9}}, "answer_check", None),
    # a string where a number belongs is the same 400, not a comparison that fails
    ({"adapted": {"list_changes": "three"}}, "list_changes", BAD_LIST_CHANGES),
])
def test_the_api_refuses_bad_adapted_input_with_a_400_naming_it(api, third, extra, field,
                                                                message):
    response = api.post("/api/balance-searches/", body(third, **extra), format="json")
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == [field]
    if message is not None:
        assert errors[field] == [str(message)]
    elif field == "answer_check":
        assert "Price 0 to 8 of each search's best patches" in errors[field][0]
    else:
        assert "patches" in errors[field][0] and "list_changes" in errors[field][0]
    assert not BalanceJob.objects.exists()


def test_the_api_takes_the_adapted_objectives_bands_by_default(api, third):
    made = api.post("/api/balance-searches/", body(third), format="json")
    assert made.status_code == 201, made.json()
    created = made.json()
    assert created["objective"] == "adapted"
    assert created["field_band"] == [0.45, 0.55] and created["matchup_band"] == [0.25, 0.75]
    assert created["adapted"]["iterations"] == 1 and created["adapted"]["exploit_limit"] == 0.56
    assert created["adapted"]["list_changes"] == 3
    assert created["adapted"]["forecast_seeds"] == 2      # each patch judged on two forecasts


@pytest.mark.long
def test_an_adapted_search_runs_on_the_workers_and_its_page_shows_both_sides(
        api, client, alice, third, settings):
    """Bands so wide (10–90 %) that the unpatched pool's adapted meta meets them: one
    forecast, and the search stops there, choosing no patch (the search's own games:
    ``test_balance_adapted``)."""
    settings.BALANCE_PIECE_BLOCKS = 2
    wide = body(third, field_band=[0.1, 0.9], matchup_band=[0.05, 0.95],
                adapted={**SMALL, "exploit_limit": 1.0})
    made = api.post("/api/balance-searches/", wide, format="json")
    assert made.status_code == 201, made.json()
    job = BalanceJob.objects.get(uid=made.json()["uid"])
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    assert JobPiece.objects.filter(job=job).exists()                # fanned out as pieces
    result = api.get(f"/api/balance-searches/{job.uid}/").json()["result"]
    assert result["objective"]["objective"] == "adapted"
    [first] = result["considered"]
    assert first["changes"] == 0 and first["meets"] and result["chosen"] == 0
    # forecast on the job's seed and the next, judged by the worse (both meet here)
    assert [p["seed"] for p in first["paths"]] == [5, 6] and first["seed"] in (5, 6)
    assert all(p["meets"] for p in first["paths"])
    assert result["patch"] is None
    for patch in result["considered"]:
        for side in ("printed", "adapted"):
            assert patch[side]["agent"] == "greedy" and patch[side]["games_each"] == 100
            assert len(patch[side]["field"]) == 3
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert "a healthy meta after players adapt" in page
    assert page.count('data-testid="adapted-patch"') == len(result["considered"])
    assert "Printed lists" in page and "After players adapt" in page
    assert page.count('data-testid="chosen"') == 1
    assert "After players adapt, every target is met." in page
    assert 'data-testid="adapted-paths"' in page and "Seed 5" in page and "Seed 6" in page
    assert "This patch was forecast on 2 seeds and judged by the worst" in page
    assert "(worst)" not in page              # every seed met: no forecast is the worst
    assert 'data-testid="judged"' not in page   # the finished page has the whole table instead
    assert 'data-testid="next-moves"' not in page and result["next_moves"] == []
    # One round allowed: the forecast cannot settle (a check would be its second round), and
    # the page says its figures are where that path stood.
    assert first["stopped"] == "rounds" and 'data-testid="unsettled"' in page
    assert "It stopped at the most rounds allowed, before the lists settled" in page
    assert client.get(reverse("balance:patch", args=[job.uid, 0])).status_code == 404
    from tests.test_chinese_pages import ZH, english_words

    chinese = client.get(job.get_absolute_url(), **ZH)
    found = [w for w in english_words(chinese.content.decode())
             if "alice" not in w.lower() and "patch.json" not in w]   # a name, a file name
    assert found == []


@pytest.mark.long
def test_an_adapted_search_from_a_live_patch_forecasts_the_live_patch_first(
        api, client, alice, third, settings):
    """The patch already out is the pool players adapted to: the workers forecast it first
    (patch 0), and where its adapted meta meets, it is the patch chosen and downloadable."""
    settings.BALANCE_PIECE_BLOCKS = 2
    wide = body(third, field_band=[0.1, 0.9], matchup_band=[0.05, 0.95], live_patch=LIVE_PATCH,
                adapted={**SMALL, "exploit_limit": 1.0, "forecast_seeds": 1})
    made = api.post("/api/balance-searches/", wide, format="json")
    assert made.status_code == 201, made.json()
    job = BalanceJob.objects.get(uid=made.json()["uid"])
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    result = api.get(f"/api/balance-searches/{job.uid}/").json()["result"]
    [first] = result["considered"]
    assert first["changes"] == 1 and first["meets"] and result["chosen"] == 0
    assert result["patch"]["changes"] == LIVE_PATCH["changes"]
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'data-testid="live"' in page and 'data-testid="live-patch"' in page
    download = client.get(reverse("balance:patch", args=[job.uid, 0]))
    assert download.status_code == 200 and download.json()["changes"][0]["value"] == 21


def test_the_form_offers_the_adapted_objective_and_stores_its_options(client, alice, third):
    client.force_login(alice)
    page = client.get(reverse("balance:new")).content.decode()
    assert 'value="adapted"' in page and "Patches to try" in page
    assert 'data-shown-for="objective=meta|adapted"' in page
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK, third], "agent": "greedy", "objective": "adapted",
        "band_low": 45, "band_high": 55, "field_band_low": 45, "field_band_high": 55,
        "matchup_band_low": 25, "matchup_band_high": 75, "epsilon": 0.5, "min_share": 5,
        "max_changes": 2, "fields": ["hp"], "budget_games": 2000, "verify_games": 100,
        "iterations": 2, "list_changes": 5, "exploit_limit": 58, "forecast_seeds": 3,
        "answer_check": 3})
    assert response.status_code == 302, response.content.decode()[:3000]
    job = BalanceJob.objects.get(owner=alice)
    assert job.objective == "adapted" and job.tuning["pool"]
    options = job.tuning["options"]
    assert (options["iterations"], options["list_changes"]) == (2, 5)
    assert options["exploit_limit"] == pytest.approx(0.58)
    assert options["forecast_seeds"] == 3 and options["answer_check"] == 3
    assert 'name="forecast_seeds"' in page and "Forecasts of each patch" in page


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--exploit-limit", "40", "--exploit-limit: give a percentage from 50 to 100"),
    ("--forecast-seeds", "0", "--forecast-seeds: give a whole number from 1 to 4 (got 0)"),
    ("--answer-check", "9", "--answer-check: give 0 (none) or a whole number up to 8 (got 9)"),
])
def test_the_command_refuses_an_adapted_option_out_of_range(option, value, message):
    with pytest.raises(CommandError) as caught:
        call_command("balance_search", "--objective", "adapted", "--decks", "Ember Rush",
                     "Tidewall", "Gravecallers", option, value)
    assert message in str(caught.value)


def test_the_jobs_codec_carries_both_kinds_of_task_whole():
    """A piece row carries a search block or a forecast pair under a patch to any worker: what
    it decodes plays the same games, and the two kinds never share a key."""
    codec = AdaptedCodec(tiny())
    lists = tuple(base_key(d) for d in tiny().forecast.archetypes)
    move = (Move("T-H01", "hp", 28, 1, -1),)
    tasks = [AdaptedTask(SEARCH, move, lists, 0, 2, 11, 0, 1),
             AdaptedTask(PAIR, move, lists[:2], 0, 1, 11, 0, 1, "random")]
    for task in tasks:
        back = codec.decode(codec.encode(task))
        assert replace(back, first=0, blocks=1) == task
        played = codec.play(back, 0, 1)
        assert [codec.load(codec.dump(r)) for r in played] == played == codec.play(task, 0, 1)
    assert codec.key(tasks[0]) != codec.key(replace(tasks[0], kind=PAIR))


def test_the_page_reads_an_adapted_search_against_its_estimate_not_every_steps_cap(
        client, alice, third):
    from balance.search.services import balance_job_request
    from balance.selectors import job_progress

    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK, third], agent="greedy",
                              max_changes=2, budget_games=2_000, verify_games=100, seed=5,
                              objective="band")
    job.status = "running"
    job.progress = {"phase": "tuning", "step": "forecast", "iteration": 1, "games": 300_000,
                    "budget": 6_000_000, "expected": 1_200_000, "rate": 1_000.0}
    progress = job_progress(job)
    assert progress.percent == 25 and progress.expected == 1_200_000
    assert progress.seconds_left == pytest.approx(900.0)      # 900,000 games at 1,000 a second
    job.save()
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'data-testid="expected">1200000<' in page
    assert "patch 1: forecasting how players adapt" in page
    job.progress = {**job.progress, "expected": None}          # an older job's progress: the cap
    assert job_progress(job).percent == 5


def test_the_page_shows_each_patch_judged_so_far_while_the_search_goes_on(client, alice, third):
    """An adapted search can run an hour: each patch's verdict (and each forecast seed's) is on
    its page as soon as its forecasts end, its changes naming their cards, in both languages."""
    from balance.search.services import balance_job_request

    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK, third], agent="greedy",
                              max_changes=2, budget_games=2_000, verify_games=100, seed=5,
                              objective="band")
    paths = [{"seed": 5, "meets": True, "misses": 0, "stopped": "settled", "rounds": 3},
             {"seed": 6, "meets": False, "misses": 2, "stopped": "rounds", "rounds": 20}]
    judged = [{"iteration": 0, "meets": False, "changes": [], "lines": [], "paths": paths},
              {"iteration": 1, "meets": False, "lines": ["Thorn Boar: cost 2 → 3"],
               "changes": [{"card": "T-M02", "field": "cost", "value": 3}], "paths": paths}]
    job.status = "running"
    job.progress = {"phase": "racing", "step": "search", "iteration": 2, "games": 300_000,
                    "budget": 6_000_000, "expected": 1_200_000, "judged": judged}
    job.save()
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert page.count("<li>Unpatched — <strong>misses</strong>") == 1
    assert "Patch 1: 1 change — <strong>misses</strong>; Seed 5: all met; Seed 6: 2 missed " \
           "(not settled)" in page
    assert "Thorn Boar: cost 2 → 3" in page
    page = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "已评判的补丁" in page and "补丁 1：1 处改动" in page
    assert "荆棘野猪" in page and "种子 6: 未达到 2 项 (未稳定)" in page


def finished_search(alice, third, result) -> BalanceJob:
    """An adapted search of the small field, marked done with ``result``."""
    from balance.search.services import balance_job_request

    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK, third], agent="greedy",
                              max_changes=2, budget_games=2_000, verify_games=100, seed=5,
                              objective="adapted", adapted=dict(SMALL))
    BalanceJob.objects.filter(pk=job.pk).update(status="done", result=result)
    return job


@pytest.mark.long
def test_a_finished_search_that_misses_says_on_its_page_what_would_go_further(
        client, alice, third):
    from tests.rules.test_balance_adapted import run

    result = run(tiny()).to_dict()
    result["next_moves"] = [{"why": "patches", "patches": 3},
                            {"why": "paths", "iteration": 2, "met": [5], "missed": [6]},
                            {"why": "unsettled", "iteration": 2, "stopped": "rounds",
                             "rounds": 20}]
    job = finished_search(alice, third, result)
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'data-testid="next-moves"' in page
    assert "Every patch it might try was tried (3, “Patches to try”)" in page
    assert "Patch 2 met every target on seeds 5 and missed on seeds 6" in page
    assert "Patch 2&#x27;s worst forecast stopped after 20 rounds" in page
    chinese = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = chinese.content.decode()
    assert "可尝试的补丁都已尝试（3 个" in text and "补丁 2 在种子 5 上达到全部目标" in text
    assert "补丁 2 最差的一次预测在 20 轮后停止" in text


@pytest.mark.long
def test_a_patch_chosen_after_the_lists_answer_shows_each_patch_it_priced(client, alice, third):
    """``answer_check``: the patch's section lists the search's patches it priced, each with
    its misses once every list re-tuned once against it, the one forecast marked."""
    from tests.rules.test_balance_adapted import run

    result = run(tiny()).to_dict()
    chosen = result["considered"][-1]
    other = {"name": "candidate", "changes": [{"card": "T-M02", "field": "cost", "value": 3}]}
    chosen["answers"] = [
        {"patch": other, "changes": 1, "meets": False, "adopted": 2, "games": 400,
         "failures": [{"what": "field", "archetype": "Weak Dawn", "verdict": "buff"}],
         "excess": 0.01, "field": [], "agent": "greedy", "games_each": 1000,
         "paths": [{"seed": 5, "misses": 0}, {"seed": 6, "misses": 1}]},
        {"patch": chosen["patch"], "changes": chosen["changes"], "meets": True, "adopted": 1,
         "games": 400, "failures": [], "excess": 0.0, "field": [], "agent": "greedy",
         "games_each": 1000}]
    result["games"]["answer"] = 800
    job = finished_search(alice, third, result)
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert page.count('data-testid="adapted-answers"') == 1
    assert "the search's 2 best patches (its own pick first)" in page
    assert "Thorn Boar: cost 2 → 3" in page and "Weak Dawn needs a buff" in page
    assert "field, matchup and share targets met" in page
    assert "Played by " in page and "1000 fresh games a matchup." in page
    assert "pricing them against the lists' first answer" in page
    # answered on two forecast paths' lists: judged by the worse, each path's misses named
    assert page.count('data-testid="answer-paths"') == 1
    assert "the worse of each forecast path's answer: seed 5, 0 missed; seed 6, 1 missed" \
        in page
    text = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "卡组的第一轮应对" in text and "荆棘野猪" in text
    assert "取各预测路径的应对中较差者： 种子 5，未达到 0 项; 种子 6，未达到 1 项" in text


def test_a_live_patch_judged_first_is_called_the_live_patch():
    from balance.search.adapted_cli import judged_line
    judged = {"iteration": 0, "meets": False, "lines": ["Thorn Boar: cost 2 → 3"],
              "changes": [{"card": "T-M02", "field": "cost", "value": 3}],
              "paths": [{"seed": 1, "meets": False, "misses": 2, "stopped": "settled",
                         "rounds": 4}]}
    assert judged_line(judged) == (
        "[patch 0: judged] the live patch, 1 change (Thorn Boar: cost 2 → 3) misses — seed 1: "
        "2 targets missed, settled after 4 rounds")
    assert judged_line({**judged, "changes": [], "lines": []}).startswith(
        "[patch 0: judged] the unpatched pool misses")

