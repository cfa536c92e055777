"""The PostgreSQL backend's health check (config/postgresql/base.py): a kept connection is
asked nothing while the server is silent, and replaced when the server has ended it."""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.db import close_old_connections, connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


def _request_starts() -> None:
    close_old_connections()      # what Django does when a request starts (request_started)


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _count_checks(monkeypatch) -> list[int]:
    checks: list[int] = []
    usable = type(connections["default"]).is_usable

    def counted(self):
        checks.append(1)
        return usable(self)

    monkeypatch.setattr(type(connections["default"]), "is_usable", counted)
    return checks


def test_a_kept_connection_serves_the_next_request_without_a_select_1(monkeypatch):
    connection.close()     # a connection of its own: one the suite kept past CONN_MAX_AGE
    pid = _backend_pid()   # would be closed for its age, which is not what this test is about
    checks = _count_checks(monkeypatch)
    _request_starts()
    assert _backend_pid() == pid         # the same connection, kept
    assert checks == []                  # and not asked whether it is alive first


def test_a_connection_the_server_ended_is_replaced_before_the_next_request_reads(monkeypatch):
    connection.close()     # a fresh connection: one kept past CONN_MAX_AGE would be replaced for
    pid = _backend_pid()   # its age without the health check this test is about
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(autocommit=True, **params) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    socket = connection.connection.fileno()
    deadline = time.monotonic() + 5
    while not select.select([socket], [], [], 0.05)[0] and time.monotonic() < deadline:
        pass                            # the server's word arrives
    checks = _count_checks(monkeypatch)
    _request_starts()
    assert _backend_pid() != pid         # a new connection, no error for the visitor
    assert checks == [1]
