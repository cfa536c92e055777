"""The default broker (``CELERY_BROKER_URL=filesystem://``) never kills a worker on a message
and delivers each message once, however producers and consumers interleave.

kombu's own filesystem transport creates a message's file before writing it and reads files
without a lock, so a worker could read an empty file and die of ``JSONDecodeError`` (kombu
issue #1551). Each test here goes through the connection Celery makes from the settings, with
the folders moved to a temporary directory; the long race is ``python -m tools.broker_stress``.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from kombu import Exchange, Queue

from config.celery import app
from tools.broker_stress import folders
from tools.broker_stress import run as race

pytestmark = pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith("filesystem://"),
    reason="the filesystem broker's own behaviour (CELERY_BROKER_URL names another broker)",
)

# Declarations are remembered per process (kombu's broker state), so each test has a queue of
# its own and declares it in its own folder.
QUEUE = ""


@pytest.fixture(autouse=True)
def _queue_of_its_own(monkeypatch):
    monkeypatch.setitem(globals(), "QUEUE", f"broker-test-{uuid.uuid4().hex[:12]}")


def connection(root: Path):
    """A connection as Celery makes it from the settings, on folders under ``root``."""
    return app.connection_for_write(transport_options=folders(root))


def publish(conn, body: dict) -> None:
    queue = Queue(QUEUE, Exchange(QUEUE, "direct"), routing_key=QUEUE)
    conn.Producer(serializer="json").publish(body, exchange=queue.exchange, routing_key=QUEUE,
                                             declare=[queue], retry=False)


def get(conn):
    """The next message of the queue, or None (kombu's basic_get, as a poll)."""
    return conn.default_channel.basic_get(QUEUE, no_ack=True)


def files(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "queue").iterdir())


def a_message_file(tmp_path: Path, body: dict) -> bytes:
    """What a producer writes into a message file for ``body``."""
    scratch = tmp_path / "scratch"
    with connection(scratch) as conn:
        publish(conn, body)
    (written,) = (scratch / "queue").iterdir()
    return written.read_bytes()


def test_a_message_file_still_being_written_is_left_for_later_not_raised(tmp_path):
    content = a_message_file(tmp_path, {"chunk": 7})
    root = tmp_path / "broker"
    with connection(root) as conn:
        # A writer that creates the file before writing it (kombu's own) has got this far.
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{QUEUE}.msg"
        (root / "queue" / name).write_bytes(b"")
        assert get(conn) is None                   # nothing to deliver yet, and no exception
        assert files(root) == [name]               # left where it was, under its name
        (root / "queue" / name).write_bytes(content[:10])
        assert get(conn) is None                   # half of it: still not
        (root / "queue" / name).write_bytes(content)
        assert get(conn).payload == {"chunk": 7}   # once whole, delivered
        assert get(conn) is None and files(root) == []


def test_a_file_that_never_parses_is_set_aside_with_an_error_in_the_log(tmp_path, caplog):
    root = tmp_path / "broker"
    with connection(root) as conn:
        old = f"{round(time.monotonic() * 1000) - 1000}_{uuid.uuid4()}.{QUEUE}.msg"
        (root / "queue" / old).write_bytes(b'{"body": ')
        past = time.time() - 3600                  # nobody has written to it for an hour
        os.utime(root / "queue" / old, (past, past))
        publish(conn, {"chunk": 1})
        with caplog.at_level(logging.ERROR, logger="config.broker"):
            assert get(conn).payload == {"chunk": 1}     # the good message behind it arrives
        assert files(root) == [f"{old}.unreadable"]      # never taken for a message again
        assert f"{old}.unreadable" in caplog.text
        assert get(conn) is None


def test_a_half_written_exchange_table_does_not_stop_publishing(tmp_path):
    root = tmp_path / "broker"
    folders(root)
    # kombu's own writer creates the table file, then locks and writes it: caught in between.
    (root / "control" / f"{QUEUE}.exchange").write_bytes(b"")
    with connection(root) as conn:
        publish(conn, {"chunk": 2})
        assert get(conn).payload == {"chunk": 2}


def test_processed_messages_are_kept_when_asked(tmp_path):
    root = tmp_path / "broker"
    with app.connection_for_write(
            transport_options={**folders(root), "store_processed": True}) as conn:
        publish(conn, {"chunk": 3})
        (name,) = files(root)
        assert get(conn).payload == {"chunk": 3}
        assert files(root) == []
        assert [p.name for p in (root / "processed").iterdir()] == [name]


def test_producers_and_two_consumers_race_and_every_message_arrives_once(tmp_path):
    """A short ``python -m tools.broker_stress`` on the transport settings select: three
    producer processes sending 300 messages each, two consumer processes polling often, a busy
    process beside them. On kombu's own transport a consumer dies of JSONDecodeError (and its
    message is lost) every 100 to 300 messages here; the long run is ``--seconds 60``."""
    with connection(tmp_path) as conn:
        transport = type(conn.transport)
    figures = race(seconds=0, messages=300, producers=3, consumers=2, rate=100, hog=1,
                   poll=0.01, transport=f"{transport.__module__}:{transport.__qualname__}",
                   root=tmp_path)
    print(figures.report())
    assert figures.sent == 900
    assert figures.consumer_deaths == 0 and figures.producer_deaths == 0, figures.errors
    assert (figures.lost, figures.duplicates, figures.unexpected) == (0, 0, 0)
    assert figures.drained and figures.left == {}
