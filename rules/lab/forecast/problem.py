"""What a meta forecast plays: archetypes (printed lists), the card pool (patched or not), the
agent, how far a list may drift, when the rounds stop, and the games each step may spend.

Invariants: an archetype keeps its hero; every list it plays is legal in the format and differs
from its printed list in at most ``max_changes`` cards (``rules.lab.deck_tuning.problem.changes``);
the same problem and seed give the same forecast, round for round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.ai.agents import DEFAULT_AGENT
from rules.decks.legality import STANDARD as STANDARD_FORMAT
from rules.decks.legality import Format
from rules.engine.cards import STANDARD, CardDef, DeckList, Ruleset
from rules.lab.meta import DEFAULT_EPSILON

FEW_ARCHETYPES = "A forecast needs at least two archetypes (got {count})."
SAME_NAMES = "Two archetypes share the name {name!r}."
BAD_SETTLE = "--settle: give a number of points from 0 to 50 (got {value})."
SAME_AGENT = "--agents: each agent once (got {agents})."
BAD_CHANGES = "--max-changes: give a whole number from 1 to 15 (got {value})."


class ForecastError(ValueError):
    """A forecast that cannot be run; the message says what to fix."""


DEFAULT_BAND = (0.45, 0.55)     # a field win rate outside it gets a verdict (nerf, buff)


@dataclass(frozen=True)
class ForecastProblem:
    cards: Mapping[str, CardDef]                # the pool as played (a patch already made)
    archetypes: tuple[DeckList, ...]            # printed lists, named
    agent: str = DEFAULT_AGENT
    ruleset: Ruleset = STANDARD
    fmt: Format = STANDARD_FORMAT
    set_of: Mapping[str, str] | None = None
    pool: tuple[str, ...] | None = None         # cards that may come in (None: every card)
    max_changes: int = 15                       # cards a list may differ from its printed one
    swaps_per_round: int = 2                    # swaps one round's tuning may add
    settle: float = 0.01                        # a verified gain above this keeps rounds going
    # Seed 2 of the six starters settles in 14 rounds (seed 1 in 9): at 12 it stopped unsettled.
    max_rounds: int = 20                        # a check (rounds.py) is a round too
    budget_games: int = 3_000_000               # every game but the final figures'
    tune_games: int = 30_000                    # one tuning's search games
    verify_games: int = 400                     # one tuning's fresh games per opponent
    round_games: int = 400                      # each matchup, each round (shared seeds)
    final_games: int = 1_000                    # each matchup of the settled field (fresh)
    exploit_swaps: int = 3                      # exploitability: one more tuning's swaps
    epsilon: float = DEFAULT_EPSILON
    seed: int = 1
    further_agents: tuple[str, ...] = ()        # also play the settled field (Riot's rule)
    band: tuple[float, float] = DEFAULT_BAND    # a field win rate outside: a verdict
    # False: no exploitability after the rounds (a quick look at the lists' first answer to a
    # patch, ``balance_search.answer``), where one more tuning of every list costs a round.
    exploitability: bool = True

    def check(self) -> None:
        if len(self.archetypes) < 2:
            raise ForecastError(FEW_ARCHETYPES.format(count=len(self.archetypes)))
        seen: set[str] = set()
        for deck in self.archetypes:
            if deck.name.casefold() in seen:
                raise ForecastError(SAME_NAMES.format(name=deck.name))
            seen.add(deck.name.casefold())
        if not 0 <= self.settle <= 0.5:
            raise ForecastError(BAD_SETTLE.format(value=round(self.settle * 100, 2)))
        if self.agent in self.further_agents or len(set(self.further_agents)) != len(
                self.further_agents):
            raise ForecastError(SAME_AGENT.format(agents=", ".join(
                (self.agent, *self.further_agents))))
        if not 1 <= self.max_changes <= 15:
            raise ForecastError(BAD_CHANGES.format(value=self.max_changes))
