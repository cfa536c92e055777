"""How a job's games are cut into pieces for the workers: a screening's hundreds of one-block
tasks share pieces of about a second of a core, a small batch still splits between the worker
processes, and a replay after a lost execution posts the same pieces. A worker process that
played a piece follows on with the job's next ones from the database, unless other work
waits."""

from __future__ import annotations

from itertools import repeat

import pytest

from balance import pieces
from balance.kinds import job_codec
from balance.models import BalanceJob, JobBlock, JobPiece
from balance.search.services import balance_job_request
from rules.lab.balance_search.evaluate import EvalTask
from simulations.agents.strength import game_seconds_here, games_in
from simulations.models import PaceCalibration
from work.models import WorkStatus


class NamedCodec:
    """A codec whose tasks are their own JSON (the packing only encodes them)."""

    block_games = 50

    def encode(self, task):
        return {"task": task}


def test_one_block_tasks_share_a_piece_and_long_runs_are_cut_where_a_piece_is_full():
    batch = [("a", "A", range(0, 1)), ("b", "B", range(0, 1)), ("c", "C", range(4, 9))]
    packed = pieces.pack(batch, NamedCodec(), repeat(3))
    assert [[(p["key"], p["first"], p["blocks"]) for p in piece] for piece in packed] == [
        [("a", 0, 1), ("b", 0, 1), ("c", 4, 1)],
        [("c", 5, 3)],
        [("c", 8, 1)],
    ]
    assert packed[0][2]["task"] == {"task": "C"}


def test_a_gap_in_the_indices_starts_a_new_part():
    packed = pieces.pack([("a", "A", [0, 1, 3])], NamedCodec(), [10])
    assert [(p["first"], p["blocks"]) for p in packed[0]] == [(0, 2), (3, 1)]


@pytest.mark.django_db
def test_pieces_are_at_most_a_second_of_a_core_and_shrink_towards_the_end_of_a_batch(settings):
    """A step waits for its last piece: big pieces first, then ever smaller ones, so the two
    processes finish together."""
    settings.BALANCE_PIECE_BLOCKS = 0
    settings.SIMULATIONS_WORKERS = 2
    # A small batch: a quarter of what is left each time, down to single blocks.
    assert pieces.piece_sizes("greedy", 24, 50) == [6, 5, 4, 3, 2, 1, 1, 1, 1]
    big = pieces.piece_sizes("greedy", 1_000, 50)
    second = games_in(1.0, "greedy", "greedy") // 50     # the fast agent's games of a second
    assert second > 1 and big[:10] == [second] * 10
    assert big[-4:] == [1] * 4 and sum(big) == 1_000
    assert big == sorted(big, reverse=True)
    # A block of 50 planner games is already seconds of a core.
    assert pieces.piece_sizes("planner", 1_000, 50) == [1] * 1_000


@pytest.mark.django_db
def test_a_slow_agent_s_pieces_hold_about_a_second_of_its_games_at_the_pace_measured_here(
        settings):
    """Pieces are cut as a run's chunks are: at this deployment's pace, not at a figure fixed
    in the agents' registry (4 planner games, whatever the machine)."""
    settings.BALANCE_PIECE_BLOCKS = 0
    settings.SIMULATIONS_WORKERS = 2
    PaceCalibration.objects.create(host="w@h", games=10, wall_seconds=1.0, cpu_seconds=1.0,
                                   ladder_seconds=1.0, factor=1.0,
                                   agents={"planner": {"factor": 3.0}})
    game = game_seconds_here("planner", "planner")       # 0.14 s at three times the ladder's
    sizes = pieces.piece_sizes("planner", 1_000, 2)
    assert sizes[0] == 4 and sizes[0] * 2 * game == pytest.approx(1.0, rel=0.25)  # 8 games
    PaceCalibration.objects.create(host="w@h", games=10, wall_seconds=1.0, cpu_seconds=1.0,
                                   ladder_seconds=1.0, factor=1.0,
                                   agents={"planner": {"factor": 0.5}})    # a faster machine
    faster = pieces.piece_sizes("planner", 1_000, 2)[0]           # about 40 games
    assert faster > 4 * sizes[0]
    assert faster * 2 * game_seconds_here("planner", "planner") == pytest.approx(1.0, rel=0.1)


