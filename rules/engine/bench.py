"""Engine benchmark: ``python -m rules.engine.bench [--json] [--games N] [--set FILE]``.

Plays the starter decks of a card set against each other (every ordered pairing, seat-swapped,
fixed seeds, event logging off) in this one process, so the figures are per core:
random-vs-random and greedy-vs-greedy games/s and actions/s, average game turns, and the
search agent's seconds per game against greedy. Times are the process's CPU time (per core,
steady while other work shares the machine). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from rules.agents import make_agent
from rules.cardset import CORE_SET, TEST_SET, load_card_set
from rules.engine.compiled import ENGINE_MODULES, compiled_modules, describe
from rules.match import game_seed, play_game

SEED = 20261121


def measure(cards, decks, agent_a: str, agent_b: str, games: int) -> dict:
    """Play ``games`` games spread over all deck pairings; return throughput figures."""
    pairings = list(itertools.permutations(decks, 2)) or [(decks[0], decks[0])]
    first, second = make_agent(agent_a), make_agent(agent_b)
    played = turns = actions = errors = 0
    # CPU time of this process: a per-core figure that other work on the machine barely moves.
    started, wall = time.process_time(), time.perf_counter()
    for index in range(games):
        deck_a, deck_b = pairings[(index // 2) % len(pairings)]
        result = play_game(cards, deck_a, deck_b, seed=game_seed(SEED, index),
                           a_first=index % 2 == 0, agent_a=first, agent_b=second)
        played += 1
        turns += result.turns
        actions += result.actions
        errors += result.error is not None
    elapsed = time.process_time() - started
    return {"agents": f"{agent_a}-vs-{agent_b}", "games": played, "cpu_seconds": round(elapsed, 3),
            "wall_seconds": round(time.perf_counter() - wall, 3),
            "games_per_second": round(played / elapsed, 1),
            "actions_per_second": round(actions / elapsed, 1),
            "seconds_per_game": round(elapsed / played, 5),
            "average_turns": round(turns / played, 2),
            "average_actions": round(actions / played, 1), "errors": errors}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per random and greedy measurement (default 2000)")
    parser.add_argument("--search-games", type=int, default=20)
    parser.add_argument("--set", dest="card_set", default=None)
    args = parser.parse_args(argv)
    path = Path(args.card_set) if args.card_set else (CORE_SET if CORE_SET.exists()
                                                      else TEST_SET)
    card_set = load_card_set(path)
    decks = list(card_set.decks.values())
    compiled = compiled_modules()
    report = {"card_set": path.name, "decks": [d.name for d in decks], "seed": SEED,
              "compiled": f"{len(compiled)} of {len(ENGINE_MODULES)} engine modules (mypyc)",
              "engine": describe(),
              "random": measure(card_set.cards, decks, "random", "random", args.games),
              "greedy": measure(card_set.cards, decks, "greedy", "greedy", args.games)}
    if args.search_games > 0:
        report["search"] = measure(card_set.cards, decks, "search", "greedy",
                                   args.search_games)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"card set {report['card_set']}: {len(decks)} starter decks, seed {SEED}; "
              f"engine: {report['engine']}")
        for key in ("random", "greedy", "search"):
            if key in report:
                row = report[key]
                print(f"  {row['agents']:<18} {row['games_per_second']:>9.1f} games/s/core  "
                      f"{row['actions_per_second']:>10.0f} actions/s  "
                      f"{row['average_turns']:>5.1f} turns/game  "
                      f"{row['seconds_per_game'] * 1000:>8.2f} ms/game  errors {row['errors']}")
    return report


if __name__ == "__main__":
    main()
