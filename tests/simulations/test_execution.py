"""Chunks as a worker plays them: the figures of a run equal the engine's own match runner, a
chunk played twice counts once, lost workers and crashes are survived, cancel and early stop
work — all by calling the service a worker calls, in this process."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cards.card_stats import card_stats
from cards.models import Card, CardStatsSlice
from rules.lab.stats import MatchStats
from simulations import execution
from simulations.execution import (
    ChunkAbandoned,
    chunk_claim,
    chunk_complete,
    chunk_execute,
    chunk_play,
    early_stop_checkpoint,
    heartbeat,
)
from simulations.models import Chunk, ChunkResult, ChunkState, SampleGame
from simulations.services import simulation_cancel, simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all, reference_counts
from work.fair import dispatch
from work.models import WorkStatus
from work.reaper import work_reap

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(catalogue):
    return simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=24,
                              agent_a="greedy", agent_b="random", seed=11, trusted=True,
                              chunk_size=4)


def counts_of(run) -> dict:
    return run.matchups.get().result["counts"]


def test_chunk_i_plays_games_i_k_to_i_k_plus_k_minus_1(run):
    chunks = list(run.chunks.order_by("index"))
    assert [(c.start, c.stop) for c in chunks] == [(i * 4, i * 4 + 4) for i in range(6)]
    assert run.games_total == 24 and run.status == WorkStatus.QUEUED


def test_a_run_finds_exactly_what_the_match_runner_finds(run):
    assert play_all(run) == ["done"] * 6
    assert run.status == WorkStatus.DONE and run.games_done == 24 and run.finished_at
    assert counts_of(run) == reference_counts("Dawn Test", "Dusk Test", seed=11, games=24)


def test_chunk_order_does_not_matter(run):
    play_all(run, order=[5, 2, 0, 4, 1, 3])
    assert counts_of(run) == reference_counts("Dawn Test", "Dusk Test", seed=11, games=24)
    outcomes = run.matchups.get().result["outcomes"]
    assert len(outcomes) == 24 and set(outcomes) <= set("abde")


def test_a_chunk_executed_twice_counts_once(run):
    play_all(run)
    before = counts_of(run)
    first = run.chunks.get(index=0)
    assert chunk_execute(chunk_id=first.pk, claim="again", worker="w") == "skipped"
    run.refresh_from_db()
    assert counts_of(run) == before and run.games_done == 24
    assert ChunkResult.objects.filter(run=run).count() == 6


def test_twin_executions_of_one_chunk_count_once(run):
    """A worker's lease expires while it still plays; the chunk is given to another worker,
    which finishes first. The late twin's result is discarded."""
    chunk_id = run.chunks.get(index=0).pk
    slow = chunk_claim(chunk_id=chunk_id, claim="slow", worker="w1")
    slow_output = chunk_play(slow, claim="slow")
    Chunk.objects.filter(pk=chunk_id).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert chunk_execute(chunk_id=chunk_id, claim="fast", worker="w2") == "done"
    assert chunk_complete(slow, slow_output, worker="w1") == "duplicate"
    assert ChunkResult.objects.filter(run=run, chunk_index=0).count() == 1
    play_all(run)
    assert counts_of(run) == reference_counts("Dawn Test", "Dusk Test", seed=11, games=24)


def test_a_live_lease_turns_a_second_delivery_away(run):
    chunk_id = run.chunks.get(index=1).pk
    assert chunk_claim(chunk_id=chunk_id, claim="first", worker="w1") is not None
    assert chunk_execute(chunk_id=chunk_id, claim="second", worker="w2") == "skipped"


