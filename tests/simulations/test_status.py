"""Run status a user can trust: one status everywhere on the run page, the time left on a long
run, and agent and win rate wherever runs are listed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from simulations.models import SimulationRun
from simulations.results import run_results
from simulations.run_costs import MEASURED_HERE
from simulations.selectors import Progress, run_seconds_left, runs_with_rates
from simulations.services import simulation_request
from simulations.templatetags.simulations_extras import duration
from tests.simulations.helpers import DAWN, DUSK, play_all
from work.models import WorkStatus

pytestmark = pytest.mark.django_db


def make_run(user, **kw):
    args = {"kind": "match", "games": 12, "agent_a": "greedy", "agent_b": "random", "seed": 4,
            "chunk_size": 4, **kw}
    return simulation_request(user=user, deck_specs=[DAWN, DUSK], **args)


def progress(done: int, total: int = 100) -> Progress:
    return Progress(games_done=done, games_total=total, chunks_done=0, chunks_total=4,
                    chunks_running=1, wins=0, completed=0)


def test_the_time_left_follows_the_pace_of_the_finished_chunks(alice, catalogue, settings):
    settings.SIMULATIONS_WORKERS = 2
    run = make_run(alice, games=100)
    run.status, run.started_at = WorkStatus.RUNNING, timezone.now() - timedelta(seconds=30)
    assert run_seconds_left(run, progress(0)) is None          # no pace yet, and none expected
    now = timezone.now()
    run.chunks.filter(index__lt=2).update(state="done", attempts=1, finished_at=now,
                                          started_at=now - timedelta(seconds=6))
    done = Progress(games_done=8, games_total=100, chunks_done=2, chunks_total=25,
                    chunks_running=1, wins=0, completed=8)
    # 1.5 s a game; 23 chunks of 4 games left, 12 after one another on each process.
    assert run_seconds_left(run, done) == pytest.approx(
        MEASURED_HERE.finish + 12 * (MEASURED_HERE.chunk + 4 * 1.5))
    run.status = WorkStatus.QUEUED
    assert run_seconds_left(run, done) is None


def test_durations_read_as_words():
    assert duration(3.2) == "a few seconds" and duration(42) == "42 s"
    assert duration(86) == "1 min 26 s" and duration(3725) == "1 h 2 min"


def test_the_progress_answer_updates_the_header_badge_too(client, alice, catalogue):
    run = make_run(alice)
    client.force_login(alice)
    page = client.get(run.get_absolute_url()).content.decode()
    assert '<span class="status status-queued" id="run-status">Queued</span>' in page
    SimulationRun.objects.filter(pk=run.pk).update(status=WorkStatus.RUNNING,
                                                   started_at=timezone.now())
    fragment = client.get(f"/simulations/{run.uid}/progress/",
                          HTTP_HX_REQUEST="true").content.decode()
    assert ('<span class="status status-running" id="run-status" hx-swap-oob="true">'
            "Running</span>") in fragment


def test_lists_show_agents_and_deck_a_s_win_rate(client, alice, catalogue, make_deck):
    deck = make_deck(alice)
    run = simulation_request(user=alice, deck_specs=[deck.uid, DUSK], kind="match", games=12,
                             agent_a="greedy", agent_b="random", seed=4, chunk_size=4)
    play_all(run)
    rate = run_results(run)["matchups"][0]["win_rate"]
    (listed,) = runs_with_rates(SimulationRun.objects.filter(pk=run.pk))
    assert (listed.deck_a_wins / listed.deck_a_games, listed.deck_a_games) == \
        (pytest.approx(rate["rate"]), rate["games"])
    shown = f"{rate['rate'] * 100:.1f} % of {rate['games']}"
    client.force_login(alice)
    runs_page = client.get("/simulations/").content.decode()
    assert shown in runs_page and "greedy <span class=\"muted\">(A)</span> vs random" in runs_page
    deck_page = client.get(deck.get_absolute_url()).content.decode()
    assert f"wins {shown}" in deck_page and "greedy vs random" in deck_page


def test_an_early_stop_s_rate_counts_only_the_kept_chunks(alice, catalogue):
    run = make_run(alice, games=400, chunk_size=20, stop_width=0.2, agent_a="random")
    play_all(run, order=[7, 6, 5, 4, 3, 2, 1, 0] + list(range(8, 20)))  # late chunks first
    assert run.chunk_results.count() > run.matchups.get().stopped_after
    rate = run_results(run)["matchups"][0]["win_rate"]
    (listed,) = runs_with_rates([run])
    assert listed.deck_a_games == rate["games"] < 400
    assert listed.deck_a_wins / listed.deck_a_games == pytest.approx(rate["rate"])
