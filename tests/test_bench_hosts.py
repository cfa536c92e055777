"""The benchmark's hosts (``tools.netns``, ``bench_balance --hosts``): network namespaces on one
private /24 whose processes reach the host side's address — a server listening there, a relay
to the loopback, a sandbox redis-server — and that are removed with everything in them when
their block ends: normally, on an error, or when the command is stopped by SIGTERM.

Root and ``ip`` make namespaces; elsewhere these tests skip and say why. No benchmark runs here.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.network_changes import changing_network
from tools import netns
from tools.sandbox import REPO, Sandbox, answers

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None,
    reason="the hosts are network namespaces: root and `ip` (iproute2) make them")


@pytest.fixture(autouse=True)
def _browser_tests_wait():
    """The hosts' links would abort the requests of a browser test on another worker."""
    with changing_network():
        yield


@pytest.fixture
def subnet():
    """A /24 of the test's own (benchmarks and other tests take others)."""
    for _ in range(20):
        candidate = f"10.213.{128 + uuid.uuid4().int % 120}.0/24"
        if netns.unavailable_reason(candidate) is None:
            return candidate
    pytest.skip("no free private /24 for the test's hosts")


def _ip(*args: str) -> str:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30).stdout


def _gone(hosts: list[netns.NetnsHost], subnet: str) -> bool:
    listed = _ip("netns", "list")
    return all(h.name not in listed for h in hosts) and subnet.rsplit(".", 1)[0] + "." \
        not in _ip("-o", "-4", "addr")


def _reach(host: netns.NetnsHost, address: str, port: int, send: bytes = b"") -> str:
    """What a process inside ``host`` reads from ``address:port`` after sending ``send``."""
    program = ("import socket,sys; s=socket.create_connection((sys.argv[1], int(sys.argv[2])), "
               "timeout=5); s.sendall(sys.argv[3].encode()); print(s.recv(100).decode())")
    out = subprocess.run([*host.prefix, sys.executable, "-c", program, address, str(port),
                          send.decode()], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _serve_once(address: str, reply: bytes) -> int:
    server = socket.create_server((address, 0))
    port = server.getsockname()[1]

    def answer():
        with server:
            conn, _ = server.accept()
            with conn:
                conn.recv(100)
                conn.sendall(reply)

    threading.Thread(target=answer, daemon=True).start()
    return port


def test_hosts_reach_the_host_side_address_and_are_removed_after(subnet):
    with netns.namespace_hosts(2, subnet) as hosts:
        base = subnet.rsplit(".", 1)[0]
        assert [h.address for h in hosts] == [f"{base}.2", f"{base}.3"]
        assert {h.gateway for h in hosts} == {f"{base}.1"}
        assert all(h.name in _ip("netns", "list") for h in hosts)
        for host in hosts:
            assert f"{host.address}/24" in _ip("-n", host.name, "-4", "addr")
            port = _serve_once(host.gateway, b"hello")
            assert _reach(host, host.gateway, port, b"hi") == "hello"
        # the loopback of this machine is not the hosts': they see only the link
        assert not subprocess.run([*hosts[0].prefix, sys.executable, "-c",
                                   "import socket; socket.create_connection(('127.0.0.1', "
                                   "5432), timeout=2)"], capture_output=True).returncode == 0
    assert _gone(hosts, subnet)


def test_a_relay_on_the_host_side_leads_to_a_server_on_the_loopback(subnet):
    with netns.namespace_hosts(1, subnet) as (host,):
        target = _serve_once("127.0.0.1", b"from the loopback")
        relay = netns.TcpRelay()
        try:
            port = relay.forward((host.gateway, 0), ("127.0.0.1", target))
            assert _reach(host, host.gateway, port, b"hi") == "from the loopback"
        finally:
            relay.close()


def test_an_error_or_a_process_left_running_inside_does_not_keep_the_hosts(subnet):
    with pytest.raises(RuntimeError, match="boom"):   # noqa: PT012 (the block is the test)
        with netns.namespace_hosts(2, subnet) as hosts:
            left = subprocess.Popen([*hosts[0].prefix, "sleep", "60"])
            for _ in range(200):     # until it runs inside (``ip netns exec`` joins, then execs)
                if str(left.pid) in _ip("netns", "pids", hosts[0].name).split():
                    break
                time.sleep(0.05)
            raise RuntimeError("boom")
    assert left.wait(timeout=10) == -signal.SIGKILL
    assert _gone(hosts, subnet)


def test_a_command_stopped_by_sigterm_removes_its_hosts(subnet):
    program = ("import sys, time\nfrom tools import netns\nnetns.terminate_as_exit()\n"
               "with netns.namespace_hosts(1, sys.argv[1]) as hosts:\n"
               "    print(hosts[0].name, flush=True)\n    time.sleep(60)\n")
    process = subprocess.Popen([sys.executable, "-c", program, subnet], cwd=REPO,
                               stdout=subprocess.PIPE, text=True)
    name = process.stdout.readline().strip()
    assert name in _ip("netns", "list")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 128 + signal.SIGTERM
    assert name not in _ip("netns", "list") and subnet.rsplit(".", 1)[0] + "." \
        not in _ip("-o", "-4", "addr")


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_a_sandbox_redis_server_listens_where_the_hosts_reach_it(subnet, tmp_path: Path):
    with netns.namespace_hosts(1, subnet) as (host,):
        sandbox = Sandbox(tmp_path)
        try:
            sandbox.start_redis(host.gateway, 6379)
            assert answers(host.gateway, 6379)
            assert _reach(host, host.gateway, 6379, b"PING\r\n") == "+PONG"
        finally:
            sandbox.stop()
        assert not answers(host.gateway, 6379)


def test_unavailable_says_why():
    assert netns.unavailable_reason("127.0.0.0/24") is not None    # the loopback's own
