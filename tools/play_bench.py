"""What playing costs on this machine: an agent's move, and a request's replay of the game.

Plays ``games`` games of the core set's starter decks (every pairing in turn, fixed seeds) with
greedy standing in for the person in seat P1 and the agent under test in P2, and times with the
process's CPU clock

- each of the agent's decisions (``agent.choose`` from the seat's view), as the play app's
  thread makes it;
- what every request of the game page does before it renders: replay the stored actions from
  the start (``play.engine.adapter``), snapshot each step, word the log for the seat
  (``play.seat.log_text``) and take its view — measured at the end of each game, the longest
  replay it needs.

CPU time, not wall time: the machine is shared and its clock swings; the figures are for one
core.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any
from unittest.mock import patch

from play.engine.adapter import History, agent_rng
from play.seat.log_text import step_lines
from rules.ai.agents import make_agent
from rules.decks.cardset import CORE_SET, load_card_set
from rules.engine import Action, Game
from rules.engine.cards import CardDef, DeckList


@dataclass
class Figures:
    agent: str
    games: int = 0
    moves: list[float] = field(default_factory=list)
    replays: list[float] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        moves = sorted(self.moves)
        p95 = moves[int(0.95 * (len(moves) - 1))] if moves else 0.0
        return [
            f"{self.agent} in P2, greedy in P1: {self.games} games, {len(moves)} decisions "
            f"of {self.agent}, {statistics.mean(self.actions):.0f} actions a game",
            f"  {self.agent}'s move (CPU s): median {statistics.median(moves):.4f}, "
            f"95th percentile {p95:.4f}, max {moves[-1]:.4f}",
            f"  a request's replay of a whole game with its log and view (CPU s): median "
            f"{statistics.median(self.replays):.4f}, max {max(self.replays):.4f}",
        ]


def _replay_cost(cards: Mapping[str, CardDef], decks: Sequence[DeckList], seed: int,
                 actions: list[dict[str, Any]]) -> float:
    """CPU seconds of what the game page does before rendering: replay, log, view."""
    begin = time.process_time()
    game = Game(cards, decks, seed=seed)
    snapshots = [game.snapshot()]
    for action in actions:
        game.apply(Action.from_dict(action), check=False)
        snapshots.append(game.snapshot())
    history = History(game=game, snapshots=snapshots)
    seat = game.to_move if game.to_move is not None else 0
    names = {code: card.name_en for code, card in cards.items()}
    step_lines(events=list(game.events or []), snapshots=history.snapshots, names=names,
               viewer=seat)
    game.view(seat).to_dict()
    return time.process_time() - begin


def play_bench(*, agent: str = "planner", games: int = 6, seed: int = 1) -> Figures:
    card_set = load_card_set(CORE_SET)
    pairings = list(permutations(card_set.decks.values(), 2))
    figures = Figures(agent=agent)
    for index in range(games):
        decks = list(pairings[index % len(pairings)])
        game_seed = seed + index
        game = Game(card_set.cards, decks, seed=game_seed)
        actions: list[dict[str, Any]] = []
        players = (make_agent("greedy"), make_agent(agent))
        while not game.over:
            seat = int(game.to_move or 0)
            step = len(actions)
            legal = game.legal_actions()
            view = game.view(seat)
            begin = time.process_time()
            chosen = players[seat].choose(view, legal, agent_rng(game_seed, step))
            if seat == 1:
                figures.moves.append(time.process_time() - begin)
            game.apply(chosen)
            actions.append(chosen.to_dict())
        figures.replays.append(_replay_cost(card_set.cards, decks, game_seed, actions))
        figures.actions.append(len(actions))
        figures.games += 1
    return figures


@dataclass
class StateReads:
    step: int
    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    watch_cold: list[float] = field(default_factory=list)     # a spectator's read
    watch_warm: list[float] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"a play state read at step {self.step} (seat_state + as_dict, CPU s): "
               f"cold median {statistics.median(self.cold):.4f}, "
               f"warm median {statistics.median(self.warm):.4f}"]
        if self.watch_cold:
            out.append(f"a spectator's read at step {self.step} (spectator_data, CPU s): "
                       f"cold median {statistics.median(self.watch_cold):.4f}, "
                       f"warm median {statistics.median(self.watch_warm):.4f}")
        return out


def state_game(step: int = 150, seed: int = 1) -> Any:
    """An unsaved game of the core set's starters, greedy in both seats, ``step`` actions in: the
    first pairing and seed (from ``seed`` on) whose game lasts that long."""
    from play.models import HUMAN, PlayGame

    card_set = load_card_set(CORE_SET)
    pairings = list(permutations(card_set.decks.values(), 2))
    players = (make_agent("greedy"), make_agent("greedy"))
    for tried in range(200):
        decks, game_seed = list(pairings[tried % len(pairings)]), seed + tried
        game = Game(card_set.cards, decks, seed=game_seed)
        actions: list[dict[str, Any]] = []
        while not game.over and len(actions) < step:
            seat = int(game.to_move or 0)
            chosen = players[seat].choose(game.view(seat), game.legal_actions(),
                                          agent_rng(game_seed, len(actions)))
            game.apply(chosen)
            actions.append(chosen.to_dict())
        if len(actions) >= step:
            break
    used = {deck.hero for deck in decks} | {code for deck in decks for code in deck.cards}
    return PlayGame(uid=f"bench-{game_seed}-{step}", version=len(actions),
                    decks=[deck.to_dict() for deck in decks],
                    cards={code: card_set.cards[code].to_dict() for code in sorted(used)},
                    seats=[HUMAN, HUMAN], seed=game_seed, ruleset={}, first_player=None,
                    actions=actions)


def state_read_bench(*, step: int = 150, reads: int = 5, seed: int = 1) -> StateReads:
    """CPU seconds of a play state read (``play.seat.state.seat_state(...).as_dict()``, what the
    API's GET does besides the agent's schedule) at ``step``: cold (nothing cached: the game
    replayed) and warm (read again at the same version, as a poll after an action does)."""
    from play.engine import adapter as engine_adapter
    from play.seat.state import seat_state

    record = state_game(step, seed)
    figures = StateReads(step=len(record.actions))
    forget = getattr(engine_adapter, "history_forget", None)
    for _ in range(reads):
        if forget is not None:
            forget()
        begin = time.process_time()
        seat_state(record).as_dict()
        figures.cold.append(time.process_time() - begin)
        begin = time.process_time()
        seat_state(record).as_dict()
        figures.warm.append(time.process_time() - begin)
    _watch_reads(record, figures, reads, forget)
    return figures


def _watch_reads(record: Any, figures: StateReads, reads: int, forget: Any) -> None:
    """A spectator's read of the same game (``play.spectators.state.spectator_data``: the
    shared replay's redaction, the whole log so far), played by two unsaved people."""
    from django.contrib.auth import get_user_model

    from play.spectators.state import spectator_data

    people = get_user_model()
    record.owner, record.guest = people(username="ann"), people(username="ben")
    for _ in range(reads):
        if forget is not None:
            forget()
        begin = time.process_time()
        spectator_data(record)
        figures.watch_cold.append(time.process_time() - begin)
        begin = time.process_time()
        spectator_data(record)
        figures.watch_warm.append(time.process_time() - begin)


