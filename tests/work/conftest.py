"""Fixtures for the work protocol's tests: the test set's catalogue and users, and a broker
queue of each test's own; the runs and jobs they lease come from the simulation and balance
tests' helpers."""

from __future__ import annotations

from tests.fixtures import (  # noqa: F401  (fixtures used by the tests here)
    _empty_cache,
    alice,
    bob,
    catalogue,
    unique_queue,
)
