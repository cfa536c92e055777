"""The AI ladder: how much stronger each agent is than the one below it.

``python -m rules.lab.ladder [--games 1000] [--processes 2] [--set FILE] [--json] [--write]``
plays, for each rung (each agent against the weaker ones it is measured against in
``rules.ai.agents``: greedy vs random, search vs greedy, planner vs greedy and vs search, the
lean planner vs greedy and vs the planner it must match), the given
number of seat-swapped games spread over every pairing of the starter decks — each deck meets
each other deck with the stronger agent on either side — and prints the stronger agent's win
rate with a Wilson 95 % interval. Seeds are fixed, so a rerun prints the same figures (the
timings aside). ``--json`` prints ``{"<strong>-vs-<weak>": {"games", "wins", "losses",
"draws", "errors", "win_rate", "average_turns", "cpu_seconds_per_game"}}``, the last giving the
CPU seconds each agent's decisions took per game and the rest of the game (``engine``);
``--write`` also stores it as ``rules/data/ladder.json``, the result the strength table
(``rules.ai.ratings``) and the site's time estimates are computed from.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rules.ai.agents import ladder_rungs, make_agent
from rules.ai.ratings import LADDER_FILE
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set
from rules.engine.actions import Action
from rules.engine.agent import Agent
from rules.engine.view import PlayerView
from rules.lab.match import game_seed, play_game, tally
from rules.lab.stats import MatchCounts, MatchStats

RUNGS = ladder_rungs()
SEED = 77


class _Timed:
    """An agent whose decisions are timed (CPU seconds of this process)."""

    def __init__(self, agent: Agent) -> None:
        self.agent, self.needs_view, self.seconds = agent, agent.needs_view, 0.0

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        start = time.process_time()
        action = self.agent.choose(view, legal, rng)
        self.seconds += time.process_time() - start
        return action


# (card set, strong agent, weak agent, deck A, deck B, seed, games, agent maker): one worker's job
_Slice = tuple[Path, str, str, str, str, int, int, Callable[[str], Agent]]


def _play_slice(args: _Slice) -> tuple[MatchCounts, float, float, float]:
    """The games ``match.run_games`` would play for this slice, with the agents timed:
    (counts, strong agent's seconds, weak agent's seconds, total seconds)."""
    path, strong, weak, deck_a, deck_b, seed, games, make = args
    card_set = load_card_set(path)
    first, second = _Timed(make(strong)), _Timed(make(weak))
    stats = MatchStats()
    start = time.process_time()
    for index in range(games):
        tally(stats, play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                               seed=game_seed(seed, index), a_first=index % 2 == 0,
                               agent_a=first, agent_b=second))
    return stats.counts(), first.seconds, second.seconds, time.process_time() - start


def rung(path: Path, strong: str, weak: str, games: int, processes: int,
         make: Callable[[str], Agent] = make_agent) -> tuple[MatchStats, dict[str, float]]:
    """``games`` games of ``strong`` against ``weak`` over all ordered deck pairings, and the
    CPU seconds per game of each agent's decisions and of the rest (``engine``). ``make``
    builds an agent from its name (a module-level function: it goes to worker processes)."""
    names = list(load_card_set(path).decks)
    pairings = list(itertools.permutations(names, 2))
    per_pairing = max(2, -(-games // len(pairings)))
    per_pairing += per_pairing % 2
    jobs = [(path, strong, weak, a, b, SEED + i, per_pairing, make)
            for i, (a, b) in enumerate(pairings)]
    total = MatchStats()
    seconds = [0.0, 0.0, 0.0]
    with ProcessPoolExecutor(max_workers=processes) as pool:
        for counts, *spent in pool.map(_play_slice, jobs):
            total = total.merge(MatchStats.from_counts(counts))
            seconds = [a + b for a, b in zip(seconds, spent, strict=True)]
    played = max(1, per_pairing * len(pairings))
    per_game = {strong: seconds[0] / played, weak: seconds[1] / played,
                "engine": max(0.0, seconds[2] - seconds[0] - seconds[1]) / played}
    return total, per_game


PROBE_AGENTS = ("greedy", "random")   # the cheapest rung: a probe of the rules' speed, mostly


def pace_probe(path: Path, budget_seconds: float, max_games: int = 400,
               agents: tuple[str, str] = PROBE_AGENTS) -> dict[str, float]:
    """Games between ``agents`` (by default the cheapest rung) played here for about
    ``budget_seconds`` of wall-clock time (at least two), one per ordered deck pairing in turn:
    ``{"games", "wall_seconds", "cpu_seconds"}``. Divided by the same games' CPU seconds in the
    stored ladder result, the wall time says how much slower (or faster) this machine, as
    loaded now, plays than the machine that wrote the ladder: the factor the time estimates
    need."""
    card_set = load_card_set(path)
    pairings = list(itertools.permutations(card_set.decks, 2))
    strong, weak = (make_agent(name) for name in agents)
    wall, cpu = time.perf_counter(), time.process_time()
    games = 0
    while games < max_games and (games < 2 or time.perf_counter() - wall < budget_seconds):
        deck_a, deck_b = pairings[games % len(pairings)]
        play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                  seed=game_seed(SEED, games), a_first=games % 2 == 0,
                  agent_a=strong, agent_b=weak)
        games += 1
    return {"games": games, "wall_seconds": time.perf_counter() - wall,
            "cpu_seconds": time.process_time() - cpu}


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--set", dest="card_set", default=None)
    parser.add_argument("--rung", choices=[f"{s}-{w}" for s, w in RUNGS], default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true",
                        help=f"store the JSON result as {LADDER_FILE.name} (the strength table)")
    args = parser.parse_args(argv)
    path = Path(args.card_set) if args.card_set else (CORE_SET if CORE_SET.exists()
                                                      else TEST_SET)
    report: dict[str, dict[str, Any]] = {}
    for strong, weak in RUNGS:
        if args.rung and args.rung != f"{strong}-{weak}":
            continue
        measured, per_game = rung(path, strong, weak, args.games, args.processes)
        stats = measured.to_dict()
        report[f"{strong}-vs-{weak}"] = {k: stats[k] for k in (
            "games", "wins", "losses", "draws", "errors", "win_rate", "average_turns")}
        report[f"{strong}-vs-{weak}"]["cpu_seconds_per_game"] = {
            name: round(value, 6) for name, value in per_game.items()}
        if not args.json:
            rate = stats["win_rate"]
            share = rate["rate"]
            assert share is not None, (strong, weak)    # the rung played its games
            print(f"{strong} vs {weak}: {stats['games']} games, {strong} wins "
                  f"{share * 100:.1f} % (95 % CI {rate['low'] * 100:.1f} – "
                  f"{rate['high'] * 100:.1f} %), draws {stats['draws']}, errors "
                  f"{stats['errors']}, {stats['average_turns']:.1f} turns/game, "
                  f"{sum(per_game.values()) * 1000:.1f} ms CPU/game", flush=True)
    if args.json:
        print(json.dumps(report))
    if args.write:      # a single --rung replaces its own entry and keeps the others
        stored = json.loads(LADDER_FILE.read_text(encoding="utf-8")) \
            if args.rung and LADDER_FILE.exists() else {}
        stored.update(report)
        order = [f"{s}-vs-{w}" for s, w in RUNGS]
        stored = {key: stored[key] for key in order if key in stored}
        LADDER_FILE.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
