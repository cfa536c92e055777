"""The balance search's meta objective as its users meet it: the command's options and report,
the form (with values another page links to), the API, and the job's page with the meta of
the unpatched field and of every verified patch; refusals name the input to fix."""

from __future__ import annotations

import html
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.template.defaultfilters import floatformat
from django.urls import reverse
from rest_framework.test import APIClient

from balance import runner
from balance.kinds import job_games
from balance.models import BalanceJob, JobKind
from balance.search.cli import BUDGET_CAP, Clock, calibrated_budget
from balance.search.services import (
    BAD_EPSILON,
    BAD_FIELD_BAND,
    BAD_MATCHUP_BAND,
    BAD_MIN_SHARE,
    BAND_ORDER,
    BANDS_CONTRADICT,
    FEW_DECKS_META,
    balance_job_request,
)
from balance.services import BalanceInputError
from common.templatetags.site import pct
from decks.drafts import Draft
from decks.services import deck_create
from simulations.meta.view import meta_sentence
from tests.balance.conftest import DAWN, DUSK
from tests.fixtures import LEGAL_CARDS

THREE = ["--decks", "Ember Rush", "Tidewall", "Gravecallers"]
TINY_META = [*THREE, "--agent", "random", "--budget-games", "3000", "--verify-games", "100",
             "--cards", "H01,H04,H05", "--fields", "hp", "--max-changes", "2",
             "--processes", "1", "--seed", "4", "--field-band", "45-55"]


@pytest.mark.parametrize(("options", "words"), [
    (["--objective", "meta", "--decks", "Ember Rush", "Tidewall"],
     "--decks: the meta objective needs a field of at least three decks"),
    ([*THREE, "--field-band", "40-60", "--matchup-band", "45-55"],
     "--field-band: the field band 40–60 % reaches outside the matchup band 45–55 %"),
    ([*THREE, "--field-band", "53-47"], "--field-band: the low end must lie below the high end"),
    ([*THREE, "--field-band", "51-60"], "--field-band: the band must hold 50 %"),
    ([*THREE, "--matchup-band", "seventy"], "--matchup-band: give two percentages"),
    ([*THREE, "--epsilon", "0.5"], "--epsilon: give a share of win rate from 0 up to"),
    ([*THREE, "--min-share", "40"], "--min-share: give a share from 0 to 33.33 %"),
])
def test_the_command_refuses_an_impossible_meta_goal_naming_the_option(options, words):
    with pytest.raises(CommandError) as caught:
        call_command("balance_search", *options)
    assert words in str(caught.value)


@pytest.fixture(scope="module")
def meta_report_json(tmp_path_factory):
    out = tmp_path_factory.mktemp("meta") / "patch.json"
    stdout = StringIO()
    call_command("balance_search", *TINY_META, "--out", str(out), "--json", stdout=stdout)
    return json.loads(stdout.getvalue()), out


def test_the_command_searches_the_meta_by_default_and_reports_every_patchs_meta(
        meta_report_json):
    report, out = meta_report_json
    assert report["objective"]["objective"] == "meta"
    assert report["objective"]["field_band"] == [0.45, 0.55]
    for verified in [report["baseline"], *report["front"]]:
        meta = verified["meta_report"]
        assert meta["decks"] == ["Ember Rush", "Tidewall", "Gravecallers"]
        assert len(meta["field_rates"]) == 3 and len(meta["nash"]["shares"]) == 3
        assert "entropy_ratio" in meta["relaxed"] and len(meta["matchup_range"]) == 2
    assert report["best"] and json.loads(out.read_text())["changes"]


def test_the_text_report_shows_the_meta_of_each_verified_patch():
    stdout = StringIO()
    call_command("balance_search", *TINY_META, stdout=stdout)
    text = stdout.getvalue()
    assert "objective meta: every deck's field win rate in 45-55 %" in text
    assert "The meta of each verified patch" in text
    unpatched = text.split("  unpatched: matchups ")[1]
    assert "Ember Rush" in unpatched and "Nash" in unpatched and "ε-eq" in unpatched
    assert "Best verified patch" in text


# --- the site ---------------------------------------------------------------------------------



@pytest.fixture
def third(alice, catalogue):
    """A third deck for a field of three: Alice's own legal deck of the test set."""
    deck = deck_create(owner=alice, draft=Draft(name="Alice's Mix", hero="T-H02",
                                                cards=dict(LEGAL_CARDS)))
    return deck.uid


