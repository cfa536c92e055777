"""Helpers shared by the simulation tests: play a run's chunks in this process (the service a
worker calls, without a broker), and what the engine's own match runner finds for comparison."""

from __future__ import annotations

from rules.decks.cardset import TEST_SET, load_card_set
from rules.lab.match import run_games
from simulations.execution import chunk_execute
from simulations.models import SimulationRun
from tests.fixtures import LEGAL_CARDS, PASSWORD  # noqa: F401  (re-exported to the tests)

DAWN = "starter:Dawn Test"
DUSK = "starter:Dusk Test"


def play_all(run: SimulationRun, order=None, claim_prefix: str = "test") -> list[str]:
    """Execute every chunk of the run in this process (in ``order`` of chunk indices)."""
    chunks = {c.index: c.pk for c in run.chunks.all()}
    outcomes = []
    for index in order if order is not None else sorted(chunks):
        outcomes.append(chunk_execute(chunk_id=chunks[index], claim=f"{claim_prefix}-{index}",
                                      worker="test@host"))
    run.refresh_from_db()
    return outcomes


def reference_counts(deck_a: str, deck_b: str, *, seed: int, games: int,
                     agent_a: str = "greedy", agent_b: str = "random") -> dict:
    """What the engine's own match runner finds for the whole run, in one call."""
    card_set = load_card_set(TEST_SET)
    stats, _ = run_games(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                         seed=seed, start=0, stop=games, agent_a=agent_a, agent_b=agent_b)
    return stats.counts()
