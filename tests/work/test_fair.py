"""Fair sharing of the workers: work waits its turn in the database, the broker holds a few
messages, and each free place goes to the user with the least CPU time in flight — so a third
user's small run is played while two others' big runs are still going."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import OperationalError

from config.celery import app
from simulations.execution import chunk_claim
from simulations.models import Chunk, ChunkState, SimulationRun
from simulations.services import simulation_cancel, simulation_request
from tests.fixtures import UserFactory
from tests.simulations.helpers import DAWN, DUSK
from work import conf
from work.fair import choose_owner, dispatch, in_broker
from work.models import WorkStatus
from work.protocol import kinds

DEADLINE = 240
T0 = datetime(2026, 1, 1, 12, 0)


def test_the_next_place_goes_to_the_least_cpu_in_flight_then_the_oldest_submission():
    waiting = {1: T0, 2: T0 + timedelta(seconds=1), 3: T0 + timedelta(seconds=2)}
    assert choose_owner(waiting, {1: 50.0, 2: 0.5}) == 3          # nothing in flight
    assert choose_owner(waiting, {1: 0.5, 2: 0.5, 3: 9.0}) == 1   # a tie: the oldest
    assert choose_owner(waiting, {1: 2.0, 2: 1.0, 3: 1.0}) == 2
    assert choose_owner({None: T0, 4: T0}, {}) == 4                 # the command line last


def submit(user, games: int, seed: int = 1) -> SimulationRun:
    return simulation_request(user=user, kind="match", deck_specs=[DAWN, DUSK], games=games,
                              agent_a="random", agent_b="random", seed=seed, chunk_size=2)


def sent_owners() -> list[str]:
    chunks = next(kind for kind in kinds() if kind.name == "chunk")
    rows = Chunk.objects.filter(in_broker(chunks)).order_by("sent_at", "pk")
    return [row.run.owner.username for row in rows]


@pytest.mark.django_db
def test_a_newcomer_takes_the_next_free_place_in_the_broker(catalogue, settings):
    settings.SIMULATIONS_QUEUE_DEPTH = 2
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    big_a, big_b = submit(alice, 20), submit(bob, 20)
    assert {c.state for c in Chunk.objects.all()} == {ChunkState.PENDING}
    assert len(dispatch()) == 2 and sent_owners() == ["alice", "bob"]
    assert dispatch() == []                           # the broker is full: the rest wait
    submit(carol, 2)
    first = big_a.chunks.get(index=0)
    assert chunk_claim(chunk_id=first.pk, claim="w1", worker="w") is not None
    dispatch()                                        # a place is free: carol has nothing on
    assert sent_owners() == ["bob", "carol"]          # the workers, alice and bob one chunk each
    assert chunk_claim(chunk_id=big_b.chunks.get(index=0).pk, claim="w2", worker="w")
    dispatch()                                        # alice and bob even: the older submission
    assert sent_owners() == ["carol", "alice"]
    assert Chunk.objects.filter(sent_at__isnull=False).count() == 4
    assert Chunk.objects.filter(sent_at__isnull=True).count() == 10 + 10 + 1 - 4


@pytest.mark.django_db
def test_a_user_whose_run_was_cancelled_while_the_dispatcher_counted_is_passed_over(
        catalogue, settings, monkeypatch):
    """The dispatcher counts who has work waiting, then reads each one's next piece: a run
    cancelled between the two leaves its owner with nothing to send, and the others' work
    still goes out."""
    from work import fair

    settings.SIMULATIONS_QUEUE_DEPTH = 2
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    alices_run = submit(alice, 2)
    submit(bob, 4)
    count_waiting = fair._waiting_owners

    def counted_then_cancelled(now):
        owners = count_waiting(now)
        simulation_cancel(run=alices_run)
        return owners

    monkeypatch.setattr(fair, "_waiting_owners", counted_then_cancelled)
    assert len(dispatch()) == 2
    assert sent_owners() == ["bob", "bob"]


def wait_for(predicate, what: str):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        try:
            if predicate():
                return
        except OperationalError:   # SQLite's shared test database: a writer holds it
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen in {DEADLINE} s")


def retrying(action):
    """``action()``, again while SQLite's shared test database is locked by the worker."""
    end = time.monotonic() + DEADLINE
    while True:
        try:
            return action()
        except OperationalError:
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


