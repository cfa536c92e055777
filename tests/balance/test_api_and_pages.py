"""The balance search as its users meet it: the API (submit, follow, cancel, open a candidate
as a round-robin; refusals as 400 with the field, 404, 403, the per-user cap) and the pages
(form, live progress fragment, the Pareto front's chart and table)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from balance import runner
from balance.models import BalanceJob
from balance.search.services import BAD_BAND, TOO_MANY_ACTIVE, balance_job_request
from balance.services import BAD_BUDGET
from simulations.models import SimulationRun
from tests.balance.conftest import DAWN, DUSK, TINY

pytestmark = pytest.mark.django_db

BODY = {"decks": [DAWN, DUSK], "agent": "greedy", "max_changes": 2, "budget_games": 2000,
        "verify_games": 100, "seed": 5, "allowed_cards": TINY["allowed_cards"],
        "objective": "band"}


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def finished(job_uid: str) -> BalanceJob:
    job = BalanceJob.objects.get(uid=job_uid)
    runner.job_execute(job_id=job.pk, claim="t", worker="test@host")
    job.refresh_from_db()
    return job


def test_submit_follow_and_open_a_candidate_as_a_round_robin(api, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    response = api.post("/api/balance-searches/", BODY, format="json")
    assert response.status_code == 201, response.json()
    uid = response.json()["uid"]
    assert response.json()["status"] == "queued"
    job = finished(uid)
    data = api.get(f"/api/balance-searches/{uid}/").json()
    assert data["status"] == "done" and data["progress"]["percent"] == 100
    assert data["result"]["front"][0]["patch"]["changes"]
    assert api.get("/api/balance-searches/?mine=1").json()["results"][0]["uid"] == uid
    opened = api.post(f"/api/balance-searches/{uid}/candidates/0/run/")
    assert opened.status_code == 201, opened.json()
    run = SimulationRun.objects.get(uid=opened.json()["uid"])
    assert run.patch["changes"] == job.result["front"][0]["patch"]["changes"]
    assert run.games == job.verify_games and run.owner == job.owner and run.kind == "match"
    missing = api.post(f"/api/balance-searches/{uid}/candidates/99/run/")
    assert missing.status_code == 400


def test_bad_input_is_a_400_naming_the_field(api):
    bad = api.post("/api/balance-searches/", {**BODY, "band": [0.55, 0.6]}, format="json")
    assert bad.status_code == 400 and bad.json()["band"] == [BAD_BAND]
    bad = api.post("/api/balance-searches/", {**BODY, "budget_games": 10}, format="json")
    assert bad.status_code == 400 and "budget_games" in bad.json()
    assert "games" in BAD_BUDGET
    bad = api.post("/api/balance-searches/", {**BODY, "decks": [DAWN, "starter:Nope"]},
                   format="json")
    assert bad.status_code == 400 and "decks" in bad.json()
    bad = api.post("/api/balance-searches/", {**BODY, "allowed_cards": ["ZZZ"]}, format="json")
    assert bad.status_code == 400 and "allowed_cards" in bad.json()


def test_one_search_in_flight_per_user_then_cancel(api, alice):
    first = api.post("/api/balance-searches/", BODY, format="json").json()
    second = api.post("/api/balance-searches/", BODY, format="json")
    assert second.status_code == 400
    assert second.json()["non_field_errors"] == [TOO_MANY_ACTIVE.format(count=1, limit=1)]
    cancelled = api.post(f"/api/balance-searches/{first['uid']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    again = api.post(f"/api/balance-searches/{first['uid']}/cancel/")
    assert again.status_code == 400


def test_private_searches_are_not_found_and_others_cannot_cancel(api, bob):
    uid = api.post("/api/balance-searches/", BODY, format="json").json()["uid"]
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get(f"/api/balance-searches/{uid}/").status_code == 404
    BalanceJob.objects.filter(uid=uid).update(is_public=True)
    assert other.get(f"/api/balance-searches/{uid}/").status_code == 200
    assert other.post(f"/api/balance-searches/{uid}/cancel/").status_code == 403


def test_the_schema_lists_the_operations(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert "/api/balance-searches/" in paths
    assert "/api/balance-searches/{uid}/cancel/" in paths
    assert "/api/balance-searches/{uid}/candidates/{index}/run/" in paths


def test_the_form_starts_a_search_and_its_page_shows_progress_then_the_front(
        client, alice, catalogue, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    client.force_login(alice)
    page = client.get(reverse("balance:new"))
    assert page.status_code == 200 and b"Start the search" in page.content
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK], "agent": "greedy", "objective": "band", "band_low": 45,
        "band_high": 55, "field_band_low": 47, "field_band_high": 53, "matchup_band_low": 30,
        "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5,
        "max_changes": 2, "fields": ["cost", "attack", "hp"],
        "allowed_cards": ",".join(TINY["allowed_cards"]), "budget_games": 2000,
        "verify_games": 100, "seed": 5})
    assert response.status_code == 302, response.content.decode()[:2000]
    job = BalanceJob.objects.get(owner=alice)
    assert job.epsilon == pytest.approx(0.005)     # typed in points (0.5), kept as a share
    fragment = client.get(reverse("balance:progress", args=[job.uid]))
    assert b"Waiting for a worker" in fragment.content and b"hx-get" in fragment.content
    job = finished(job.uid)
    page = client.get(job.get_absolute_url())
    assert page.status_code == 200
    assert b"Pareto front" in page.content and b"<svg" in page.content
    assert b"Open as a round-robin" in page.content and b'data-testid="front"' in page.content
    assert b"Agent <strong>greedy</strong>" in page.content
    assert b'href="/simulations/agents/" data-testid="agents-link"' in page.content
    patch = client.get(reverse("balance:patch", args=[job.uid, 0]))
    stored = job.result["front"][0]["patch"]
    assert patch.status_code == 200 and patch.json()["name"] == stored["name"]
    # each change as stored, with the text a designer reads beside it
    assert [{k: v for k, v in c.items() if k != "text"} for c in patch.json()["changes"]] \
        == stored["changes"]
    assert all(": " in c["text"] and " → " in c["text"] for c in patch.json()["changes"])
    assert "attachment" in patch["Content-Disposition"]
    listed = client.get(reverse("balance:list") + "?mine=1")
    assert job.label.encode() in listed.content


def test_the_form_shows_the_services_refusals(client, alice, catalogue):
    client.force_login(alice)
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN], "agent": "greedy", "band_low": 45, "band_high": 55,
        "max_changes": 2, "fields": ["cost"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400 and b"Pick at least two decks." in response.content


def test_the_service_refuses_a_band_that_misses_fifty(alice, catalogue):
    from balance.services import BalanceInputError

    with pytest.raises(BalanceInputError) as caught:
        balance_job_request(user=alice, **{**TINY, "band": (0.5, 0.6)})
    assert caught.value.field == "band"
    assert not BalanceJob.objects.exists()


def test_a_search_page_in_chinese_names_it_and_its_fields_in_chinese(client, alice, catalogue):
    """The title is made in the reader's language, not stored in the submitter's."""
    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK], agent="greedy",
                              max_changes=2, budget_games=2000, verify_games=100, seed=5,
                              fields=["cost", "attack", "hp"],
                              allowed_cards=TINY["allowed_cards"])
    client.force_login(alice)
    page = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "平衡搜索：" in page and "Balance search:" not in page
    assert "费用、攻击力、血量" in page
    listed = client.get(reverse("balance:list"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "平衡搜索：" in listed


def test_progress_never_counts_past_the_budget_and_shows_re_verification_apart(
        client, alice, catalogue):
    """A round finishes its rung after the budget is spent: those games are said apart, as
    are the re-verification games on fresh seeds; the owner's Cancel button goes with the
    last poll once the search is done."""
    client.force_login(alice)
    job = balance_job_request(user=alice, **TINY)
    progress = reverse("balance:progress", args=[job.uid])
    BalanceJob.objects.filter(pk=job.pk).update(status="running", games_played=2450, progress={
        "phase": "racing", "games": 2450, "evaluations": 12, "rate": 100.0})
    text = client.get(progress).content.decode()
    assert '<span data-testid="games">2000</span> of 2000 search games played' in text
    assert "450 more to finish the round under way" in text
    assert "re-verification" not in text
    BalanceJob.objects.filter(pk=job.pk).update(games_played=2450 + 200, progress={
        "phase": "verifying", "games": 2450, "evaluations": 12, "rate": 100.0})
    text = client.get(progress).content.decode()
    assert "200 of 500 re-verification games on fresh seeds" in text
    assert 'data-testid="percent">88 %' in text    # (2000 + 200) of (2000 + 500)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'id="job-cancel">' in page and "Cancel the search" in page
    BalanceJob.objects.filter(pk=job.pk).update(status="done", games_played=2450 + 500,
                                               progress={"phase": "done", "games": 2450})
    text = client.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert "500 of 500 re-verification games on fresh seeds" in text
    assert '<div id="job-cancel" hx-swap-oob="true"></div>' in text


def test_best_so_far_says_change_or_changes(client, alice, catalogue):
    job = balance_job_request(user=alice, **TINY, is_public=True)
    best = {"changes": 1, "outside": 0, "games": 50, "worst_distance": 0.1}
    BalanceJob.objects.filter(pk=job.pk).update(status="running", progress={
        "phase": "racing", "games": 100, "best": best})
    text = client.get(reverse("balance:progress", args=[job.uid])).content.decode()
    assert "Best so far: <strong>1 change</strong>," in text
    BalanceJob.objects.filter(pk=job.pk).update(progress={
        "phase": "racing", "games": 100, "best": {**best, "changes": 2}})
    text = client.get(reverse("balance:progress", args=[job.uid])).content.decode()
    assert "Best so far: <strong>2 changes</strong>," in text


LIVE = {"name": "Live 1.1", "changes": [{"card": "T-M01", "field": "attack", "value": 3}]}


def _edits(moves, start) -> int:
    """Places two patches of (card, field, value) changes differ in."""
    a, b = ({(card, field): value for card, field, value in p} for p in (moves, start))
    return sum(a.get(slot) != b.get(slot) for slot in a.keys() | b.keys())


def test_a_search_from_a_live_patch_starts_from_it_on_the_workers_and_its_page_says_so(
        api, client, alice, settings):
    """A designer's next patch on top of the one already out, from the API: the job keeps the
    live patch, the workers' search measures it first and edits it — in one place at most,
    as asked — and the page names both."""
    settings.BALANCE_PIECE_BLOCKS = 2
    response = api.post("/api/balance-searches/", {**BODY, "live_patch": LIVE, "max_edits": 1},
                        format="json")
    assert response.status_code == 201, response.content
    shown = api.get(f"/api/balance-searches/{response.json()['uid']}/").json()
    assert shown["live_patch"]["changes"] == LIVE["changes"]
    assert shown["live_patch"]["diff"][0]["new"] == 3 and shown["max_edits"] == 1
    job = finished(response.json()["uid"])
    searched = {tuple((m["card"], m["field"], m["value"]) for m in s["moves"]): s
                for s in job.result["searched"]}
    live = (("T-M01", "attack", 3),)
    assert searched[live]["games"] > 0 and len(searched) > 1
    assert max(_edits(moves, live) for moves in searched) == 1
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'data-testid="live-patch"' in page and "<strong>Live 1.1</strong>" in page
    assert "Ember Pup: attack 2 → 3" in page
    assert "differs from the patch it starts from in at most 1 place." in page


@pytest.mark.parametrize(("live_patch", "message"), [
    ({"name": "far", "changes": [{"card": "T-M01", "field": "attack", "value": 9}]},
     "is not one a search makes"),
    ({"name": "many", "changes": [{"card": "T-M01", "field": "attack", "value": 3},
                                  {"card": "T-M03", "field": "cost", "value": 3},
                                  {"card": "T-H01", "field": "hp", "value": 21}]},
     "makes 3 changes and the search may make 2"),
    ({"name": "gone", "changes": [{"card": "T-Z99", "field": "cost", "value": 1}]}, "T-Z99"),
])
def test_a_live_patch_the_search_cannot_start_from_is_a_400_naming_it(api, live_patch,
                                                                      message):
    bad = api.post("/api/balance-searches/", {**BODY, "live_patch": live_patch}, format="json")
    assert bad.status_code == 400 and message in str(bad.json()["live_patch"]), bad.json()
    assert not BalanceJob.objects.exists()


@pytest.mark.parametrize(("extra", "message"), [
    ({"max_edits": 1}, "give a live patch"),
    ({"max_edits": 0, "live_patch": LIVE}, "Give at most 1 to 12 edits"),
])
def test_a_cap_on_edits_needs_a_patch_to_start_from(api, extra, message):
    bad = api.post("/api/balance-searches/", {**BODY, **extra}, format="json")
    assert bad.status_code == 400 and message in str(bad.json()["max_edits"]), bad.json()
    assert not BalanceJob.objects.exists()


def test_the_form_takes_a_live_patch_and_says_what_is_wrong_with_one(client, alice, catalogue):
    client.force_login(alice)
    form = {"decks": [DAWN, DUSK], "agent": "greedy", "objective": "band", "band_low": 45,
            "band_high": 55, "field_band_low": 47, "field_band_high": 53,
            "matchup_band_low": 30, "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5,
            "max_changes": 2, "fields": ["cost", "attack", "hp"],
            "allowed_cards": ",".join(TINY["allowed_cards"]), "budget_games": 2000,
            "verify_games": 100, "seed": 5}
    assert b'name="live_patch"' in client.get(reverse("balance:new")).content
    bad = client.post(reverse("balance:new"), {**form, "live_patch": "{not json"})
    assert bad.status_code == 400 and b"Give a balance patch as JSON" in bad.content
    far = client.post(reverse("balance:new"), {**form, "live_patch": json.dumps(
        {"name": "far", "changes": [{"card": "T-M01", "field": "attack", "value": 9}]})})
    assert far.status_code == 400 and b"is not one a search makes" in far.content
    alone = client.post(reverse("balance:new"), {**form, "max_edits": 1})
    assert alone.status_code == 400 and b"give a live patch" in alone.content
    made = client.post(reverse("balance:new"), {**form, "live_patch": json.dumps(LIVE),
                                                "max_edits": 1})
    assert made.status_code == 302
    job = BalanceJob.objects.get(owner=alice)
    assert job.live_patch["changes"] == LIVE["changes"] and job.max_edits == 1
