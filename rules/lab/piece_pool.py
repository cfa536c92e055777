"""Playing searches' tasks in this process or in a pool of processes (the balance search and deck
tuning share it).

A task is a frozen dataclass with ``first`` and ``blocks`` (blocks ``first … first+blocks−1`` of
its games); ``play(field, task)`` returns one result per block and depends only on the task, so
a task may be cut into pieces of ``piece`` blocks — keeping the processes evenly busy — and the
pieces' results joined back in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import Field, replace
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar


class Task(Protocol):
    """A dataclass (``replace`` cuts it into pieces) of ``blocks`` blocks from ``first`` on."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def first(self) -> int: ...

    @property
    def blocks(self) -> int: ...


FieldT = TypeVar("FieldT")
TaskT = TypeVar("TaskT", bound=Task)
ResultT = TypeVar("ResultT")

# A worker process's field and play function (one pool, one kind of task: set by the pool's
# initializer, so their types are the pool's, unknown to the module).
_FIELD: Any = None
_PLAY: Callable[[Any, Any], list[Any]] | None = None


def _init_worker(field: Any, play: Callable[[Any, Any], list[Any]]) -> None:
    global _FIELD, _PLAY
    _FIELD, _PLAY = field, play


def _play_one(task: Any) -> list[Any]:
    assert _PLAY is not None
    return _PLAY(_FIELD, task)


class PiecePool(Generic[FieldT, TaskT, ResultT]):
    """Plays tasks with ``play`` in this process (``processes=1``) or a pool of processes."""

    def __init__(self, field: FieldT, play: Callable[[FieldT, TaskT], list[ResultT]],
                 processes: int, piece: int) -> None:
        self.field, self.play, self.processes, self.piece = field, play, processes, piece
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def evaluate(self, tasks: Sequence[TaskT]) -> list[list[ResultT]]:
        """One list of per-block results for each task, in order."""
        pieces = [replace(t, first=t.first + i, blocks=min(self.piece, t.blocks - i))
                  for t in tasks for i in range(0, t.blocks, self.piece)]
        if self.processes <= 1:
            played = [self.play(self.field, piece) for piece in pieces]
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.processes, initializer=_init_worker,
                                                 initargs=(self.field, self.play))
            played = list(self._pool.map(_play_one, pieces, chunksize=1))
        flat = iter(result for piece in played for result in piece)
        return [[next(flat) for _ in range(task.blocks)] for task in tasks]
