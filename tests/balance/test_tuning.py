"""Deck tuning as its users meet it, played in this process (the service a worker calls,
without a broker): the job runs to re-verified suggestions spelt in card names, resumes after
its execution is lost without playing a stored block again, is refused with a 400 naming the
input, capped per user, private to its owner; a suggestion is saved as a new version of the
owner's deck or as a new deck of someone else's; the pages link it from the deck page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from balance import pieces, runner
from balance.models import BalanceJob, JobBlock, JobKind, JobPiece
from balance.services import BalanceInputError
from balance.tuning.services import NOT_KEPT, TOO_MANY_ACTIVE, tuning_job_request
from decks.drafts import Draft
from decks.models import Deck
from decks.selectors import deck_counts
from decks.services import deck_create
from decks.starters.selectors import starter_decks
from tests.balance.conftest import DAWN, DUSK
from work.models import WorkStatus
from work.reaper import work_reap

pytestmark = pytest.mark.django_db

TINY = {"field_specs": [DUSK], "agent": "greedy", "max_swaps": 1, "budget_games": 2_000,
        "verify_games": 100, "seed": 7}
BODY = {"field": [DUSK], "agent": "greedy", "max_swaps": 1, "budget_games": 2000,
        "verify_games": 100, "seed": 7}


@pytest.fixture
def dawn_deck(alice, catalogue):
    """Alice's own copy of the Dawn Test starter deck."""
    starter = next(d for d in starter_decks() if d.name == "Dawn Test")
    return deck_create(owner=alice, draft=Draft(name="My Dawn", hero=starter.hero,
                                                cards=dict(starter.cards)))


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def run(job: BalanceJob) -> BalanceJob:
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    job.refresh_from_db()
    return job