def meta_body(third_uid: str, **extra) -> dict:
    return {"decks": [DAWN, DUSK, third_uid], "agent": "random", "max_changes": 2,
            "budget_games": 2000, "verify_games": 100, "seed": 5,
            "allowed_cards": ["T-H01", "T-H02"], "fields": ["hp"], **extra}


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("extra", "field", "message"), [
    ({"objective": "meta", "decks": [DAWN, DUSK]}, "decks", FEW_DECKS_META),
    ({"field_band": [0.40, 0.60], "matchup_band": [0.45, 0.55]}, "field_band",
     BANDS_CONTRADICT.format(low="40", high="60", mlow="45", mhigh="55")),
    ({"field_band": [0.53, 0.47]}, "field_band", BAND_ORDER.format(low="53", high="47")),
    ({"field_band": [0.51, 0.60]}, "field_band", BAD_FIELD_BAND),
    ({"epsilon": 0.5}, "epsilon", BAD_EPSILON),
    ({"min_share": 0.5}, "min_share", BAD_MIN_SHARE.format(top="33.33", decks=3)),
])
def test_the_api_refuses_an_impossible_meta_goal_with_a_400_naming_the_field(
        api, third, extra, field, message):
    response = api.post("/api/balance-searches/", meta_body(third, **extra), format="json")
    assert response.status_code == 400 and response.json() == {field: [str(message)]}
    assert not BalanceJob.objects.exists()


@pytest.mark.django_db
def test_the_api_searches_the_meta_by_default_and_returns_its_figures(api, third, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    response = api.post("/api/balance-searches/", meta_body(third), format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["objective"] == "meta" and created["field_band"] == [0.47, 0.53]
    assert created["matchup_band"] == [0.3, 0.7] and created["min_share"] == 0.05
    job = BalanceJob.objects.get(uid=created["uid"])
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    data = api.get(f"/api/balance-searches/{job.uid}/").json()
    result = data["result"]
    assert result["objective"]["objective"] == "meta"
    assert result["baseline"]["meta_report"]["decks"] == ["Dawn Test", "Dusk Test",
                                                          "Alice's Mix"]
    assert all("meta" in row and "meta_report" in row for row in result["front"])
    schema = api.get("/api/schema/?format=json").json()
    body = schema["components"]["schemas"]["SearchInputRequest"]["properties"]
    assert {"objective", "field_band", "matchup_band", "epsilon", "min_share"} <= set(body)


@pytest.mark.django_db
def test_the_form_opens_with_a_linked_field_and_refuses_two_decks_for_the_meta(
        client, alice, catalogue):
    client.force_login(alice)
    page = client.get(reverse("balance:new") + f"?objective=band&decks={DAWN}&decks={DUSK}"
                      "&agent=random").content.decode()
    assert 'value="band" id="id_objective_1" required checked>' in page
    assert f'value="{DAWN}" class="opponent" id="id_decks_0_0" checked>' in page
    assert f'value="{DUSK}" class="opponent" id="id_decks_0_1" checked>' in page
    assert '<option value="random" selected>' in page
    plain = client.get(reverse("balance:new")).content.decode()
    assert 'value="meta" id="id_objective_0" required checked>' in plain     # the default
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK], "agent": "greedy", "objective": "meta", "band_low": 45,
        "band_high": 55, "field_band_low": 47, "field_band_high": 53, "matchup_band_low": 30,
        "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5, "max_changes": 2,
        "fields": ["hp"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400
    assert str(FEW_DECKS_META).encode() in response.content


@pytest.mark.django_db
def test_the_form_puts_a_contradiction_on_the_field_band(client, alice, catalogue, third):
    client.force_login(alice)
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK, third], "agent": "greedy", "objective": "meta", "band_low": 45,
        "band_high": 55, "field_band_low": 40, "field_band_high": 60, "matchup_band_low": 45,
        "matchup_band_high": 55, "epsilon": 0.5, "min_share": 5, "max_changes": 2,
        "fields": ["hp"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["field_band_low"] == [str(BANDS_CONTRADICT.format(
        low="40", high="60", mlow="45", mhigh="55"))]


@pytest.mark.django_db
def test_a_meta_search_page_shows_the_meta_unpatched_and_with_each_patch(
        client, alice, third, settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    job = balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK, third],
                              agent="random", max_changes=2, budget_games=2000,
                              verify_games=100, seed=5, fields=["hp"],
                              allowed_cards=["T-H01", "T-H02"])
    runner.job_execute(job_id=job.pk, claim="t", worker="test@host")
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert "Objective: <strong>a healthy meta</strong>" in page
    assert "The meta: unpatched and with each verified patch" in page
    assert "Smallest ε-equilibrium share" in page
    assert "Alice&#x27;s Mix" in page
    result = BalanceJob.objects.get(pk=job.pk).result
    for section_id, title, verified in (
            ("meta-unpatched", "The meta of the unpatched field", result["baseline"]),
            ("meta-best", "The meta with the best verified patch", result["best"])):
        section = re.search(rf'<section[^>]*data-testid="{section_id}">.*?</section>', page,
                            re.S).group(0)
        assert f">{title}</h2>" in section
        report = verified["meta_report"]
        assert section.count("<svg") == 2 and section.count('<th scope="row">') == 3
        sentence = re.search(r'data-testid="meta-sentence">(.*?)</p>', section, re.S).group(1)
        assert sentence == html.escape(meta_sentence(report), quote=True)
        low, high = report["matchup_range"]
        assert f"Single matchups run from {pct(low)} to {pct(high)}." in sentence
        assert "each matchup played its own seeds" in section
        assert 'data-testid="meta-evenness"' in section
        assert f"<strong>{floatformat(report['nash']['entropy_ratio'], 2)}</strong>" in section
    chinese = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Objective:" not in chinese and "Field win rate" not in chinese
    assert "Single matchups run from" not in chinese
    assert "The meta with the best verified patch" not in chinese


@pytest.mark.django_db
def test_the_front_says_which_patch_holds_with_room_for_a_fresh_check(client, alice, third,
                                                                      settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    job = balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK, third],
                              agent="random", max_changes=2, budget_games=2000,
                              verify_games=100, seed=5, fields=["hp"],
                              allowed_cards=["T-H01", "T-H02"])
    runner.job_execute(job_id=job.pk, claim="t", worker="test@host")
    job.refresh_from_db()
    client.force_login(alice)
    assert 'data-testid="holds"' not in client.get(job.get_absolute_url()).content.decode()
    assert job.result["front"], job.result
    job.result["front"][0].update(holds=True, games=4000)   # as a confirmed pick that holds
    job.save(update_fields=["result"])
    page = client.get(job.get_absolute_url()).content.decode()
    assert ("meets every target on 4000 games a matchup with room for a fresh check's "
            "noise") in page
    chinese = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'data-testid="holds"' in chinese and "fresh check" not in chinese