@dataclass
class StepReads:
    """CPU seconds at every step of one game, per way of building the step: the whole answer
    to ``?step=`` and the game at the step alone."""

    steps: int
    answers: dict[str, list[float]] = field(default_factory=dict)
    builds: dict[str, list[float]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [f"?step= at each of the {self.steps} steps of a game, the replayed game kept "
               f"(CPU s: total, median, max)"]
        for way in self.answers:
            answers, builds = self.answers[way], self.builds[way]
            out.append(f"  {way}: the answer {sum(answers):.3f}, "
                       f"{statistics.median(answers):.5f}, {max(answers):.5f}; the game at the "
                       f"step {sum(builds):.3f}, {statistics.median(builds):.5f}, "
                       f"{max(builds):.5f}")
        return out


def _replayed(record: Any, history: History, step: int) -> Game:
    from play.engine.adapter import game_at

    return game_at(record, step)


def _snapshot_or_replayed(record: Any, history: History, step: int) -> Game:
    """How ``?step=`` was answered until 2026-11-27: a main-phase step from its snapshot (the
    generator restarted: fit to be shown, not to play on), any other step replayed."""
    snapshot = history.snapshots[step]
    if snapshot.get("phase") == "main" and (snapshot.get("decision") or {}).get("kind") == "main":
        return Game.from_snapshot(snapshot, record.cards_built, seed=int(record.seed), log=False)
    return _replayed(record, history, step)


def step_reads_bench(*, step: int = 150, seed: int = 1) -> StepReads:
    """``?step=`` (``seat_state(record, step=k).as_dict()``) at every step of a game ``step``
    actions long, three ways measured side by side, step by step: replayed from the start,
    the former way, and rebuilt from the kept snapshots (``game_at_step``, the way used)."""
    from play.engine.adapter import card_defs, game_at_step, game_history
    from play.seat import state as seat_state_module

    record = state_game(step, seed)
    record.cards_built = card_defs(record.cards)
    ways = {"replayed from the start": _replayed,
            "a main-phase step from its snapshot, else replayed (before)": _snapshot_or_replayed,
            "rebuilt from the kept snapshots (now)": game_at_step}
    figures = StepReads(steps=len(record.actions), answers={way: [] for way in ways},
                        builds={way: [] for way in ways})
    seat_state_module.seat_state(record).as_dict()             # the game replayed and kept
    history = game_history(record)
    for at in range(len(record.actions)):
        for way, build in ways.items():
            with patch.object(seat_state_module, "game_at_step", build):
                begin = time.process_time()
                seat_state_module.seat_state(record, step=at).as_dict()
                figures.answers[way].append(time.process_time() - begin)
            begin = time.process_time()
            build(record, history, at)
            figures.builds[way].append(time.process_time() - begin)
    return figures