def test_a_tuning_runs_to_verified_suggestions_in_card_names(alice, dawn_deck, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    job = run(tuning_job_request(user=alice, deck_spec=dawn_deck.uid, **TINY))
    assert job.kind == JobKind.TUNING and job.status == WorkStatus.DONE
    assert job.games_played == JobBlock.objects.filter(job=job).count() * 50
    result = job.result
    assert result["baseline"]["games"] == 100                 # fresh seeds, the unchanged deck
    assert result["suggestions"], result["searched"]
    best = result["suggestions"][0]
    assert best["improvement"]["games"] == 100 and 0 <= best["improvement"]["p_value"] <= 1
    assert best["verified"]["rate"] > 0
    client = APIClient()
    client.force_authenticate(alice)
    data = client.get(f"/api/deck-tunings/{job.uid}/").json()
    line = data["result"]["suggestions"][0]["diff"][0]
    names = {c["name_en"] for c in job.cards.values()}
    assert line["out_name"] in names and line["into_name"] in names
    changes = data["result"]["suggestions"][0]["changes"]      # the net change, card by card
    before, after = job.decks[0]["cards"], result["suggestions"][0]["deck"]["cards"]
    assert {c["code"]: c["copies"] for c in changes} == {
        code: after.get(code, 0) - before.get(code, 0) for code in {*before, *after}
        if after.get(code, 0) != before.get(code, 0)}
    assert all(c["name"] in names for c in changes)
    assert data["progress"]["percent"] == 100 and data["deck"]["name"] == "My Dawn"
    assert client.get("/api/balance-searches/").json()["results"] == []   # kinds apart


def test_a_lost_execution_resumes_from_the_stored_blocks(alice, catalogue, monkeypatch,
                                                         settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    whole = run(tuning_job_request(user=alice, deck_spec=DAWN, **TINY))
    job = tuning_job_request(user=alice, deck_spec=DAWN, **TINY)
    real_store = pieces.piece_store
    calls = {"n": 0}

    def killed_after_three_pieces(piece, claim, results, codec):
        calls["n"] += 1
        if calls["n"] > 3:
            raise SystemExit("the worker process was killed")
        return real_store(piece, claim, results, codec)

    monkeypatch.setattr(pieces, "piece_store", killed_after_three_pieces)
    with pytest.raises(SystemExit):
        runner.job_execute(job_id=job.pk, claim="first", worker="victim@host")
    monkeypatch.setattr(pieces, "piece_store", real_store)
    assert 0 < JobBlock.objects.filter(job=job).count() < JobBlock.objects.filter(
        job=whole).count()
    gone = timezone.now() - timedelta(seconds=1)       # the job's and its piece's leases
    BalanceJob.objects.filter(pk=job.pk).update(lease_until=gone)
    JobPiece.objects.filter(job=job, state="running").update(lease_until=gone)
    assert work_reap()["lease expired"] == 2
    assert BalanceJob.objects.get(pk=job.pk).status == "queued"   # waits for its turn again
    job = run(job)
    assert job.result == whole.result                      # the same search, resumed
    assert job.games_played == whole.games_played          # no block played twice
    assert job.attempts == 2


def test_save_as_a_new_version_for_the_owner_and_a_new_deck_for_others(
        api, alice, bob, dawn_deck, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    job = run(tuning_job_request(user=alice, deck_spec=dawn_deck.uid, is_public=True, **TINY))
    suggestion = job.result["suggestions"][0]
    versions = dawn_deck.versions.count()
    saved = api.post(f"/api/deck-tunings/{job.uid}/suggestions/0/save/")
    assert saved.status_code == 201, saved.json()
    assert saved.json()["new_version"] is True and saved.json()["deck"] == dawn_deck.uid
    dawn_deck.refresh_from_db()
    assert dawn_deck.versions.count() == versions + 1
    assert deck_counts(dawn_deck) == suggestion["deck"]["cards"]

    other = APIClient()
    other.force_authenticate(bob)
    theirs = other.post(f"/api/deck-tunings/{job.uid}/suggestions/0/save/")
    assert theirs.status_code == 201 and theirs.json()["new_version"] is False
    copy = Deck.objects.get(uid=theirs.json()["deck"])
    assert copy.owner == bob and copy.visibility == "private"
    assert deck_counts(copy) == suggestion["deck"]["cards"]
    assert api.post(f"/api/deck-tunings/{job.uid}/suggestions/9/save/").status_code == 400
    assert APIClient().post(f"/api/deck-tunings/{job.uid}/suggestions/0/save/"
                            ).status_code in (401, 403)


def test_bad_input_is_a_400_naming_the_field(api, dawn_deck):
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": "nope"}, format="json")
    assert bad.status_code == 400 and "deck" in bad.json()
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "keep": ["T-M12"]},
                   format="json")
    assert bad.status_code == 400 and bad.json()["keep"] == [NOT_KEPT.format(codes="T-M12")]
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "budget_games": 5},
                   format="json")
    assert bad.status_code == 400 and "budget_games" in bad.json()
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "field": [DAWN]},
                   format="json")
    assert bad.status_code == 400 and "field" in bad.json()      # nothing but itself
    illegal = Deck.objects.get(pk=dawn_deck.pk)
    illegal.entries.filter(card__code="T-M01").delete()           # 27 cards
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": dawn_deck.uid}, format="json")
    assert bad.status_code == 400 and "not legal" in bad.json()["deck"][0]
    chinese = api.post("/api/deck-tunings/", {**BODY, "deck": dawn_deck.uid}, format="json",
                       HTTP_ACCEPT_LANGUAGE="zh-hans").json()["deck"][0]
    assert "卡组有 27 张卡" in chinese and "cards" not in chinese    # every word in Chinese