def test_the_setting_fixes_a_piece_s_size(settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    assert pieces.piece_sizes("greedy", 7, 50) == [2, 2, 2, 2]


def test_a_batch_is_packed_into_pieces_of_the_sizes_in_turn():
    batch = [("a", "A", range(0, 5)), ("b", "B", range(0, 2))]
    packed = pieces.pack(batch, NamedCodec(), [4, 2, 1])
    assert [[(p["key"], p["first"], p["blocks"]) for p in piece] for piece in packed] == [
        [("a", 0, 4)], [("a", 4, 1), ("b", 0, 1)], [("b", 1, 1)]]


def test_the_same_batch_names_the_same_pieces():
    batch = [("a", "A", range(0, 2)), ("b", "B", range(0, 2))]
    first = [pieces.piece_name(p) for p in pieces.pack(batch, NamedCodec(), repeat(3))]
    again = [pieces.piece_name(p) for p in pieces.pack(batch, NamedCodec(), repeat(3))]
    other = [pieces.piece_name(p) for p in pieces.pack(batch[:1], NamedCodec(), repeat(3))]
    assert first == again and first[0] != other[0]


@pytest.mark.django_db
def test_a_replayed_batch_finds_its_pieces_and_skips_those_fully_stored(alice, catalogue, tiny):
    job = balance_job_request(user=alice, **tiny)            # pieces of at most two blocks
    batch = [("k", "A", range(0, 4))]
    ids = pieces.pieces_post(job, batch, set(), NamedCodec())
    assert len(ids) == 2
    played = JobPiece.objects.get(pk=min(ids))
    stored = {("k", played.first + i) for i in range(played.blocks)}
    JobBlock.objects.bulk_create([JobBlock(job=job, key=key, index=index, tally=[])
                                  for key, index in stored])
    # The execution that replays the search after a lost one: the same row for what is left.
    assert pieces.pieces_post(job, batch, stored, NamedCodec()) == [max(ids)]
    assert JobPiece.objects.filter(job=job).count() == 2


# --- a worker process follows on with its job's pieces ----------------------------------------

def _running_job(user, spec):
    job = balance_job_request(user=user, **spec)
    BalanceJob.objects.filter(pk=job.pk).update(status=WorkStatus.RUNNING)
    job.refresh_from_db()
    return job


def _post(job, first: int = 0, blocks: int = 6) -> list[int]:
    """A step's batch of the job: blocks of its first matchup, unpatched (two blocks a piece)."""
    codec = job_codec(job)
    task = EvalTask((), 0, 1, job.seed, first, blocks)
    return pieces.pieces_post(job, [(codec.key(task), task, range(first, first + blocks))],
                              set(), codec)


def _states(ids):
    return sorted(JobPiece.objects.filter(pk__in=ids).values_list("state", flat=True))


@pytest.mark.django_db
def test_a_worker_plays_the_job_s_other_waiting_pieces_after_its_own(alice, catalogue, tiny):
    job = _running_job(alice, tiny)
    ids = _post(job)
    assert len(ids) == 3
    assert pieces.piece_execute(piece_id=ids[1], claim="message-1", worker="w") == "done"
    # No broker round trip each: the message's piece, then the two the database held.
    assert _states(ids) == ["done"] * 3
    assert JobBlock.objects.filter(job=job).count() == 6
    # Their messages come later and find them played.
    assert pieces.piece_execute(piece_id=ids[0], claim="message-2", worker="w") == "skipped"


@pytest.mark.django_db
def test_a_worker_goes_back_to_the_broker_when_another_user_s_work_waits(
        alice, bob, catalogue, tiny, monkeypatch):
    monkeypatch.setattr(pieces, "FOLLOW_ON_SECONDS", 0)
    job = _running_job(alice, tiny)
    ids = _post(job)
    theirs = _running_job(bob, {**tiny, "seed": 6})
    _post(theirs, blocks=2)
    assert pieces.piece_execute(piece_id=ids[0], claim="message-1", worker="w") == "done"
    assert _states(ids) == ["done", "pending", "pending"]


@pytest.mark.django_db
def test_a_message_whose_piece_was_played_follows_on_with_the_next_step(
        alice, catalogue, tiny):
    job = _running_job(alice, tiny)
    first = _post(job, blocks=2)
    pieces.piece_execute(piece_id=first[0], claim="message-1", worker="w")
    following = _post(job, first=2, blocks=4)      # the coordinator's next step
    assert pieces.piece_execute(piece_id=first[0], claim="message-2", worker="w") == "skipped"
    assert _states(following) == ["done", "done"]


@pytest.mark.django_db
def test_a_worker_waits_a_moment_for_the_job_s_next_step_when_nothing_else_waits(
        alice, catalogue, tiny, monkeypatch):
    job = _running_job(alice, tiny)
    first = _post(job, blocks=2)
    posted: list[int] = []

    def coordinator_posts_its_next_step(seconds):
        if not posted:
            posted.extend(_post(job, first=2, blocks=4))

    monkeypatch.setattr(pieces.time, "sleep", coordinator_posts_its_next_step)
    assert pieces.piece_execute(piece_id=first[0], claim="message-1", worker="w") == "done"
    assert posted and _states(posted) == ["done", "done"]


@pytest.mark.django_db
def test_no_piece_of_a_cancelled_job_is_played(alice, catalogue, tiny):
    job = _running_job(alice, tiny)
    ids = _post(job)
    BalanceJob.objects.filter(pk=job.pk).update(status=WorkStatus.CANCELLED)
    assert pieces.piece_execute(piece_id=ids[0], claim="message-1", worker="w") == "skipped"
    assert _states(ids) == ["pending"] * 3