def test_a_worker_killed_mid_chunk_is_reaped_and_the_run_completes(run, settings):
    settings.SIMULATIONS_LEASE_SECONDS = 5
    settings.SIMULATIONS_QUEUE_DEPTH = 100
    chunk_id = run.chunks.get(index=2).pk
    chunk_claim(chunk_id=chunk_id, claim="doomed", worker="w1")   # ... and the worker dies
    assert work_reap()["lease expired"] == 0                      # its lease still runs
    later = timezone.now() + timedelta(seconds=10)
    report = work_reap(now=later)
    assert report["lease expired"] == 1
    chunk = Chunk.objects.get(pk=chunk_id)
    assert chunk.state == ChunkState.PENDING and chunk.claim == ""
    assert chunk.sent_at == later and chunk.sends == 1    # handed back, and sent in its turn
    assert "lease expired (worker w1)" in chunk.error
    play_all(run)
    assert Chunk.objects.get(pk=chunk_id).attempts == 2
    assert counts_of(run) == reference_counts("Dawn Test", "Dusk Test", seed=11, games=24)


def test_a_restarted_worker_reclaims_the_chunks_it_held(run):
    chunk_id = run.chunks.get(index=0).pk
    chunk_claim(chunk_id=chunk_id, claim="x", worker="celery@box")
    assert work_reap(node="celery@other")["restarted"] == 0
    assert work_reap(node="celery@box")["restarted"] == 1
    assert Chunk.objects.get(pk=chunk_id).claim == ""


def test_a_stalled_queue_is_sent_again_with_backoff(run, settings):
    settings.SIMULATIONS_STALL_SECONDS = 10
    settings.SIMULATIONS_QUEUE_DEPTH = 100
    now = timezone.now()
    assert len(dispatch(now=now)) == 6          # every chunk's message is in the broker ...
    assert work_reap(now=now + timedelta(seconds=5))["queue stalled"] == 0
    # ... and none was taken for a whole stall period: the queue is presumed lost.
    assert work_reap(now=now + timedelta(seconds=11))["queue stalled"] == 6
    # Sent again just now (sends=2): the next re-send waits twice the stall period.
    assert work_reap(now=now + timedelta(seconds=25))["queue stalled"] == 0
    assert work_reap(now=now + timedelta(seconds=33))["queue stalled"] == 6
    assert set(run.chunks.values_list("sends", flat=True)) == {3}


def test_no_stall_while_some_chunk_is_being_played(run, settings):
    settings.SIMULATIONS_STALL_SECONDS = 10
    now = timezone.now()
    dispatch(now=now)
    later = now + timedelta(seconds=11)
    Chunk.objects.filter(run=run, index=0).update(touched_at=later - timedelta(seconds=1))
    assert work_reap(now=later)["queue stalled"] == 0


def test_a_chunk_that_keeps_crashing_is_given_up_and_the_run_fails(run, settings):
    settings.SIMULATIONS_MAX_ATTEMPTS = 2
    chunk_id = run.chunks.get(index=3).pk
    for claim in ("a", "b"):
        chunk_claim(chunk_id=chunk_id, claim=claim, worker="w")
        Chunk.objects.filter(pk=chunk_id).update(lease_until=timezone.now())
    assert chunk_execute(chunk_id=chunk_id, claim="c", worker="w") == "skipped"
    chunk = Chunk.objects.get(pk=chunk_id)
    assert chunk.state == ChunkState.FAILED and "started 2 times" in chunk.error
    play_all(run)
    assert run.status == WorkStatus.FAILED and "1 chunk(s) failed" in run.error
    assert counts_of(run)["games"] == 20    # the other chunks' games are still reported