def done_chunks(run: SimulationRun) -> int:
    return run.chunks.filter(state=ChunkState.DONE).count()


@pytest.mark.django_db(transaction=True)
def test_a_third_users_small_run_finishes_while_two_big_ones_still_play(
        catalogue, settings, unique_queue):
    settings.SIMULATIONS_QUEUE_DEPTH = 2
    settings.SIMULATIONS_CHUNK_PAUSE = 0.05   # each chunk takes at least this long
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[unique_queue],
                      shutdown_timeout=30):
        big_a = submit(alice, 800, seed=1)      # 400 chunks each: minutes of messages once
        big_b = retrying(lambda: submit(bob, 800, seed=2))
        wait_for(lambda: done_chunks(big_a) >= 2, "alice's run to start")
        small = retrying(lambda: submit(carol, 2, seed=3))
        wait_for(lambda: not SimulationRun.objects.get(pk=small.pk).is_active,
                 "carol's run to finish")
        for run in (small, big_a, big_b):
            retrying(run.refresh_from_db)
        assert small.status == "done" and small.games_done == 2
        assert big_a.is_active and big_b.is_active
        # Bob's run shares the worker too: Alice's queued chunks never starve it.
        wait_for(lambda: retrying(lambda: done_chunks(big_b)) > 0, "bob's run to play")
        for run in (big_a, big_b):                          # stop them: the test is over
            retrying(lambda run=run: simulation_cancel(run=run))


@pytest.mark.django_db
def test_a_cancelled_search_frees_its_places_in_the_broker_and_its_cpu_at_once(
        catalogue, settings):
    """Its pieces' messages are still in the broker, but they will find the search stopped and
    end in a moment: the dispatcher gives their places to the next work at once, and the
    owner's CPU cap no longer counts them."""
    from balance import pieces
    from balance.kinds import job_codec
    from balance.models import BalanceJob
    from balance.search.services import balance_job_request
    from balance.services import job_cancel
    from rules.lab.balance_search.evaluate import EvalTask
    from work.quota import in_flight_cpu_seconds

    settings.SIMULATIONS_QUEUE_DEPTH = 2
    settings.BALANCE_PIECE_BLOCKS = 1
    ursula, victor = UserFactory(username="ursula"), UserFactory(username="victor")
    job = balance_job_request(user=ursula, deck_specs=[DAWN, DUSK], agent="greedy",
                              max_changes=1, budget_games=2_000, verify_games=100, seed=5,
                              allowed_cards=["T-M01"], objective="band")
    BalanceJob.objects.filter(pk=job.pk).update(status=WorkStatus.RUNNING)
    job.refresh_from_db()
    codec, task = job_codec(job), EvalTask((), 0, 1, job.seed, 0, 6)
    pieces.pieces_post(job, [(codec.key(task), task, range(0, 6))], set(), codec)
    assert len(dispatch()) == 2                       # the broker is full of the search's pieces
    job_cancel(job=job)
    assert in_flight_cpu_seconds(ursula.pk) == 0
    submit(victor, 2)
    dispatch()
    assert sent_owners() == ["victor"]                # at once: not after the reaper's timeout


def test_the_broker_holds_one_message_a_worker_process_by_default(settings):
    """A newcomer's first piece waits behind at most one piece a process in the broker."""
    settings.SIMULATIONS_WORKERS, settings.SIMULATIONS_QUEUE_DEPTH = 3, 0
    assert conf.queue_depth() == 3
