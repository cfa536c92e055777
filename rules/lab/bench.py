"""Engine benchmark: ``python -m rules.lab.bench [--json] [--games N] [--set FILE]``.

Plays the starter decks of a card set against each other (every ordered pairing, seat-swapped,
fixed seeds, event logging off) in this one process, so the figures are per core:
for every registered agent (``rules.ai.agents``), a fast one against itself (``--games``:
games/s and actions/s, average game turns), a planning one against the default agent
(``--search-games``: seconds per game). Times are the process's CPU time (per core, steady
while other work shares the machine). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.ai.agents import AGENTS, DEFAULT_AGENT, make_agent
from rules.compiled import compiled_modules, describe
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set
from rules.engine.cards import CardDef, DeckList
from rules.lab.match import game_seed, play_game
from rules.loader import ENGINE_MODULES

SEED = 20261121


def measure(cards: Mapping[str, CardDef], decks: Sequence[DeckList], agent_a: str, agent_b: str,
            games: int) -> dict[str, Any]:
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


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per fast agent's measurement (default 2000)")
    parser.add_argument("--search-games", type=int, default=20,
                        help="games per planning agent's measurement (default 20; 0: none)")
    parser.add_argument("--set", dest="card_set", default=None)
    args = parser.parse_args(argv)
    path = Path(args.card_set) if args.card_set else (CORE_SET if CORE_SET.exists()
                                                      else TEST_SET)
    card_set = load_card_set(path)
    decks = list(card_set.decks.values())
    compiled = compiled_modules()
    report: dict[str, Any] = {"card_set": path.name, "decks": [d.name for d in decks], "seed": SEED,
              "compiled": f"{len(compiled)} of {len(ENGINE_MODULES)} engine modules (mypyc)",
              "engine": describe()}
    for spec in AGENTS:
        games = args.games if spec.fast else args.search_games
        if games > 0:
            opponent = spec.name if spec.fast else DEFAULT_AGENT
            report[spec.name] = measure(card_set.cards, decks, spec.name, opponent, games)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"card set {report['card_set']}: {len(decks)} starter decks, seed {SEED}; "
              f"engine: {report['engine']}")
        for key in (spec.name for spec in AGENTS):
            if key in report:
                row = report[key]
                print(f"  {row['agents']:<18} {row['games_per_second']:>9.1f} games/s/core  "
                      f"{row['actions_per_second']:>10.0f} actions/s  "
                      f"{row['average_turns']:>5.1f} turns/game  "
                      f"{row['seconds_per_game'] * 1000:>8.2f} ms/game  errors {row['errors']}")
    return report


if __name__ == "__main__":
    main()
