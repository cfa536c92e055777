"""A patched round-robin's meta view names each deck's verdict under each agent before → after
the patch, side by side, as the balance search's page does (``verdict_changes``, one
implementation): "before" from the unpatched field's round-robins, "after" from this run and
the same patched field under other agents, and — for a round-robin a balance search opened —
what the search verified for the agents no run played."""

from __future__ import annotations

import re

import pytest

from balance.models import BalanceJob, JobKind
from balance.search.front import verified_metas
from balance.search.services import balance_candidate_run
from simulations.agents.skill import unpatched_field_runs
from simulations.models import SimulationRun
from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db

PUP = {"name": "Pup +1", "changes": [{"card": "T-M01", "field": "attack", "value": 3}]}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


@pytest.fixture
def field(alice, make_deck, catalogue):
    return [make_deck(alice, name="Ember Test").uid, DAWN, DUSK]


def _run(user, specs, agent="greedy", patch=None, **extra):
    run = simulation_request(user=user, kind="round_robin", deck_specs=specs, games=20,
                             agent_a=agent, agent_b=agent, seed=5, chunk_size=10, patch=patch,
                             **extra)
    play_all(run)
    run.refresh_from_db()
    return run


def _view(page: str) -> str:
    found = re.search(r'data-testid="verdict-view">.*?</section>', page, re.S)
    return found.group(0) if found else ""


def _rates(client, run) -> list[str]:
    """The field win rates the run's own ranking shows, as the page writes them."""
    page = client.get(run.get_absolute_url()).content.decode()
    table = re.search(r'<table class="ranking">.*?</table>', page, re.S).group(0)
    return re.findall(r"<strong>([\d.]+ %)</strong>", table)


def test_a_patched_field_names_each_verdict_before_and_after_under_each_agent(
        client, alice, field):
    client.force_login(alice)
    patched = _run(alice, field, patch=PUP)
    # with nothing unpatched to compare with, the page says nothing of it
    assert _view(client.get(patched.get_absolute_url()).content.decode()) == ""
    plain = _run(alice, field)
    assert unpatched_field_runs(patched, SimulationRun.objects.all()) == [plain]
    page = client.get(patched.get_absolute_url()).content.decode()
    view = _view(page)
    assert "before → after the patch" in view
    # one sentence a deck: its verdict for casual play, its rate unpatched → patched
    sentences = re.findall(r"<li>(.*?)</li>", view)
    assert len(sentences) == 3
    before, after = _rates(client, plain), _rates(client, patched)
    assert all(re.search(r"(dominant|fine|weak)( → (dominant|fine|weak))? for casual play "
                         r"\(greedy\), [\d.]+ % → [\d.]+ %\.$", s) for s in sentences), sentences
    # each deck's rate unpatched (the plain run's) and patched (this run's)
    assert all(f"{rate} →" in view for rate in before), (before, view)
    assert all(f"→ {rate}" in view for rate in after), (after, view)
    assert f'href="{plain.get_absolute_url()}"' in view
    table = re.search(r'data-testid="verdict-table">.*?</table>', view, re.S).group(0)
    assert table.count("<tr") == 2 + 3
    # a second agent played both fields: its verdicts stand beside greedy's
    _run(alice, field, agent="random", patch=PUP)
    _run(alice, field, agent="random")
    view = _view(client.get(patched.get_absolute_url()).content.decode())
    assert all("for casual play (greedy)" in s and "for random play (random)" in s
               for s in re.findall(r"<li>(.*?)</li>", view))
    chinese = _view(client.get(patched.get_absolute_url(), **ZH).content.decode())
    assert "休闲水平" in chinese and "for casual play" not in chinese


def test_an_unpatched_run_of_other_cards_or_decks_is_no_baseline(client, alice, field):
    patched = _run(alice, field, patch=PUP)
    _run(alice, field[:1] + field[2:] + field[1:2])        # the decks in another order
    _run(alice, field, patch={"name": "Other", "changes": [
        {"card": "T-M01", "field": "attack", "value": 4}]})
    assert unpatched_field_runs(patched, SimulationRun.objects.all()) == []
    client.force_login(alice)
    assert _view(client.get(patched.get_absolute_url()).content.decode()) == ""


def _meta(rates):
    return {"field_rates": [{"rate": r, "low": r - 0.02, "high": r + 0.02} for r in rates]}


def test_a_round_robin_a_search_opened_compares_with_what_the_search_verified(
        client, alice, field):
    baseline = {"meta_report": _meta([0.60, 0.45, 0.45]),
                "agents": {"planner": {"meta_report": _meta([0.62, 0.40, 0.48])}}}
    row = {"meta_report": _meta([0.51, 0.50, 0.49]), "patch": PUP,
           "agents": {"planner": {"meta_report": _meta([0.52, 0.47, 0.51])}}}
    metas = verified_metas("greedy", baseline, row)
    assert set(metas["before"]) == set(metas["after"]) == {"greedy", "planner"}
    assert verified_metas("greedy", {}, row) is None
    # a finished search of this field (its frozen decks and cards, as a search keeps them)
    plain = _run(alice, field)
    job = BalanceJob.objects.create(
        kind=JobKind.BALANCE, owner=alice, label="search", decks=plain.decks, cards=plain.cards,
        card_data_version=plain.card_data_version, agent="greedy", budget_games=1, seed=5,
        verify_games=20, result={"baseline": baseline, "front": [row]})
    plain.delete()      # no round-robin of the unpatched field: the search's figures stand in
    run = balance_candidate_run(job=job, index=0, user=alice)
    play_all(run)
    assert run.search_metas == metas
    client.force_login(alice)
    view = _view(client.get(run.get_absolute_url()).content.decode())
    first = re.findall(r"<li>(.*?)</li>", view)[0]
    # greedy after: this run's own games; the planner: both as the search verified them
    assert re.search(r"dominant( → \w+)? for casual play \(greedy\), 60.0 % → [\d.]+ %; "
                     r"dominant → fine for skilled play \(planner\), 62.0 % → 52.0 %\.",
                     first), first
    searched = re.findall(r'data-testid="verdict-searched">(.*?)</p>', view)
    assert searched == ["Unpatched under greedy, planner: the field as the balance search that "
                        "opened this run verified it, on its own fresh seeds.",
                        "Patched under planner: as the balance search verified the patch, on "
                        "its own fresh seeds."], searched
    chinese = _view(client.get(run.get_absolute_url(), **ZH).content.decode())
    assert "高手水平（规划）：统治 → 正常，62.0% → 52.0%" in chinese, chinese
    assert "balance search" not in chinese and "平衡搜索" in chinese
