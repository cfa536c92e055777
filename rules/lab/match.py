"""The match runner: plays games between two decks and gathers MatchStats.

Games come in seat-swapped pairs: game ``g`` of a run is pair ``g // 2``; both games of a pair
share one game seed, and deck A goes first in the even game and second in the odd one, so
neither deck profits from the first-player advantage (R2.1.2 ruling). Seeds are derived from
the run seed and the game index alone, so any slice of a run (a chunk on a worker) plays exactly
the games the whole run would.

Invariants: an exception inside a game is caught and recorded with the game's seed — never
counted as a win or a loss; a game that exceeds ``MAX_ACTIONS`` is an engine error too.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.ai.agents import BASELINE_AGENT, make_agent
from rules.engine.cards import STANDARD, CardDef, DeckList, Ruleset
from rules.engine.game import Game
from rules.lab.stats import DeckUsage, MatchStats

if TYPE_CHECKING:
    from rules.engine.agent import Agent

MAX_ACTIONS = 20_000
_MASK = (1 << 63) - 1


def game_seed(run_seed: int, game_index: int) -> int:
    """The seed of one game of a run; both games of a seat-swapped pair share it."""
    pair = game_index // 2
    return (run_seed * 6364136223846793005 + pair * 1442695040888963407 + 1) & _MASK


@dataclass
class GameResult:
    winner: str | None        # "a", "b" or None (draw or error)
    a_first: bool
    turns: int
    actions: int
    seed: int
    error: str | None = None
    log: dict[str, Any] | None = None
    # Per deck (A, then B): ({code: times played}, {code: times awakened},
    # {code: times drawn}, {code: copies in the opening hand kept after the mulligan}).
    usage: tuple[DeckUsage, DeckUsage] | None = None


class EngineError(RuntimeError):
    pass


def play_game(cards: Mapping[str, CardDef], deck_a: DeckList, deck_b: DeckList, *,
              seed: int, a_first: bool, agent_a: Agent, agent_b: Agent,
              ruleset: Ruleset = STANDARD, log: bool = False) -> GameResult:
    """One game, deck A in seat 0 and deck B in seat 1; errors are caught and reported."""
    game = None
    try:
        game = Game(cards, [deck_a, deck_b], seed=seed, ruleset=ruleset, log=log,
                    first_player=0 if a_first else 1)
        rngs = (random.Random(seed ^ 0xA5A5A5A5), random.Random(seed ^ 0x5A5A5A5A))
        count = game.play_out((agent_a, agent_b), rngs, MAX_ACTIONS + 1)
        if game.decision is not None:
            raise EngineError(f"no result after {MAX_ACTIONS} actions")
        winner = {0: "a", 1: "b", None: None}[game.winner]
        usage = ((game.played[0], game.awakened[0], game.drawn[0], game.opening[0]),
                 (game.played[1], game.awakened[1], game.drawn[1], game.opening[1]))
        return GameResult(winner, a_first, game.turn, count, seed,
                          log=game.log() if log else None, usage=usage)
    except Exception as exc:  # an engine bug must not stop a run: report it with its seed
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return GameResult(None, a_first, game.turn if game else 0, 0, seed,
                          error=f"{detail} (at {where.filename}:{where.lineno})")


def play_games(cards: Mapping[str, CardDef], deck_a: DeckList, deck_b: DeckList, *,
               seed: int, start: int, stop: int, agent_a: str = BASELINE_AGENT,
               agent_b: str = BASELINE_AGENT, ruleset: Ruleset = STANDARD,
               log_game: Callable[[int], bool] = lambda index: False,
               ) -> Iterator[tuple[int, GameResult]]:
    """Games ``start``..``stop-1`` of a run, played one at a time as they are asked for:
    ``(game index, result)``. ``log_game(index)``, asked just before a game is played, says
    whether to keep its event log. Every caller that plays a slice of a run (a whole match, a
    simulation chunk on a worker) plays it here, so all of them play the same games."""
    first, second = make_agent(agent_a), make_agent(agent_b)
    for index in range(start, stop):
        yield index, play_game(cards, deck_a, deck_b, seed=game_seed(seed, index),
                               a_first=index % 2 == 0, agent_a=first, agent_b=second,
                               ruleset=ruleset, log=log_game(index))


def tally(stats: MatchStats, result: GameResult) -> None:
    """Count one game's result into ``stats``."""
    stats.add_game(winner=result.winner, a_first=result.a_first, turns=result.turns,
                   actions=result.actions, error=result.error, seed=result.seed,
                   usage=result.usage)


def run_games(cards: Mapping[str, CardDef], deck_a: DeckList, deck_b: DeckList, *,
              seed: int, start: int, stop: int, agent_a: str = BASELINE_AGENT,
              agent_b: str = BASELINE_AGENT, ruleset: Ruleset = STANDARD,
              progress: Callable[[int], None] | None = None,
              keep_logs: int = 0) -> tuple[MatchStats, list[GameResult]]:
    """Play games ``start``..``stop-1`` of a run; returns their stats and up to
    ``keep_logs`` full game logs (the first games of the slice) for replays."""
    stats = MatchStats()
    kept: list[GameResult] = []
    games = play_games(cards, deck_a, deck_b, seed=seed, start=start, stop=stop,
                       agent_a=agent_a, agent_b=agent_b, ruleset=ruleset,
                       log_game=lambda index: len(kept) < keep_logs)
    for index, result in games:
        if result.log is not None:
            kept.append(result)
        tally(stats, result)
        if progress is not None:
            progress(index - start + 1)
    return stats, kept


def run_match(cards: Mapping[str, CardDef], deck_a: DeckList, deck_b: DeckList, *,
              games: int, seed: int, agent_a: str = BASELINE_AGENT, agent_b: str = BASELINE_AGENT,
              ruleset: Ruleset = STANDARD,
              progress: Callable[[int], None] | None = None) -> MatchStats:
    """A whole run of ``games`` games (rounded up to whole seat-swapped pairs)."""
    games += games % 2
    stats, _ = run_games(cards, deck_a, deck_b, seed=seed, start=0, stop=games,
                         agent_a=agent_a, agent_b=agent_b, ruleset=ruleset, progress=progress)
    return stats
