"""Tuning the planner's evaluation by self-play: coordinate ascent on common random numbers.

``python -m rules.planner_tuning [--games 8] [--seed 77] [--processes 2] [--weights a,b]
[--factor 2]`` plays the planner against the greedy agent over every ordered pairing of the
starter decks (``--games`` seat-swapped games a pairing, the ladder's seeds), once with the
current weights and once with each weight multiplied and divided by ``--factor`` (or moved by
±1 when it is 0), and keeps a change only when it wins more of the *same* games — every
candidate plays the same seeds, so the comparison is paired and much less noisy than two
independent samples. It prints each trial and the weights it ends with; paste them into
``rules.planner.WEIGHTS`` and rerun the ladder (``python -m rules.ladder --json --write``) on
other seeds before trusting a gain.
"""

from __future__ import annotations

import argparse
import itertools
import json
from concurrent.futures import ProcessPoolExecutor

from rules.agents import make_agent
from rules.cardset import CORE_SET, load_card_set
from rules.match import game_seed, play_game
from rules.planner import WEIGHTS, PlannerAgent


def _slice(args: tuple) -> int:
    weights, deck_a, deck_b, seed, games = args
    card_set = load_card_set(CORE_SET)
    planner, greedy = PlannerAgent(weights=weights), make_agent("greedy")
    wins = 0
    for index in range(games):
        result = play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                           seed=game_seed(seed, index), a_first=index % 2 == 0,
                           agent_a=planner, agent_b=greedy)
        wins += result.winner == "a"
    return wins


def wins(weights: dict[str, float], games: int, seed: int, pool: ProcessPoolExecutor) -> int:
    """The planner's wins against greedy on the fixed seeds."""
    names = list(load_card_set(CORE_SET).decks)
    jobs = [(weights, a, b, seed + i, games)
            for i, (a, b) in enumerate(itertools.permutations(names, 2))]
    return sum(pool.map(_slice, jobs))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--weights", default=",".join(WEIGHTS))
    parser.add_argument("--factor", type=float, default=2.0)
    args = parser.parse_args(argv)
    current = dict(WEIGHTS)
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        best = wins(current, args.games, args.seed, pool)
        print(f"start: {best} wins", flush=True)
        for name in args.weights.split(","):
            value = current[name]
            trials = [value * args.factor, value / args.factor] if value else [1.0, -1.0]
            for trial in trials:
                candidate = {**current, name: trial}
                score = wins(candidate, args.games, args.seed, pool)
                print(f"{name} = {trial:g}: {score} wins (best {best})", flush=True)
                if score > best:
                    best, current = score, candidate
                    break
    print(json.dumps(current))
    return current


if __name__ == "__main__":
    main()
