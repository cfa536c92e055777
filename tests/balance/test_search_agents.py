"""One balance search for several levels of play, as its users meet it: the command's
``--agents``, the API's ``agents`` and the form's second agent, refusals that name the input to
fix (an unknown agent, one listed twice, a budget the further agent cannot search with: the
least it needs), a job whose further agent's games fan out as pieces, and the job's page with
the field under both agents side by side."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from balance import runner
from balance.models import BalanceJob, JobBlock, JobPiece
from balance.pieces import piece_sizes, pieces_post
from balance.search.problem import BalanceCodec, block_key
from balance.search.services import (
    AGENT_TWICE,
    AGENTS_NEED_META,
    STRONG_BUDGET_SHORT,
    UNKNOWN_AGENT,
    balance_job_request,
)
from rules.ai.agents import AGENT_NAMES
from rules.lab.balance_search import EvalTask, Field
from rules.lab.balance_search.strong import least_strong_budget
from tests.balance.conftest import DAWN, DUSK
from tests.balance.test_meta_objective import THREE, api, meta_body, third  # noqa: F401

TINY_TWO = [*THREE, "--agents", "greedy,random", "--budget-games", "3000", "--verify-games",
            "100", "--strong-budget-games", "2000", "--strong-verify-games", "100", "--cards",
            "H01,H04,H05", "--fields", "hp", "--max-changes", "2", "--processes", "1", "--seed",
            "4", "--field-band", "45-55"]


@pytest.mark.parametrize(("options", "words"), [
    (["--agents", "greedy,wizard"], "--agents: unknown agent 'wizard'"),
    (["--agents", "greedy,greedy"], "--agents: 'greedy' is listed twice"),
    (["--agents", "greedy,planner", "--objective", "band"],
     "--agents: checking a patch under several agents needs the meta objective"),
    (["--agents", "greedy,planner", "--strong-budget-games", "500"],
     f"--strong-budget-games: planner need at least {least_strong_budget(3):,} games"),
])
def test_the_command_refuses_agents_it_cannot_search_with_naming_the_option(options, words):
    with pytest.raises(CommandError) as caught:
        call_command("balance_search", *THREE, *options)
    assert words in str(caught.value)


def test_the_command_holds_the_meta_under_every_listed_agent(tmp_path):
    """greedy and random play at one pace, so the first listed screens and races; random checks
    the finalists and the picks on its own games, and the report and the JSON give the field
    under each."""
    stdout, out = StringIO(), tmp_path / "patch.json"
    call_command("balance_search", *TINY_TWO, "--out", str(out), "--json", stdout=stdout)
    report = json.loads(stdout.getvalue())
    assert report["agents"] == ["greedy", "random"]
    assert 0 < report["strong_games_searched"] <= 2000 + 50 * 3 * 2
    assert report["strong_games_verified"] >= 100 * 3
    under = report["baseline"]["agents"]["random"]
    assert under["meta_report"]["decks"] == ["Ember Rush", "Tidewall", "Gravecallers"]
    assert {row["agent"] for row in report["replay"]} == {"random", "greedy"}
    text = StringIO()
    call_command("balance_search", *TINY_TWO, stdout=text)
    assert "(greedy, random agents)" in text.getvalue()
    assert "unpatched, under random: matchups" in text.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(("extra", "field", "message"), [
    ({"agents": ["greedy", "wizard"]}, "agents",
     UNKNOWN_AGENT.format(name="wizard", known=", ".join(AGENT_NAMES))),
    ({"agents": ["planner", "planner"]}, "agents", AGENT_TWICE.format(name="planner")),
    ({"agents": ["greedy", "planner"], "objective": "band"}, "agents", AGENTS_NEED_META),
    ({"agents": ["greedy", "planner"], "strong_budget_games": 1000}, "strong_budget_games",
     STRONG_BUDGET_SHORT.format(agents="planner", least=f"{least_strong_budget(3):,}",
                                decks=3)),
])
def test_the_api_refuses_agents_with_a_400_naming_the_field(api, third, extra, field,  # noqa: F811
                                                             message):
    response = api.post("/api/balance-searches/", meta_body(third, **extra), format="json")
    assert response.status_code == 400 and response.json() == {field: [str(message)]}
    assert not BalanceJob.objects.exists()


@pytest.mark.django_db
def test_the_api_searches_under_two_agents_and_the_page_puts_them_side_by_side(
        api, third, client, alice, settings):  # noqa: F811
    settings.BALANCE_PIECE_BLOCKS = 2
    response = api.post("/api/balance-searches/", meta_body(
        third, agents=["random", "greedy"], strong_budget_games=1500,
        strong_verify_games=100), format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["agents"] == ["random", "greedy"] and created["agent"] == "random"
    job = BalanceJob.objects.get(uid=created["uid"])
    assert job.further_agents == ["greedy"] and job.strong_budget_games == 1500
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    # the further agent's games went out as pieces, keyed apart from the first agent's
    played = [part for piece in JobPiece.objects.filter(job=job) for part in piece.task]
    assert {part["task"].get("agent", "") for part in played} == {"", "greedy"}
    assert JobBlock.objects.filter(job=job).count() == len(
        {(part["key"], part["first"] + i) for part in played for i in range(part["blocks"])})
    job.refresh_from_db()
    assert job.result["agents"] == ["random", "greedy"]
    assert job.result["baseline"]["agents"]["greedy"]["meta_report"]
    client.force_login(alice)
    page = client.get(job.get_absolute_url()).content.decode()
    assert re.search(r'data-testid="job-skill">random play, .*also held under greedy: casual '
                     r'play', page, re.S)
    view = re.search(r'data-testid="skill-view">.*?</section>', page, re.S).group(0)
    assert "The unpatched field for each level of play" in view
    assert 'data-testid="skill-table"' in view and "Greedy" in view and "Random" in view
    chinese = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "also held under" not in chinese and "休闲水平" in chinese
    assert job.result["roles"] == {"greedy": {"screened": "greedy", "raced": "greedy",
                                              "verified": "greedy"}}
    assert re.search(r'data-testid="search-roles">For greedy: changes screened by greedy, raced '
                     r'by greedy, verified by greedy', page)
    # the best patch's verdicts under each agent, before → after, side by side
    base = job.result["baseline"]
    after = json.loads(json.dumps(base))
    for report in (after["meta_report"], after["agents"]["greedy"]["meta_report"]):
        report["field_rates"][0] = {**report["field_rates"][0], "rate": 0.6}
    job.result = {**job.result, "best": {**after, "moves": [
        {"card": "H01", "field": "hp", "value": 30}]}}
    job.save(update_fields=["result"])
    page = client.get(job.get_absolute_url()).content.decode()
    verdicts = re.search(r'data-testid="verdict-view">.*?</section>', page, re.S).group(0)
    first = base["meta_report"]["field_rates"][0]["rate"]
    name = job.result["decks"][0]
    assert re.search(rf"{re.escape(name)}: \w+ → dominant for random play \(random\), "
                     rf"{first * 100:.1f} % → 60.0 %; .* → dominant for casual play \(greedy\)",
                     verdicts), verdicts


@pytest.mark.django_db
def test_the_form_takes_a_second_agent_and_refuses_the_same_one_twice(client, alice, third):  # noqa: F811
    client.force_login(alice)
    page = client.get(reverse("balance:new")).content.decode()
    assert 'name="strong_agent"' in page and 'name="strong_budget_games"' in page
    response = client.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK, third], "agent": "greedy", "strong_agent": "greedy",
        "objective": "meta", "band_low": 45, "band_high": 55, "field_band_low": 47,
        "field_band_high": 53, "matchup_band_low": 30, "matchup_band_high": 70,
        "epsilon": 0.5, "min_share": 5, "max_changes": 2, "fields": ["hp"],
        "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400
    assert response.context["form"].errors["strong_agent"] == [
        str(AGENT_TWICE.format(name="greedy"))]


@pytest.mark.django_db
def test_the_service_freezes_the_fastest_agent_first(alice, third):  # noqa: F811
    job = balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK, third],
                              agents=["planner", "greedy"], budget_games=2000,
                              verify_games=100, strong_budget_games=6000)
    assert job.agent == "greedy" and job.further_agents == ["planner"]
    assert job.strong_verify_games == 600


def test_a_task_keeps_its_key_unless_another_agent_plays_it():
    codec = BalanceCodec(Field(cards={}, decks=(), agent="greedy"))
    task = EvalTask((), 0, 1, 7, 0, 2)
    assert block_key(task) == block_key(EvalTask((), 0, 1, 7, 3, 1))   # blocks apart
    planner = EvalTask((), 0, 1, 7, 0, 2, "planner")
    assert block_key(planner) != block_key(task)
    assert codec.decode(codec.encode(planner)).agent == "planner"
    assert "agent" not in codec.encode(task) and codec.task_agent(task) == "greedy"


@pytest.mark.django_db
def test_a_batch_with_a_slow_agent_is_packed_at_its_pace(alice, third, settings):  # noqa: F811
    settings.BALANCE_PIECE_BLOCKS = 0
    job = balance_job_request(user=alice, objective="meta", deck_specs=[DAWN, DUSK, third],
                              agents=["greedy", "planner"], budget_games=2000,
                              verify_games=100, strong_budget_games=6000)
    codec = BalanceCodec(Field(cards={}, decks=(), agent="greedy"))
    tasks = [EvalTask((), 0, 1, 7, 0, 8), EvalTask((), 0, 1, 7, 0, 8, "planner")]
    batch = [(block_key(t), t, range(t.first, t.first + t.blocks)) for t in tasks]
    pieces_post(job, batch, set(), codec)
    sizes = [piece.blocks for piece in JobPiece.objects.filter(job=job)]
    assert sizes == piece_sizes("planner", 16, 50)
