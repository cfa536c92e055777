"""Browser tests and tests that add network links take turns (tests/network_changes.py):
Chromium aborts the requests in flight when an interface's address changes."""

from __future__ import annotations

import fcntl
import threading

import pytest

from tests import network_changes


@pytest.fixture(autouse=True)
def _own_locks(tmp_path, monkeypatch):
    """This test's lock files, so the suite's real browser tests neither wait nor interfere."""
    monkeypatch.setattr(network_changes, "_NETWORK", tmp_path / "network.lock")
    monkeypatch.setattr(network_changes, "_TURNSTILE", tmp_path / "turnstile.lock")


def _held(path) -> bool:
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def _wait_until(condition) -> None:
    done = threading.Event()
    while not condition():
        done.wait(0.01)


def test_browser_tests_run_side_by_side():
    with network_changes.steady_network(), network_changes.steady_network():
        assert _held(network_changes._NETWORK)


def test_adding_links_waits_for_the_running_browser_test_and_goes_before_the_next():
    order: list[str] = []
    first_browser_test_may_end = threading.Event()

    def first_browser_test():
        with network_changes.steady_network():
            order.append("browser test 1 runs")
            first_browser_test_may_end.wait(10)
            order.append("browser test 1 ends")

    def hosts_test():
        with network_changes.changing_network():
            order.append("links added and removed")

    def second_browser_test():
        with network_changes.steady_network():
            order.append("browser test 2 runs")

    first = threading.Thread(target=first_browser_test)
    first.start()
    _wait_until(lambda: order == ["browser test 1 runs"])
    hosts = threading.Thread(target=hosts_test)
    hosts.start()
    # The hosts test waits at the turnstile's far side: it holds the turnstile now.
    _wait_until(lambda: _held(network_changes._TURNSTILE))
    second = threading.Thread(target=second_browser_test)
    second.start()
    first_browser_test_may_end.set()
    for thread in (first, hosts, second):
        thread.join(10)
    assert order == ["browser test 1 runs", "browser test 1 ends", "links added and removed",
                     "browser test 2 runs"]
