"""The one work protocol serves simulation chunks and balance jobs alike: one claim (a live
lease turns a second execution away), one renewal (a lost lease is noticed), one give-up after
the attempts are spent, one reaper, and a heartbeat that keeps a long piece leased."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from balance.models import BalanceJob
from balance.runner import GAVE_UP, JOB_WORK
from balance.search.services import balance_job_request
from simulations.execution import CHUNK_WORK
from simulations.models import ChunkState
from simulations.services import simulation_request
from tests.balance.conftest import TINY
from tests.simulations.helpers import DAWN, DUSK
from work import protocol
from work.models import WorkStatus
from work.reaper import work_reap


@pytest.fixture
def chunk_and_job(catalogue):
    run = simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=8,
                             agent_a="random", agent_b="random", seed=1, trusted=True,
                             chunk_size=4)
    job = balance_job_request(user=None, **TINY)
    return (CHUNK_WORK, run.chunks.get(index=0).pk), (JOB_WORK, job.pk)


@pytest.mark.django_db
def test_one_claim_renewal_and_give_up_for_every_kind(chunk_and_job, settings):
    settings.SIMULATIONS_MAX_ATTEMPTS = settings.BALANCE_MAX_ATTEMPTS = 2
    for kind, pk in chunk_and_job:
        assert protocol.claim(kind, pk=pk, claim="first", worker="w1@host") is not None
        assert protocol.claim(kind, pk=pk, claim="second", worker="w2@host") is None   # held
        protocol.renew(kind, pk=pk, claim="first")
        with pytest.raises(protocol.LeaseLost):
            protocol.renew(kind, pk=pk, claim="second")
        kind.rows().filter(pk=pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        assert protocol.claim(kind, pk=pk, claim="third", worker="w3@host") is not None
        with pytest.raises(protocol.LeaseLost):
            protocol.renew(kind, pk=pk, claim="first")        # the first execution lost it
        kind.rows().filter(pk=pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        assert protocol.claim(kind, pk=pk, claim="fourth", worker="w4@host") is None  # given up
    (_, chunk_id), (_, job_id) = chunk_and_job
    chunk = CHUNK_WORK.rows().get(pk=chunk_id)
    assert chunk.state == ChunkState.FAILED and "started 2 times" in chunk.error
    job = BalanceJob.objects.get(pk=job_id)
    assert job.status == WorkStatus.FAILED and job.error == str(GAVE_UP.format(attempts=2))


@pytest.mark.django_db
def test_one_reaper_hands_back_chunks_and_jobs_whose_worker_died(chunk_and_job, settings):
    settings.SIMULATIONS_QUEUE_DEPTH = 10
    for kind, pk in chunk_and_job:
        protocol.claim(kind, pk=pk, claim="doomed", worker="victim@host")
    report = work_reap(node="victim@host")
    assert report["restarted"] == 2
    for kind, pk in chunk_and_job:
        row = kind.rows().get(pk=pk)
        assert getattr(row, kind.state) == kind.waiting and row.claim == ""
        assert row.sent_at is not None          # and sent again, in its turn


@pytest.mark.django_db
def test_an_error_hands_the_work_back_with_a_backoff(chunk_and_job):
    for kind, pk in chunk_and_job:
        protocol.claim(kind, pk=pk, claim="x", worker="w@host")
        assert protocol.release(kind, pk=pk, claim="x", backoff=protocol.backoff_seconds(1))
        row = kind.rows().get(pk=pk)
        assert getattr(row, kind.state) == kind.waiting and row.sent_at is None
        assert row.lease_until > timezone.now()      # not sent again before the backoff


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_keeps_a_long_piece_leased_until_the_work_is_taken_away(chunk_and_job,
                                                                           settings):
    settings.SIMULATIONS_HEARTBEAT_SECONDS = 0.05
    _, (kind, pk) = chunk_and_job
    claimed = protocol.claim(kind, pk=pk, claim="long", worker="w@host")
    first_lease = claimed.lease_until
    with protocol.Heartbeat(kind, pk=pk, claim="long") as beat:
        end = time.monotonic() + 60
        while BalanceJob.objects.get(pk=pk).lease_until <= first_lease:
            assert time.monotonic() < end, "the heartbeat never renewed the lease"
            time.sleep(0.05)
        BalanceJob.objects.filter(pk=pk).update(status=WorkStatus.CANCELLED)
        beat.thread.join(timeout=60)                    # it stops once the job is gone
        assert not beat.thread.is_alive()