def test_one_tuning_in_flight_per_user_private_then_cancel(api, bob):
    first = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN}, format="json")
    assert first.status_code == 201, first.json()
    uid = first.json()["uid"]
    second = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN}, format="json")
    assert second.status_code == 400
    assert second.json()["non_field_errors"] == [TOO_MANY_ACTIVE.format(count=1, limit=1)]
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get(f"/api/deck-tunings/{uid}/").status_code == 404
    assert api.get(f"/api/balance-searches/{uid}/").status_code == 404   # not a search
    BalanceJob.objects.filter(uid=uid).update(is_public=True)
    assert other.post(f"/api/deck-tunings/{uid}/cancel/").status_code == 403
    cancelled = api.post(f"/api/deck-tunings/{uid}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert api.get("/api/deck-tunings/?mine=1").json()["results"][0]["uid"] == uid


def test_the_pages_from_the_deck_page_to_a_saved_version(client, alice, dawn_deck, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    client.force_login(alice)
    deck_page = client.get(dawn_deck.get_absolute_url())
    tune_url = reverse("balance:tune-new") + f"?deck={dawn_deck.uid}"
    assert tune_url.encode() in deck_page.content.replace(b"&amp;", b"&")
    form = client.get(tune_url)
    assert form.status_code == 200 and b"Cards to keep" in form.content
    response = client.post(reverse("balance:tune-new"), {
        "deck": dawn_deck.uid, "field": [DUSK], "agent": "greedy", "keep": ["T-M01"],
        "max_swaps": 1, "budget_games": 2000, "verify_games": 100, "seed": 7})
    assert response.status_code == 302, response.content.decode()[:3000]
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.TUNING)
    assert job.tuning["keep"] == ["T-M01"]
    fragment = client.get(reverse("balance:tune-progress", args=[job.uid]))
    assert b"Waiting for a worker" in fragment.content and b"hx-get" in fragment.content
    job = run(job)
    page = client.get(job.get_absolute_url())
    assert page.status_code == 200 and b'data-testid="suggestion"' in page.content
    assert b"Save as a new version" in page.content and b"McNemar" in page.content
    # The progress box sums up the first suggestion as its table shows it (fresh games).
    text = page.content.decode()
    summary = re.search(r'data-testid="best">(.*?)</p>', text, re.S).group(1)
    first = re.search(r'data-testid="improvement">Field win rate <strong>([0-9.]+ %)', text)
    base = re.search(r'data-testid="baseline">.*?<strong>([0-9.]+ %)</strong>', text, re.S)
    assert "Best verified" in summary and "fresh games" in summary, summary
    assert f"field win rate {first.group(1)} against {base.group(1)} unchanged" in summary
    # Finished while a page watched it: its next poll reloads the page, which shows the
    # suggestions themselves.
    polled = client.get(reverse("balance:tune-progress", args=[job.uid]), HTTP_HX_REQUEST="true")
    assert polled["HX-Refresh"] == "true"
    # A p-value too small to print reads "p < 0.0001", never "p = < 0.0001".
    result = dict(job.result)
    result["suggestions"][0]["improvement"]["p_value"] = 3e-9
    BalanceJob.objects.filter(pk=job.pk).update(result=result)
    tiny = client.get(job.get_absolute_url()).content.decode()
    assert "McNemar p &lt; 0.0001 (" in tiny and "p = &lt;" not in tiny
    saved = client.post(reverse("balance:tune-save", args=[job.uid, 0]))
    assert saved.status_code == 302 and saved.url == dawn_deck.get_absolute_url()
    assert job.label.encode() in client.get(reverse("balance:tune-list") + "?mine=1").content
    bad = client.post(reverse("balance:tune-new"), {
        "deck": dawn_deck.uid, "agent": "greedy", "max_swaps": 9, "budget_games": 2000,
        "verify_games": 100})
    assert bad.status_code == 400


def test_the_tuning_pages_are_chinese_for_a_chinese_browser(client, alice, catalogue, settings):
    from tests.test_chinese_pages import ZH, english_words

    settings.BALANCE_PIECE_BLOCKS = 2
    starter = next(d for d in starter_decks() if d.name == "Dawn Test")
    deck = deck_create(owner=alice, draft=Draft(name="我的卡组", hero=starter.hero,
                                                cards=dict(starter.cards)))
    job = run(tuning_job_request(user=alice, deck_spec=deck.uid, **TINY))
    client.force_login(alice)
    for url in (reverse("balance:tune-new") + f"?deck={deck.uid}", reverse("balance:tune-new"),
                job.get_absolute_url(), reverse("balance:tune-progress", args=[job.uid]),
                reverse("balance:tune-list"), deck.get_absolute_url()):
        response = client.get(url, **ZH)
        assert response.status_code == 200, url
        found = [w for w in english_words(response.content.decode()) if "alice" not in w]
        assert found == [], (url, found)


def test_a_gauntlet_runs_decks_are_the_field(alice, catalogue):
    from simulations.services import simulation_request

    gauntlet = simulation_request(user=alice, kind="gauntlet", deck_specs=[DUSK, DAWN],
                                  games=10, agent_a="greedy", agent_b="greedy", seed=1)
    job = tuning_job_request(user=alice, deck_spec=DAWN, gauntlet=gauntlet.uid,
                             **{**TINY, "field_specs": []})
    assert [d["name"] for d in job.decks] == ["Dawn Test", "Dusk Test"]   # not itself
    assert job.tuning["gauntlet"] == gauntlet.uid
    with pytest.raises(BalanceInputError) as caught:
        tuning_job_request(user=alice, deck_spec=DUSK, gauntlet="nope",
                           **{**TINY, "field_specs": []})
    assert caught.value.field == "gauntlet"


def test_a_starter_decks_page_links_its_tuning_and_the_form_opens_on_it(client, alice,
                                                                         catalogue):
    from urllib.parse import quote

    starter = next(d for d in starter_decks() if d.name == "Dawn Test")
    client.force_login(alice)
    page = client.get(starter.get_absolute_url())
    link = reverse("balance:tune-new") + "?deck=" + quote(starter.spec)
    assert link.encode() in page.content
    form = client.get(link)
    assert form.status_code == 200 and b"Dawn Test" in form.content
    assert b"Cards to keep" in form.content


def test_the_fields_meta_names_its_decks_in_the_readers_language(alice, catalogue):
    """The search stored the starter decks' English names in the field's meta; the page
    names them as the job's frozen decks do, in the reader's language."""
    from django.utils import translation

    from balance.tuning.selectors import tuning_field_named

    job = tuning_job_request(user=alice, deck_spec=DAWN, **TINY)
    field = {"decks": [d["name"] for d in job.decks], "other": 1}
    with translation.override("zh-hans"):
        named = tuning_field_named(job, field)
    assert named["other"] == 1 and "Dusk Test" in field["decks"]
    assert "Dusk Test" not in named["decks"] and "暮色测试" in named["decks"]


def test_a_tuning_plays_a_patched_pool_against_a_weighted_field(api, alice, catalogue):
    patch = {"name": "Boar +2", "changes": [{"card": "T-M02", "field": "attack", "value": 5}]}
    made = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "shares": [2],
                                           "patch": patch}, format="json")
    assert made.status_code == 201, made.json()
    data = made.json()
    assert data["shares"] == [2.0]
    assert data["patch"]["name"] == "Boar +2" and data["patch"]["diff"][0]["new"] == 5
    job = BalanceJob.objects.get(uid=data["uid"])
    assert job.cards["T-M02"]["attack"] == 5                     # the pool as patched
    job = run(job)
    assert job.result["shares"] == [1.0]
    BalanceJob.objects.filter(pk=job.pk).delete()                # one tuning in flight
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "shares": [1, 1]},
                   format="json")
    assert bad.status_code == 400 and "shares" in bad.json()
    bad = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN, "patch": {
        "name": "x", "changes": [{"card": "T-M02", "field": "attack", "value": -3}]}},
        format="json")
    assert bad.status_code == 400 and "patch" in bad.json()


