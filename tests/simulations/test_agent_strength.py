"""The AI players' strength table (page and API), read from the stored ladder result; every
run and sweep page names its agents and links it; the form and the API docs give the cost."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rules.ai.agents import AGENT_NAMES
from rules.ai.ratings import load_ladder, strength_table
from simulations.agents.strength import estimate_seconds, game_seconds_here, ladder_parts
from simulations.models import PaceCalibration
from simulations.run_costs import MEASURED_HERE
from simulations.services import simulation_request
from simulations.templatetags.simulations_extras import ms
from tests.simulations.helpers import DAWN, DUSK, play_all
from tests.simulations.test_sweeps import make_sweep

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_stored_ratings_with_intervals(client):
    table = strength_table()
    page = client.get("/simulations/agents/")
    assert page.status_code == 200
    html = page.content.decode()
    for rating in table["ratings"]:
        assert f'data-agent="{rating["name"]}"' in html
        if not rating["anchor"]:
            assert f"{rating['low']:.0f} – {rating['high']:.0f}" in html
    assert "python -m rules.lab.ladder --json --write" in html


def test_the_api_gives_ratings_rungs_and_costs():
    data = APIClient().get("/api/simulations/agents/").json()
    table = strength_table()
    assert [r["name"] for r in data["ratings"]] == [r["name"] for r in table["ratings"]]
    assert data["anchor"] == "random" and data["workers"] == 2
    planner = next(r for r in data["ratings"] if r["name"] == "planner")
    assert planner["title"] == "planner" and planner["low"] < planner["elo"] < planner["high"]
    assert planner["seconds_per_game"] > 0
    assert {(r["strong"], r["weak"]) for r in data["rungs"]} >= {("planner", "greedy"),
                                                                 ("planner", "search")}
    chinese = APIClient().get("/api/simulations/agents/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert next(r for r in chinese["ratings"] if r["name"] == "planner")["title"] != "planner"


def test_the_schema_documents_the_table_and_the_cost_of_each_agent():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert "/api/simulations/agents/" in schema["paths"]
    submit = schema["components"]["schemas"]["SubmitInputRequest"]["properties"]["agent_a"]
    assert "/api/simulations/agents/" in submit["description"]
    assert "planner" in submit["description"] and "workers" in submit["description"]


def test_the_estimate_is_the_costs_besides_the_games_and_the_chunks_each_process_plays(
        settings):
    settings.SIMULATIONS_WORKERS = 4
    seconds = estimate_seconds(agent_a="planner", agent_b="greedy", games=1000, chunks=40)
    per_game = sum(load_ladder()["planner-vs-greedy"]["cpu_seconds_per_game"].values())
    assert seconds == pytest.approx(MEASURED_HERE.start + MEASURED_HERE.finish
                                    + 10 * (MEASURED_HERE.chunk + per_game * 1000 / 40))
    assert estimate_seconds(agent_a="planner", agent_b="nobody", games=10) is None


def test_the_players_page_the_form_and_the_api_give_one_figure_for_a_game(alice, client):
    """A game with the agent in both seats, at this deployment's pace: never one seat's
    decisions on one page and both seats on another."""
    PaceCalibration.objects.create(host="w@h", games=10, wall_seconds=2.0, cpu_seconds=2.0,
                                   ladder_seconds=1.0, factor=2.0,
                                   agents={"planner": {"factor": 3.0}})
    here = game_seconds_here("planner", "planner")
    planner, _, rules = ladder_parts("planner", "planner")
    assert here == pytest.approx(planner * 3.0 * 2 + rules * 2.0)
    shown = ms(here)
    page = client.get("/simulations/agents/").content.decode()
    row = page[page.index('data-agent="planner"'):]
    assert f'<span data-testid="game-ms">{shown} ms</span>' in row[:row.index("</tr>")]
    client.force_login(alice)
    form = client.get("/simulations/new/")
    assert f"planner {shown} ms" in form.content.decode()
    assert form.context["estimate"]["games"]["planner"]["planner"] == pytest.approx(here)
    api = APIClient().get("/api/simulations/agents/").json()
    assert next(r for r in api["ratings"] if r["name"] == "planner")["game_seconds"] == \
        pytest.approx(here)


def test_the_form_offers_every_agent_with_its_cost(alice, client):
    client.force_login(alice)
    html = client.get("/simulations/new/").content.decode()
    for name in AGENT_NAMES:
        assert f'<option value="{name}"' in html
    assert "Planner (strong)" in html and "Time of one game" in html
    assert 'id="estimate-data"' in html and 'href="/simulations/agents/"' in html


def test_a_runs_page_and_a_sweeps_page_name_their_agents_and_link_the_table(alice, client,
                                                                            catalogue):
    client.force_login(alice)
    run = simulation_request(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=2,
                             agent_a="planner", agent_b="greedy", seed=3)
    play_all(run)
    html = client.get(run.get_absolute_url()).content.decode()
    assert "agents <strong>planner</strong> (deck A) and <strong>greedy</strong>" in html
    assert 'href="/simulations/agents/" data-testid="agents-link"' in html
    sweep = make_sweep(alice)
    html = client.get(f"/simulations/sweeps/{sweep.uid}/").content.decode()
    assert "agents <strong>greedy</strong> (deck A) and <strong>random</strong>" in html
    assert 'href="/simulations/agents/" data-testid="agents-link"' in html
