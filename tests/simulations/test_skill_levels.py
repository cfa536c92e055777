"""Which level of play a win rate stands for: every page that shows one names the agent, its
level of play (data in the agent registry) and its AI ladder rating, and a round-robin's meta
can be put beside the same field played by another agent, naming the decks whose verdict
differs."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.html import escape

from cards.game_words import game_word
from rules.ai.agents import AGENTS, SKILLS
from rules.ai.ratings import LADDER_FILE, strength_table
from simulations.agents.skill import (
    NOT_SAME_FIELD,
    played_by,
    skill_comparison,
    skill_phrase,
    verdict,
)
from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


def ladder_elo(agent: str) -> int:
    return round(next(r["elo"] for r in strength_table(LADDER_FILE)["ratings"]
                      if r["name"] == agent))


def test_every_agent_names_its_level_of_play_in_both_languages():
    for spec in AGENTS:
        assert spec.skill in SKILLS, spec.name
    assert game_word("agent_skill", "greedy", lang="en") == "casual play"
    assert game_word("agent_skill", "planner", lang="en") == "skilled play"
    assert game_word("agent_skill", "planner", lang="zh") == "高手水平"
    assert game_word("skill", "casual", lang="zh") == "休闲水平"


def test_a_level_of_play_carries_the_ladders_rating():
    with translation.override("en"):
        assert skill_phrase("planner") == (
            f"skilled play, {ladder_elo('planner'):,} Elo on the AI ladder")
        assert played_by("greedy", "greedy") == (
            f"greedy vs greedy: casual play, {ladder_elo('greedy'):,} Elo on the AI ladder")
        assert played_by("planner", "greedy").startswith("planner (skilled play, ")
    with translation.override("zh-hans"):
        assert skill_phrase("greedy").startswith("休闲水平，AI 天梯")


def report(rates: list[float], shares: list[float]) -> dict:
    return {"field_rates": [{"rate": r, "low": r - 0.03, "high": r + 0.03} for r in rates],
            "relaxed": {"shares": shares}}


def test_verdicts_follow_the_healthy_field_rate():
    assert [verdict(r) for r in (0.46, 0.47, 0.5, 0.53, 0.531, None)] == [
        "weak", "fine", "fine", "fine", "dominant", None]


def test_the_decks_whose_verdict_differs_are_named_with_each_side_and_rate():
    names = ["Dawn Crusade", "Tidewall", "Ember"]
    casual = report([0.509, 0.49, 0.50], [0.3, 0.3, 0.4])
    skilled = report([0.602, 0.421, 0.477], [1.0, 0.0, 0.0])
    with translation.override("en"):
        out = skill_comparison(names, [("greedy", casual), ("planner", skilled)])
    assert [row["differs"] for row in out["rows"]] == [True, True, False]
    assert out["sentences"] == [
        "Dawn Crusade: fine for casual play (greedy): 50.9 % against the field, dominant for "
        "skilled play (planner): 60.2 % against the field.",
        "Tidewall: fine for casual play (greedy): 49.0 % against the field, weak for skilled "
        "play (planner): 42.1 % against the field."]
    assert [a["name"] for a in out["agents"]] == ["greedy", "planner"]


@pytest.fixture
def two_agents(alice, make_deck):
    """One field played twice: greedy on both sides, and random on both sides."""
    deck = make_deck(alice, name="Ember Test")
    runs = []
    for agent in ("greedy", "random"):
        run = simulation_request(user=alice, kind="round_robin",
                                 deck_specs=[deck.uid, DAWN, DUSK], games=20, agent_a=agent,
                                 agent_b=agent, seed=5, chunk_size=10)
        play_all(run)
        runs.append(run)
    return runs


@pytest.mark.django_db
def test_a_run_page_says_who_played_and_what_that_stands_for(client, alice, two_agents):
    client.force_login(alice)
    greedy, _random = two_agents
    page = client.get(greedy.get_absolute_url()).content.decode()
    phrase = escape(f"casual play, {ladder_elo('greedy'):,} Elo on the AI ladder")
    assert re.search(r'data-testid="run-skill">' + re.escape(phrase), page)
    assert "Played by greedy vs greedy: " + phrase in page
    page = client.get(greedy.get_absolute_url(), **ZH).content.decode()
    assert "休闲水平，AI 天梯" in page


@pytest.mark.django_db
def test_a_round_robin_puts_its_meta_beside_the_same_field_under_another_agent(
        client, alice, two_agents):
    client.force_login(alice)
    greedy, random_run = two_agents
    page = client.get(greedy.get_absolute_url()).content.decode()
    assert f'href="?versus={random_run.uid}#skill"' in page     # offered, not yet shown
    assert 'data-testid="skill-table"' not in page
    page = client.get(f"{greedy.get_absolute_url()}?versus={random_run.uid}").content.decode()
    table = re.search(r'data-testid="skill-table">.*?</table>', page, re.S).group(0)
    assert "Greedy" in table and "Random" in table and "random play" in table
    assert table.count("<tr") == 2 + 3     # two heading rows, one row per deck
    assert 'data-testid="skill-verdicts"' in page
    # only a run of the same field is compared: anything else is the reader's error
    response = client.get(f"{greedy.get_absolute_url()}?versus={greedy.uid}")
    assert response.status_code == 400
    assert escape(str(NOT_SAME_FIELD)) in response.content.decode()
