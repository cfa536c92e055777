"""Hosts of a benchmark's own on one machine: network namespaces joined to this machine's root
namespace by a bridge, so that worker processes started in them (``NetnsHost.prefix``) reach
the broker and the database only over a network link, as workers on other machines would.

The layout, on one private /24 (``DEFAULT_SUBNET`` unless told):

- a bridge in the root namespace holds the subnet's first address: the *host side* address,
  where a broker or a database the hosts use must listen (``Sandbox.start_redis`` starts a
  sandbox redis-server there; ``TcpRelay`` leads a port there to a server on the loopback, as
  PostgreSQL listens on 127.0.0.1 only unless its server is restarted);
- each namespace has a veth pair: one end on the bridge, the other inside the namespace with
  the next address of the subnet (host 1: .2, host 2: .3 …) and a default route via the bridge.

``namespace_hosts(count)`` makes them and removes everything it made (processes still running
in a namespace are killed first) when its block ends, however it ends; a caller that may be
stopped by a signal turns SIGTERM into an exception (``terminate_as_exit``) so the removal
still runs. It needs root and ``ip`` (iproute2); otherwise ``HostsUnavailable`` says why.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import shutil
import signal
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

DEFAULT_SUBNET = "10.213.11.0/24"


class HostsUnavailable(RuntimeError):
    """This machine cannot make the hosts (not root, no ``ip``, a subnet in use)."""


@dataclass(frozen=True)
class NetnsHost:
    name: str        # the network namespace
    address: str     # the host's own address
    gateway: str     # the host side address (the bridge's), where its servers listen

    @property
    def prefix(self) -> list[str]:
        """What a command is prefixed with to run inside this host."""
        return ["ip", "netns", "exec", self.name]


def ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)


def ip_ok(*args: str) -> None:
    result = ip(*args)
    if result.returncode != 0:
        raise HostsUnavailable(f"ip {' '.join(args)}: {result.stderr.strip()}")


def unavailable_reason(subnet: str = DEFAULT_SUBNET) -> str | None:
    """Why this machine cannot make the hosts on ``subnet``, or None when it can."""
    if os.geteuid() != 0:
        return "hosts are network namespaces, which only root can make"
    if shutil.which("ip") is None:
        return "hosts need `ip` (Debian: apt-get install iproute2)"
    network = ipaddress.ip_network(subnet)
    for line in ip("-o", "-4", "addr").stdout.splitlines():
        for word in line.split():
            if "/" in word and word[0].isdigit() \
                    and ipaddress.ip_interface(word).network.overlaps(network):
                return f"{subnet} is already in use on this machine ({word}): give another"
    return None


@contextmanager
def namespace_hosts(count: int, subnet: str = DEFAULT_SUBNET) -> Iterator[list[NetnsHost]]:
    """``count`` hosts on ``subnet`` (see the module's docstring), removed on the way out."""
    reason = unavailable_reason(subnet)
    if reason:
        raise HostsUnavailable(reason)
    addresses = [str(a) for a in ipaddress.ip_network(subnet).hosts()]
    if count < 1 or count + 1 > len(addresses):
        raise HostsUnavailable(f"{subnet} has no room for {count} hosts")
    prefix = ipaddress.ip_network(subnet).prefixlen
    tag = uuid.uuid4().hex[:6]
    bridge, gateway = f"clbr{tag}", addresses[0]
    made: list[tuple[str, str]] = []
    try:
        ip_ok("link", "add", bridge, "type", "bridge")
        ip_ok("addr", "add", f"{gateway}/{prefix}", "dev", bridge)
        ip_ok("link", "set", bridge, "up")
        hosts = []
        for index in range(1, count + 1):
            name, outer, inner = f"cardlab-{tag}-h{index}", f"cl{tag}o{index}", f"cl{tag}i{index}"
            ip_ok("netns", "add", name)
            made.append((name, outer))
            ip_ok("link", "add", outer, "type", "veth", "peer", "name", inner)
            ip_ok("link", "set", inner, "netns", name)
            ip_ok("link", "set", outer, "master", bridge)
            ip_ok("link", "set", outer, "up")
            address = addresses[index]
            ip_ok("-n", name, "addr", "add", f"{address}/{prefix}", "dev", inner)
            ip_ok("-n", name, "link", "set", inner, "up")
            ip_ok("-n", name, "link", "set", "lo", "up")
            ip_ok("-n", name, "route", "add", "default", "via", gateway)
            hosts.append(NetnsHost(name=name, address=address, gateway=gateway))
        yield hosts
    finally:
        for name, outer in made:
            remove_namespace(name, outer)
        ip("link", "del", bridge)


def remove_namespace(name: str, link: str) -> None:
    """Stop whatever still runs in the namespace, then delete its link (either end of a veth
    pair deletes both) and the namespace."""
    for pid in ip("netns", "pids", name).stdout.split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    ip("link", "del", link)
    ip("netns", "del", name)


def terminate_as_exit() -> None:
    """SIGTERM (and SIGHUP) raise SystemExit in the main thread, so ``finally`` blocks —
    the hosts' removal among them — run when the command is stopped as well as on an error
    or Ctrl-C."""
    def stop(signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)


class TcpRelay:
    """Forwards TCP connections from ports on this machine's addresses to servers on its
    loopback, on an event loop in a thread of its own: how hosts reach a PostgreSQL (or a
    broker) that listens on 127.0.0.1 only (its ``listen_addresses`` changes only with a
    restart of the server, which other users share). ``forward(listen, target)`` opens one
    more listening port (port 0: a free one) and returns it; ``relayed`` counts the connections
    forwarded from each listening address."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="tcp-relay",
                                       daemon=True)
        self.servers: list[asyncio.Server] = []
        self.relayed: dict[str, int] = {}
        self.thread.start()

    def forward(self, listen: tuple[str, int], target: tuple[str, int]) -> int:
        server = asyncio.run_coroutine_threadsafe(self._serve(listen, target),
                                                  self.loop).result(10)
        self.servers.append(server)
        return int(server.sockets[0].getsockname()[1])

    async def _serve(self, listen: tuple[str, int], target: tuple[str, int]
                     ) -> asyncio.Server:
        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.relayed[listen[0]] = self.relayed.get(listen[0], 0) + 1
            try:
                up_reader, up_writer = await asyncio.open_connection(*target)
            except OSError:
                writer.close()
                return
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

        return await asyncio.start_server(accept, *listen)

    def close(self) -> None:
        async def shut() -> None:
            for server in self.servers:
                server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.CancelledError):
        pass
    finally:
        writer.close()
