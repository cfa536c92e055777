"""Django's PostgreSQL backend with a health check that costs no round trip while the server
is silent.

With ``conn_health_checks`` on, Django checks a kept connection at the first query of every
request with ``SELECT 1``: one more round trip to the server on every page that reads the
database, as long as the read itself on the busiest stored pages (common/page_cache.py). A
server that ends a connection (a restart, ``pg_terminate_backend``, an idle timeout, a crash
of its process) first sends its reason or closes the socket, and either makes the socket
readable: so between two requests, a connection whose socket has nothing to read is taken as
healthy without asking, and one that has something to read is checked with ``SELECT 1`` as
Django does (which reads whatever the server said, and replaces the connection if it is gone).
A link cut without a word from the server is not caught by either check before the query.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's (BaseDatabaseWrapper sets them), left out of its stubs.
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if (self.connection is not None and self.health_check_enabled
                and not self.health_check_done and not self.pool and self._server_silent()):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def _server_silent(self) -> bool:
        """The connection is open, idle between transactions, and the server has sent nothing
        since the last answer was read."""
        connection = self.connection
        idle = connection.pgconn.transaction_status == pq.TransactionStatus.IDLE
        if connection.closed or connection.broken or not idle:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            return not poller.poll(0)
        except (OSError, ValueError):
            return False
