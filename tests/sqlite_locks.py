"""The tests' SQLite database waits on a table lock, as the site's database file waits on a writer.

On SQLite the tests run on an in-memory database in shared-cache mode: the test, the live
server's request threads and the in-process Celery worker's threads (its tasks, heartbeats and
reaper) all use it. A statement that meets another connection's table lock there fails at once
with "database table is locked" (SQLITE_LOCKED): SQLite's busy timeout, which makes the site's
own database file (WAL and the ``timeout`` option in ``config/settings.py``) wait for a writer
instead, does not apply to shared-cache locks. On a busy machine, where every transaction
holds its lock longer, those instant failures sent a balance job into retries with backoff and
past a browser test's patience — a condition no deployment of the site meets. Here such a
statement waits and tries again, up to the same timeout, as it would on the database file.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

TABLE_LOCKED = "database table is locked"
PAUSE_SECONDS = 0.005


def _waiting(statement: Callable[..., Any], timeout: float) -> Callable[..., Any]:
    def run(cursor: Any, query: str, *params: Any, **named: Any) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return statement(cursor, query, *params, **named)
            except sqlite3.OperationalError as error:
                if TABLE_LOCKED not in str(error) or time.monotonic() > deadline:
                    raise
                # A BEGIN IMMEDIATE refused for the write lock has opened the transaction all
                # the same: closed, or the next try would be a transaction within one.
                if query.lstrip().upper().startswith("BEGIN") and cursor.connection.in_transaction:
                    cursor.connection.rollback()
                time.sleep(PAUSE_SECONDS)
    return run


def wait_on_table_locks() -> None:
    """Make Django's SQLite cursor retry a statement refused by a shared-cache table lock, for
    as long as the site's database file waits on a writer (its ``timeout`` option)."""
    from django.conf import settings
    from django.db.backends.sqlite3.base import SQLiteCursorWrapper

    if getattr(SQLiteCursorWrapper, "_waits_on_table_locks", False):
        return
    options = settings.DATABASES["default"].get("OPTIONS", {})
    timeout = float(options.get("timeout", 5))     # Python's sqlite3 default when none is set
    execute = _waiting(SQLiteCursorWrapper.execute, timeout)
    execute_many = _waiting(SQLiteCursorWrapper.executemany, timeout)

    def executemany(cursor: Any, query: str, param_list: Any) -> Any:
        return execute_many(cursor, query, list(param_list))   # a generator runs once only

    SQLiteCursorWrapper.execute = execute
    SQLiteCursorWrapper.executemany = executemany
    SQLiteCursorWrapper._waits_on_table_locks = True


_ONE_TRANSACTION = threading.RLock()
_TURNS = threading.local()


def _leave_turn() -> None:
    if _TURNS.taken.pop():
        _ONE_TRANSACTION.release()


def transactions_one_at_a_time() -> None:
    """The live server's request threads share one in-memory connection, where their
    transactions would interleave (a savepoint of one request released by another, two
    requests each inserting the row neither saw): each ``transaction.atomic`` block on that
    connection waits for the one under way, as writers wait for each other on the site's
    database (IMMEDIATE transactions on SQLite, row locks on PostgreSQL). Reads outside a
    transaction still run side by side."""
    from django.db import transaction

    if getattr(transaction.Atomic, "_one_at_a_time", False):
        return
    enter, leave = transaction.Atomic.__enter__, transaction.Atomic.__exit__

    def __enter__(atomic: Any) -> Any:
        # Whether this block took the turn, for its __exit__ (a block may be left after the
        # live server stopped sharing the connection).
        took = bool(transaction.get_connection(atomic.using).allow_thread_sharing)
        if took:
            _ONE_TRANSACTION.acquire()    # re-entrant: a nested block in the same request
        _TURNS.__dict__.setdefault("taken", []).append(took)
        try:
            return enter(atomic)
        except BaseException:
            _leave_turn()
            raise

    def __exit__(atomic: Any, *exc: Any) -> Any:
        try:
            return leave(atomic, *exc)
        finally:
            _leave_turn()

    transaction.Atomic.__enter__ = __enter__          # type: ignore[method-assign]
    transaction.Atomic.__exit__ = __exit__            # type: ignore[method-assign]
    transaction.Atomic._one_at_a_time = True          # type: ignore[attr-defined]
