"""A balance search job played in this process (the service a worker calls, without a broker):
it finishes with a verified front, keeps every block it played, resumes after its execution
is lost without playing those blocks again, and stops when cancelled."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from balance import pieces, runner
from balance.models import BalanceJob, JobBlock, JobPiece
from balance.search.services import balance_job_request
from balance.services import job_cancel
from work.models import WorkStatus
from work.reaper import work_reap

pytestmark = pytest.mark.django_db


def test_a_job_runs_to_a_verified_front(alice, catalogue, tiny):
    job = balance_job_request(user=alice, **tiny)
    assert runner.job_execute(job_id=job.pk, claim="t1", worker="test@host") == "done"
    job.refresh_from_db()
    assert job.status == WorkStatus.DONE and job.result["front"]
    assert job.result["baseline"]["games"] == 100            # re-verified on fresh seeds
    assert job.games_played == JobBlock.objects.filter(job=job).count() * 50
    assert job.progress["phase"] == "done"


def test_a_lost_execution_resumes_from_the_stored_blocks(alice, catalogue, tiny, monkeypatch):
    whole = balance_job_request(user=alice, **tiny)
    runner.job_execute(job_id=whole.pk, claim="w", worker="test@host")
    whole.refresh_from_db()

    job = balance_job_request(user=alice, **tiny)           # the same search again
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
    kept = JobBlock.objects.filter(job=job).count()             # three pieces of 1-2 blocks
    assert 3 <= kept <= 6 and kept < JobBlock.objects.filter(job=whole).count()

    # Held by a live lease, nobody takes it; once the lease runs out the reaper sends it again.
    assert runner.job_execute(job_id=job.pk, claim="early", worker="x@host") == "skipped"
    gone = timezone.now() - timedelta(seconds=1)       # the job's and its piece's leases
    BalanceJob.objects.filter(pk=job.pk).update(lease_until=gone)
    JobPiece.objects.filter(job=job, state="running").update(lease_until=gone)
    assert work_reap()["lease expired"] == 2
    assert BalanceJob.objects.get(pk=job.pk).status == "queued"   # waits for its turn again
    assert runner.job_execute(job_id=job.pk, claim="second", worker="x@host") == "done"
    job.refresh_from_db()
    assert job.result["front"] == whole.result["front"]            # the same search, resumed
    assert job.games_played == whole.games_played                  # no block played twice
    assert job.attempts == 2


def test_a_retry_after_a_database_error_takes_back_its_own_piece_at_once(
        alice, catalogue, tiny, monkeypatch):
    """The database fails while the coordinator stores a piece it played, and again as it
    hands the piece back: the task is retried with its claim, and the retry plays that piece
    again at once instead of waiting out its lease for the reaper."""
    from django.db import OperationalError

    whole = balance_job_request(user=alice, **tiny)
    runner.job_execute(job_id=whole.pk, claim="w", worker="test@host")
    whole.refresh_from_db()

    job = balance_job_request(user=alice, **tiny)
    real_store, real_release = pieces.piece_store, pieces.protocol.release
    calls = {"n": 0}

    def database_away_at_the_third_piece(piece, claim, results, codec):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OperationalError("the database went away")
        return real_store(piece, claim, results, codec)

    def release_fails_too(*args, **kwargs):
        raise OperationalError("the database went away")

    monkeypatch.setattr(pieces, "piece_store", database_away_at_the_third_piece)
    monkeypatch.setattr(pieces.protocol, "release", release_fails_too)
    with pytest.raises(OperationalError):
        runner.job_execute(job_id=job.pk, claim="task-1", worker="w@host")
    held = JobPiece.objects.get(job=job, state="running")
    assert held.claim == f"task-1/{held.pk}" and held.lease_until > timezone.now()

    monkeypatch.setattr(pieces.protocol, "release", real_release)

    def no_waiting():
        raise AssertionError("the retry waited for a piece it held itself")

    monkeypatch.setattr(pieces, "reap_soon", no_waiting)
    assert runner.job_execute(job_id=job.pk, claim="task-1", worker="w@host") == "done"
    job.refresh_from_db()
    assert job.result["front"] == whole.result["front"]
    assert job.games_played == whole.games_played
    held.refresh_from_db()
    assert held.state == "done" and held.attempts == 2


def test_cancel_stops_the_execution_at_its_next_piece(alice, catalogue, tiny, monkeypatch):
    job = balance_job_request(user=alice, **tiny)
    real_store = pieces.piece_store

    def cancel_midway(piece, claim, results, codec):
        job_cancel(job=BalanceJob.objects.get(pk=job.pk))
        return real_store(piece, claim, results, codec)

    monkeypatch.setattr(pieces, "piece_store", cancel_midway)
    assert runner.job_execute(job_id=job.pk, claim="c", worker="test@host") == "lost"
    job.refresh_from_db()
    assert job.status == WorkStatus.CANCELLED and job.result is None