@pytest.mark.django_db
def test_the_service_refuses_a_meta_field_of_two(alice, catalogue):
    with pytest.raises(BalanceInputError) as caught:
        balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK],
                            budget_games=2000, verify_games=100)
    assert caught.value.field == "decks" and caught.value.message == FEW_DECKS_META


@pytest.mark.django_db
def test_the_command_on_the_workers_asks_for_the_objective_it_was_given(catalogue):
    two = ["--via-celery", "--no-wait", "--decks", "Dawn Test", "Dusk Test",
           "--budget-games", "2000", "--verify-games", "100"]
    with pytest.raises(CommandError) as caught:
        call_command("balance_search", *two)     # the meta objective, by default, needs three
    assert "--decks: the meta objective needs a field of at least three decks" in \
        str(caught.value)
    assert not BalanceJob.objects.exists()
    stdout = StringIO()
    call_command("balance_search", *two, "--objective", "band", "--band", "40-60",
                 stdout=stdout)
    job = BalanceJob.objects.get(uid=stdout.getvalue().strip())
    assert job.objective == "band" and (job.band_low, job.band_high) == (0.40, 0.60)


@pytest.mark.django_db
@pytest.mark.parametrize(("low", "high", "field", "message"), [
    (51, 60, "field_band_low", BAD_FIELD_BAND),
    (45, 49, "field_band_low", BAD_FIELD_BAND),
])
def test_the_form_refuses_a_field_band_without_fifty_on_the_field_band(
        client, alice, catalogue, third, low, high, field, message):
    client.force_login(alice)
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK, third], "agent": "greedy", "objective": "meta", "band_low": 45,
        "band_high": 55, "field_band_low": low, "field_band_high": high,
        "matchup_band_low": 30, "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5,
        "max_changes": 2, "fields": ["hp"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [str(message)]
    assert not BalanceJob.objects.exists()


@pytest.mark.django_db
def test_the_form_refuses_a_matchup_band_without_fifty_on_the_matchup_band(
        client, alice, catalogue, third):
    client.force_login(alice)
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK, third], "agent": "greedy", "objective": "meta", "band_low": 45,
        "band_high": 55, "field_band_low": 47, "field_band_high": 53,
        "matchup_band_low": 55, "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5,
        "max_changes": 2, "fields": ["hp"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400
    assert response.context["form"].errors["matchup_band_low"] == [str(BAD_MATCHUP_BAND)]


class InstantEvaluator:
    """Plays every block at once (an endlessly fast machine); counts the games it was asked."""

    def __init__(self):
        self.games = 0

    def evaluate(self, tasks):
        from rules.lab.balance_search import Tally

        self.games += sum(t.games for t in tasks)
        return [[Tally(wins=25, losses=25, pairs=(0, 25, 0))] * t.blocks for t in tasks]


def test_a_fast_machine_plays_at_most_the_budget_cap_and_keeps_time_for_two_patches():
    """The calibrated budget never exceeds BUDGET_CAP (a machine fast enough plays the same
    search as --budget-games 400000); the clock keeps time to verify the unpatched field and
    two patches on every matchup."""
    from rules.decks.cardset import CORE_SET, load_card_set
    from rules.lab.balance_search import Field, Problem, SearchSpace

    core = load_card_set(CORE_SET)
    field = Field(cards=core.cards, decks=tuple(core.decks.values()))
    problem = Problem(field=field, space=SearchSpace(cards=()), objective="meta")
    evaluator = InstantEvaluator()
    budget, rate = calibrated_budget(evaluator, problem, 10)
    # The cap alone proves the measured rate was high: the rate itself is a clock reading.
    assert budget == BUDGET_CAP == 400_000 and rate > 0
    assert 0 < evaluator.games <= 2_000        # the probe and its warm-up, thrown away
    assert Clock(10, problem).verify_games == 3 * 15 * 2_000


def test_the_cpu_cap_counts_a_meta_searchs_confirmations():
    """A meta search confirms a pick that meets on twice the games, so each verified pick may
    cost two verifications: the per-user CPU cap must count them (1 + 4 × 2, not 1 + 4)."""
    pairings = 6 * 5 // 2
    band = job_games(kind=JobKind.BALANCE, decks=6, budget_games=0, verify_games=2000)
    meta = job_games(kind=JobKind.BALANCE, decks=6, budget_games=0, verify_games=2000,
                     objective="meta")
    assert band == 2000 * pairings * 5
    assert meta == 2000 * pairings * 9


@pytest.mark.django_db
def test_a_finished_search_sums_up_the_verified_best_its_table_shows(client, alice, third,
                                                                    settings):
    """Once the search is done, the progress box says what the front table says of the best
    verified patch (its worst field win rate, figures outside, smallest ε-equilibrium share,
    games), not the search's estimate on fewer games; ε reads in points everywhere, and the
    games played past the budget are no longer "the round under way"."""
    settings.BALANCE_PIECE_BLOCKS = 2
    job = balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK, third],
                              agent="random", max_changes=2, budget_games=2000,
                              verify_games=100, seed=5, fields=["hp"],
                              allowed_cards=["T-H01", "T-H02"])
    runner.job_execute(job_id=job.pk, claim="t", worker="test@host")
    job.refresh_from_db()
    # The search's own estimate, as a search on few games may leave it: far from the truth.
    job.progress = {**job.progress, "best": {**job.result["best"], "outside": 9,
                                             "worst_distance": 0.01, "games": 50,
                                             "meta": {"field_worst": 0.01, "min_share": 0.3}},
                    "games": job.budget_games + 250}
    job.save(update_fields=["progress"])
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    best = job.result["best"]
    summary = re.search(r'data-testid="best">(.*?)</p>', page, re.S).group(1)
    shares = best["meta_report"]["relaxed"]["shares"]
    worst = round(best["worst_distance"] * 100)
    assert f"within ±{worst} % of 50 %" in summary, summary
    assert f"at least {pct(min(shares))} of the ε-equilibrium" in summary
    assert f"({best['games']} fresh games a matchup)" in summary
    assert f"{best['outside']} figure" in summary and "Best verified" in summary
    row = re.search(r'<tr class="best">(.*?)</tr>', page, re.S).group(1)
    assert f"±{worst} %" in row and f">{pct(min(shares))}<" in row
    objective = re.search(r'data-testid="objective">(.*?)</p>', page, re.S).group(1)
    assert "(ε = 0.5 points)" in objective and "0.005" not in page
    assert "250 more played to finish the last round" in page
    assert "round under way" not in page
