"""The site as production serves it, in the test process: ``config.asgi.application`` (the
entry point ``./run.sh`` gives gunicorn) under uvicorn with the settings of ``./run.sh``'s worker
(``config.asgi_worker.Worker``: uvloop, httptools, keep-alive, a fresh context per request), in
a thread. It stands in for pytest-django's ``live_server`` (a threaded WSGI server), so the
browser tests, the every-page crawl and the API contract ask the production door the way a
browser does: several requests at once over connections kept alive.

The test database is SQLite in memory, one connection shared by every thread that serves
(as pytest-django's live server shares it): the page thread of ``config.sync_pages`` and
asgiref's thread, which runs a stream's synchronous parts, are handed it once, when the server
starts.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

LOOPBACK = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def _share_connections(shared: dict[str, Any]) -> None:
    """Run in a serving thread: use the test's in-memory connections there."""
    from django.db import connections

    for alias, connection in shared.items():
        connections[alias] = connection


def _close_connections(shared: dict[str, Any]) -> None:
    """Run in a serving thread: close the connections it opened itself."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.alias not in shared:
            connection.close()


def _end_other_sessions() -> None:
    """PostgreSQL: end the sessions the server's other threads left open on the test database
    (a stream's reads in the loop's thread pool, the games' watcher, the AI's threads; each
    keeps its connection, as in production), so the database can be dropped after the run."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()")


class ProductionLiveServer:
    """``live_server``'s interface (``url``, ``str()``, ``+``) over the production door."""

    def __init__(self) -> None:
        import uvicorn
        from asgiref.sync import SyncToAsync
        from django.db import connections
        from django.test.utils import modify_settings

        from config import asgi
        from config.asgi_worker import Worker

        self._shared = {c.alias: c for c in connections.all()
                        if c.vendor == "sqlite" and c.is_in_memory_db()}
        for connection in self._shared.values():
            connection.inc_thread_sharing()
        for executor in (asgi.pages.thread, SyncToAsync.single_thread_executor):
            executor.submit(_share_connections, self._shared).result()
        self.host, self.port = LOOPBACK, _free_port()
        config = uvicorn.Config(asgi.application, host=self.host, port=self.port,
                                log_level="warning", **Worker.CONFIG_KWARGS)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="production-server",
                                        daemon=True)
        # pytest-django's _live_server_helper turns this on for each test that uses the server.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": self.host})
        self._thread.start()
        for _ in range(600):
            if self._server.started or not self._thread.is_alive():
                break
            time.sleep(0.05)
        if not self._server.started:
            raise RuntimeError(f"the production entry point did not start on {self.url}")

    def stop(self) -> None:
        from asgiref.sync import SyncToAsync

        from config import asgi

        self._server.should_exit = True
        self._thread.join(timeout=15)
        # The serving threads' own connections (PostgreSQL: no connection is shared) are
        # closed, or the test database could not be dropped after the session.
        for executor in (asgi.pages.thread, SyncToAsync.single_thread_executor):
            executor.submit(_close_connections, self._shared).result()
        _end_other_sessions()
        for connection in self._shared.values():
            connection.dec_thread_sharing()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: str) -> str:
        return f"{self}{other}"
