"""Brokers of a test's own, to restart in the middle of a run without disturbing anyone else on
the machine: a Redis server without persistence (a restart loses every queued message) and a
RabbitMQ node with its own name, ports and data folder (a restart keeps its durable queues and
hands every unacknowledged message out again — the twin deliveries the claims must absorb).

``private_broker(kind, root)`` yields a ``PrivateBroker`` (``url``, ``restart()``), or skips the
test with the reason when the server is not installed or cannot run here."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

STARTUP_SECONDS = 240     # a RabbitMQ node takes a minute to start beside a CPU hog


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _wait(condition, what: str, timeout: float = STARTUP_SECONDS) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise TimeoutError(f"timed out waiting for {what}")


class PrivateBroker:
    def __init__(self, url: str, start, stop):
        self.url, self._start, self._stop = url, start, stop

    def restart(self, outage: float = 1.0) -> None:
        self._stop()
        time.sleep(outage)           # a moment without a broker, as an outage
        self._start()


def on_rabbitmq_leg() -> bool:
    """Whether the tests run with RabbitMQ as the broker (CI's RabbitMQ leg)."""
    return os.environ.get("CELERY_BROKER_URL", "").startswith(("amqp://", "pyamqp://"))


def skip_unless_this_legs_broker(kind: str) -> None:
    """A broker-restart test runs once per CI leg: the private RabbitMQ node (a minute to start
    beside a CPU hog) on the RabbitMQ leg, the private Redis on the others."""
    if (kind == "rabbitmq") != on_rabbitmq_leg():
        pytest.skip(f"the {kind} restart runs on the leg whose CELERY_BROKER_URL is "
                    f"{'amqp://' if kind == 'rabbitmq' else 'not amqp://'}")


@contextmanager
def private_broker(kind: str, root: Path) -> Iterator[PrivateBroker]:
    skip_unless_this_legs_broker(kind)
    yield from {"redis": _redis, "rabbitmq": _rabbitmq}[kind](root)


def _redis(root: Path) -> Iterator[PrivateBroker]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no"]
    process: list[subprocess.Popen] = []

    def start() -> None:
        process[:] = [subprocess.Popen(command, stdout=subprocess.DEVNULL)]
        _wait(lambda: _redis_answers(port), "redis-server to start")

    def stop() -> None:             # without persistence: every queued message is gone
        process[0].terminate()
        process[0].wait(timeout=10)

    start()
    try:
        yield PrivateBroker(f"redis://127.0.0.1:{port}/0", start, stop)
    finally:
        stop()


def _rabbitmq(root: Path) -> Iterator[PrivateBroker]:
    server, ctl = shutil.which("rabbitmq-server"), shutil.which("rabbitmqctl")
    if server is None or ctl is None:
        pytest.skip("rabbitmq-server is not installed")
    if os.geteuid() != 0:
        pytest.skip("a private RabbitMQ node is started as root (it runs as the rabbitmq user)")
    # The node runs as the rabbitmq user, which cannot enter pytest's private tmp folders.
    home = Path(tempfile.mkdtemp(prefix="cardlab-rabbitmq-"))
    for sub in ("mnesia", "log"):
        (home / sub).mkdir()
    (home / "plugins").write_text("[].\n")
    owner = pwd.getpwnam("rabbitmq")
    for path in (home, home / "mnesia", home / "log", home / "plugins"):
        os.chown(path, owner.pw_uid, owner.pw_gid)
    os.chmod(home, 0o755)
    port, node = free_port(), f"cardlab_{uuid.uuid4().hex[:8]}@localhost"
    env = {**os.environ, "RABBITMQ_NODENAME": node, "RABBITMQ_NODE_PORT": str(port),
           "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1", "RABBITMQ_DIST_PORT": str(free_port()),
           "RABBITMQ_MNESIA_BASE": str(home / "mnesia"), "RABBITMQ_LOG_BASE": str(home / "log"),
           "RABBITMQ_ENABLED_PLUGINS_FILE": str(home / "plugins"),
           "RABBITMQ_CONFIG_FILE": str(home / "none"),
           "RABBITMQ_PID_FILE": str(home / "node.pid")}

    def start() -> None:
        subprocess.run([server, "-detached"], env=env, check=True, timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(lambda: _listening(port), f"the RabbitMQ node {node} to start")

    def stop() -> None:             # durable queues survive; unacked messages come again
        subprocess.run([ctl, "-n", node, "stop"], env=env, timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(lambda: not _listening(port), f"the RabbitMQ node {node} to stop", timeout=60)

    try:
        start()
        yield PrivateBroker(f"amqp://guest:guest@127.0.0.1:{port}//", start, stop)
    finally:
        stop()
        shutil.rmtree(home, ignore_errors=True)
