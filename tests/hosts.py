"""Test hosts of a test's own: network namespaces on this machine, each joined to the root
namespace by a veth pair on a private /30 subnet, so that a process started in one
(``Host.command``) reaches nothing but what the root namespace offers on the link address.

The servers the hosts need (PostgreSQL, the broker) listen on 127.0.0.1 only, which no other
namespace can reach: ``Relay`` listens on each link's root-side address and forwards every
connection to the server's loopback address, so a host's DATABASE_URL and CELERY_BROKER_URL
name the link address and the relay's port, as another machine's would name the server's.

``separate_hosts(count)`` yields the hosts and removes the namespaces (and their links) when the
test ends, failed or not; it skips the test with the reason when this machine cannot make them
(not root, no ``ip``, namespaces refused by the sandbox)."""

from __future__ import annotations

import ipaddress
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.network_changes import changing_network
from tools.netns import TcpRelay, ip, ip_ok, remove_namespace

# Private addresses for the links: 10.231.0.0/16 cut into /30s (one per host). A subnet already
# on this machine's interfaces is never used.
LINK_RANGE = ipaddress.ip_network("10.231.0.0/16")
DEFAULT_PORTS = {"postgres": 5432, "postgresql": 5432, "redis": 6379, "amqp": 5672,
                 "pyamqp": 5672}


@dataclass(frozen=True)
class Host:
    name: str            # the network namespace
    address: str         # the host's own address on its link
    gateway: str         # the root namespace's address on the same link (where the relay is)

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run inside this host's namespace."""
        return ["ip", "netns", "exec", self.name, *argv]

    def url(self, url: str, relay: Relay) -> str:
        """``url`` (a server on 127.0.0.1) as this host reaches it: through the relay."""
        parts = urlsplit(url)
        port = relay.port_for(self.gateway, parts.hostname or "127.0.0.1",
                             parts.port or DEFAULT_PORTS[parts.scheme])
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@{self.gateway}:{port}" if auth else f"{self.gateway}:{port}"
        return urlunsplit(parts._replace(netloc=netloc))


def _free_subnets(count: int) -> list[ipaddress.IPv4Network]:
    """``count`` /30 subnets of LINK_RANGE that no interface of this machine uses, starting at
    a random place (two test runs at once take different ones, and ``ip`` refuses a clash)."""
    used = [ipaddress.ip_interface(word).network for line in ip("-o", "-4", "addr").stdout
            .splitlines() for word in line.split() if "/" in word and word[0].isdigit()]
    subnets = list(LINK_RANGE.subnets(new_prefix=30))
    start = uuid.uuid4().int % len(subnets)
    free = [net for net in subnets[start:] + subnets[:start]
            if not any(net.overlaps(other) for other in used)]
    return free[:count]


def _skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "separate test hosts need network namespaces, which only root can make"
    if shutil.which("ip") is None:
        return "separate test hosts need `ip` (Debian: apt-get install iproute2)"
    probe = f"clprobe{uuid.uuid4().hex[:6]}"
    made = ip("netns", "add", probe)
    if made.returncode != 0:
        return f"this machine refuses network namespaces: {made.stderr.strip()}"
    ip("netns", "del", probe)
    return None


@contextmanager
def separate_hosts(count: int) -> Iterator[list[Host]]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    # Browser tests on other workers wait: the links' addresses would abort their requests.
    with changing_network():
        tag = uuid.uuid4().hex[:6]
        made: list[tuple[str, str]] = []
        hosts: list[Host] = []
        try:
            for index, subnet in enumerate(_free_subnets(count), start=1):
                name = f"cardlab-{tag}-h{index}"
                outer, inner = f"cl{tag}o{index}", f"cl{tag}i{index}"
                gateway, address = (str(a) for a in subnet.hosts())
                ip_ok("netns", "add", name)
                made.append((name, outer))
                ip_ok("link", "add", outer, "type", "veth", "peer", "name", inner)
                ip_ok("link", "set", inner, "netns", name)
                ip_ok("addr", "add", f"{gateway}/30", "dev", outer)
                ip_ok("link", "set", outer, "up")
                ip_ok("-n", name, "addr", "add", f"{address}/30", "dev", inner)
                ip_ok("-n", name, "link", "set", inner, "up")
                ip_ok("-n", name, "link", "set", "lo", "up")
                hosts.append(Host(name=name, address=address, gateway=gateway))
            if len(hosts) < count:
                raise RuntimeError(f"found only {len(hosts)} free subnets in {LINK_RANGE}")
            yield hosts
        finally:
            for name, link in made:
                remove_namespace(name, link)


class Relay(TcpRelay):
    """Forwards TCP connections from ports on the hosts' link addresses to servers on this
    machine's loopback (tools/netns.py's relay): ``port_for(gateway, host, port)`` is the port
    on ``gateway`` (a link's root-side address) that leads to ``host:port``, opened the first
    time it is asked for; ``relayed`` counts the connections forwarded from each link."""

    def __init__(self) -> None:
        super().__init__()
        self.ports: dict[tuple[str, str, int], int] = {}

    def port_for(self, gateway: str, host: str, port: int) -> int:
        if (gateway, host, port) not in self.ports:
            self.ports[gateway, host, port] = self.forward((gateway, 0), (host, port))
        return self.ports[gateway, host, port]