def test_the_form_takes_play_shares_and_a_patch(client, alice, dawn_deck):
    client.force_login(alice)
    form = client.get(reverse("balance:tune-new") + f"?deck={dawn_deck.uid}")
    assert b"Play shares" in form.content and b"Balance patch (JSON)" in form.content
    base = {"deck": dawn_deck.uid, "field": [DUSK], "agent": "greedy", "max_swaps": 1,
            "budget_games": 2000, "verify_games": 100, "seed": 7}
    bad = client.post(reverse("balance:tune-new"), {**base, "shares": "a,b"})
    assert bad.status_code == 400 and b"separated by commas" in bad.content
    bad = client.post(reverse("balance:tune-new"), {**base, "shares": "1,2"})
    assert bad.status_code == 400 and b"each of the field" in bad.content
    bad = client.post(reverse("balance:tune-new"), {**base, "patch": "[1]"})
    assert bad.status_code == 400 and b"balance patch as JSON" in bad.content
    patch = '{"name": "Boar +2", "changes": [{"card": "T-M02", "field": "attack", "value": 5}]}'
    made = client.post(reverse("balance:tune-new"), {**base, "shares": "3", "patch": patch})
    assert made.status_code == 302, made.content.decode()[:2000]
    job = BalanceJob.objects.get(owner=alice, kind=JobKind.TUNING)
    assert job.tuning["shares"] == [3.0] and job.cards["T-M02"]["attack"] == 5
    chinese = client.get(reverse("balance:tune-new") + f"?deck={dawn_deck.uid}",
                         HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "出场占比" in chinese and "平衡补丁（JSON）" in chinese
    assert "留空：按卡牌目录现状" in chinese
