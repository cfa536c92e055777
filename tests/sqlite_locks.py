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
