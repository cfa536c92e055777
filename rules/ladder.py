"""The AI ladder: how much stronger each agent is than the one below it.

``python -m rules.ladder [--games 1000] [--processes 2] [--set FILE] [--json]`` plays, for
each rung (each agent against the weaker one it is measured against in
``rules.agents``: greedy vs random, search vs greedy), the given number of seat-swapped games spread
over every pairing of the starter decks — each deck meets each other deck with the stronger
agent on either side — and prints the stronger agent's win rate with a Wilson 95 % interval.
Seeds are fixed, so a rerun prints the same figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rules.agents import ladder_rungs
from rules.cardset import CORE_SET, TEST_SET, load_card_set
from rules.match import run_games
from rules.stats import MatchStats

RUNGS = ladder_rungs()
SEED = 77


def _play_slice(args: tuple) -> dict:
    path, strong, weak, deck_a, deck_b, seed, games = args
    card_set = load_card_set(path)
    stats, _ = run_games(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                         seed=seed, start=0, stop=games, agent_a=strong, agent_b=weak)
    return stats.counts()


def rung(path: Path, strong: str, weak: str, games: int, processes: int) -> MatchStats:
    """``games`` games of ``strong`` against ``weak`` over all ordered deck pairings."""
    names = list(load_card_set(path).decks)
    pairings = list(itertools.permutations(names, 2))
    per_pairing = max(2, -(-games // len(pairings)))
    per_pairing += per_pairing % 2
    jobs = [(path, strong, weak, a, b, SEED + i, per_pairing)
            for i, (a, b) in enumerate(pairings)]
    total = MatchStats()
    with ProcessPoolExecutor(max_workers=processes) as pool:
        for counts in pool.map(_play_slice, jobs):
            total = total.merge(MatchStats.from_counts(counts))
    return total


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--set", dest="card_set", default=None)
    parser.add_argument("--rung", choices=[f"{s}-{w}" for s, w in RUNGS], default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    path = Path(args.card_set) if args.card_set else (CORE_SET if CORE_SET.exists()
                                                      else TEST_SET)
    report = {}
    for strong, weak in RUNGS:
        if args.rung and args.rung != f"{strong}-{weak}":
            continue
        stats = rung(path, strong, weak, args.games, args.processes).to_dict()
        report[f"{strong}-vs-{weak}"] = {k: stats[k] for k in (
            "games", "wins", "losses", "draws", "errors", "win_rate", "average_turns")}
        if not args.json:
            rate = stats["win_rate"]
            print(f"{strong} vs {weak}: {stats['games']} games, {strong} wins "
                  f"{rate['rate'] * 100:.1f} % (95 % CI {rate['low'] * 100:.1f} – "
                  f"{rate['high'] * 100:.1f} %), draws {stats['draws']}, errors "
                  f"{stats['errors']}, {stats['average_turns']:.1f} turns/game", flush=True)
    if args.json:
        print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