def test_an_error_outside_the_games_is_kept_and_retried_after_a_backoff(run, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("out of cheese")

    chunk_id = run.chunks.get(index=0).pk
    with monkeypatch.context() as patch:
        patch.setattr(execution, "play_games", broken)
        assert chunk_execute(chunk_id=chunk_id, claim="x", worker="w") == "error"
    chunk = Chunk.objects.get(pk=chunk_id)
    assert chunk.state == ChunkState.PENDING and "out of cheese" in chunk.error
    assert chunk.lease_until > timezone.now()   # backoff: dispatched again after it
    assert chunk.sent_at is None
    play_all(run)
    assert run.status == WorkStatus.DONE


def test_cancel_keeps_what_is_done_and_stops_the_rest(run):
    chunks = {c.index: c for c in run.chunks.all()}
    chunk_execute(chunk_id=chunks[0].pk, claim="a", worker="w")
    playing = chunk_claim(chunk_id=chunks[1].pk, claim="b", worker="w")
    simulation_cancel(run=run)
    run.refresh_from_db()
    assert run.status == WorkStatus.CANCELLED and run.finished_at
    assert counts_of(run)["games"] == 4
    with pytest.raises(ChunkAbandoned):
        heartbeat(playing, claim="b", games_done=1)
    assert chunk_execute(chunk_id=chunks[2].pk, claim="c", worker="w") == "skipped"
    assert set(run.chunks.exclude(index=0).values_list("state", flat=True)) == {"skipped"}


def test_per_card_figures_reach_the_catalogue_once_per_agent_ruleset_and_version(run):
    play_all(run)
    stats = MatchStats.from_counts(counts_of(run))
    rows = [{r["code"]: r for r in stats.card_figures(side)}["T-M01"] for side in "ab"]
    boar = Card.objects.get(code="T-M01")   # in both decks
    slices = CardStatsSlice.objects.filter(card=boar)
    assert {(s.agent, s.ruleset_key, s.card_data_version) for s in slices} == {
        (run.agent_a, "standard", run.card_data_version),
        (run.agent_b, "standard", run.card_data_version)}
    totals = card_stats(card=boar)
    assert totals.games_played_in == rows[0]["games_played_in"] + rows[1]["games_played_in"]
    assert totals.times_played == rows[0]["times_played"] + rows[1]["times_played"]
    assert totals.times_drawn == rows[0]["times_drawn"] + rows[1]["times_drawn"]
    for condition in ("drawn", "opening", "played", "awakened"):
        assert totals.when[condition]["games"] == sum(r["when"][condition]["games"]
                                                      for r in rows)
        assert totals.when[condition]["wins"] == sum(r["when"][condition]["wins"]
                                                     for r in rows)
    chunk_execute(chunk_id=run.chunks.get(index=0).pk, claim="again", worker="w")
    assert card_stats(card=boar).games_played_in == totals.games_played_in


def test_the_first_games_are_kept_as_replays(run):
    play_all(run)
    samples = list(SampleGame.objects.filter(run=run).order_by("game_index"))
    assert [s.game_index for s in samples] == [0, 1]
    assert samples[0].a_first and not samples[1].a_first
    assert samples[0].log["actions"] and samples[0].log["result"]


def test_early_stop_is_the_same_whatever_order_the_chunks_finish(catalogue):
    def stopped(order):
        run = simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=400,
                                 agent_a="random", agent_b="random", seed=3, trusted=True,
                                 chunk_size=20, stop_width=0.2)
        play_all(run, order=order)
        return run.matchups.get().stopped_after, run.matchups.get().result["counts"]

    forward = stopped(list(range(20)))
    backward = stopped([7, 6, 5, 4, 3, 2, 1, 0] + list(range(8, 20)))
    assert forward == backward
    assert forward[0] is not None and forward[0] < 20
    assert forward[1]["games"] == forward[0] * 20


def test_the_reap_command_reports_what_it_sent(run, monkeypatch):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("reap_simulations", stdout=out)
    # Nothing was lost; the run's chunks waiting in the database went out in their turn, one
    # message a worker process.
    assert out.getvalue().strip() == "handed back 0 piece(s) of work; sent 2"


def test_early_stop_is_judged_about_sixteen_times_per_doubling_of_the_finished_chunks():
    """A matchup of thousands of one-second chunks is judged a few hundred times, not once per
    chunk over every chunk before it (a cost growing with the square of the chunks)."""
    judged = [taken for taken in range(1, 25_001) if early_stop_checkpoint(taken)]
    assert judged[:31] == list(range(1, 32))                # every chunk at first
    assert [k for k in judged if 32 <= k < 40] == [32, 34, 36, 38]
    assert len(judged) < 200
