"""Browser tests and tests that add network interfaces take turns.

Chromium watches this machine's interfaces (netlink) and aborts every request in flight with
``net::ERR_NETWORK_CHANGED`` when an address appears or goes. The separate-hosts tests
(``tests.hosts``, ``tools.netns``) add veth links with addresses in the root namespace, so a
browser test running beside them on another pytest-xdist worker loses a request at random.

Browser tests hold ``steady_network()`` (shared: they run side by side); tests that add or
remove interfaces hold ``changing_network()`` (exclusive). A turnstile lock lets a waiting
changer in before new browser tests start, so a stream of browser tests on three workers
cannot keep it waiting for the whole run. Both are ``flock`` locks on files in the temporary
folder: every worker of one run, and of runs side by side, sees the same ones.
"""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_FOLDER = Path(tempfile.gettempdir())
_NETWORK = _FOLDER / "cardlab-tests-network.lock"
_TURNSTILE = _FOLDER / "cardlab-tests-network-turnstile.lock"


@contextmanager
def _locked(path: Path, mode: int) -> Iterator[None]:
    with open(path, "a+b") as handle:
        fcntl.flock(handle, mode)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def steady_network() -> Iterator[None]:
    """No interface is added or removed on this machine while the block runs."""
    with _locked(_TURNSTILE, fcntl.LOCK_EX):
        pass
    with _locked(_NETWORK, fcntl.LOCK_SH):
        yield


@contextmanager
def changing_network() -> Iterator[None]:
    """No browser test runs while the block adds or removes interfaces."""
    with _locked(_TURNSTILE, fcntl.LOCK_EX):
        network = open(_NETWORK, "a+b")
        fcntl.flock(network, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(network, fcntl.LOCK_UN)
        network.close()
