"""Tuning the planner's evaluation by self-play: CMA-ES on common random numbers.

``python -m rules.planner_tuning [--generations 6] [--greedy-games 8] [--search-games 4]
[--seed 501] [--processes 2] [--weights a,b,…] [--sigma 0.5] [--out FILE]`` plays the planner,
with each candidate set of evaluation weights, against the greedy agent and against the search
agent over every ordered pairing of the starter decks (``--greedy-games`` and
``--search-games`` seat-swapped games a pairing) and lets CMA-ES (the ``cma`` library: the
covariance-matrix adaptation evolution strategy, which copes with noisy objectives) move the
weights toward more wins. Every candidate plays the *same* seeds, so candidates are compared on
the same deals (common random numbers) and the comparison is much less noisy than independent
samples. The ``attack`` weight is the unit and stays 1. Each generation prints its best
candidate; the end prints the best weights seen (JSON, and into ``--out``). Paste them into
``rules.planner.WEIGHTS`` and rerun the ladder (``python -m rules.ladder --json --write``,
other seeds) before trusting a gain: the tuning seeds are not the ladder's.

``cma`` is a development dependency (``pip install -e .[dev]``); the planner itself needs only
the weights.
"""

from __future__ import annotations

import argparse
import itertools
import json
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rules.agents import make_agent
from rules.cardset import CORE_SET, load_card_set
from rules.match import game_seed, play_game
from rules.planner import WEIGHTS, PlannerAgent

UNIT = "attack"           # every other weight is measured in "points of attack on the board"


def _slice(args: tuple) -> int:
    """The planner's wins with these weights in one pairing's games against one opponent."""
    path, weights, opponent, deck_a, deck_b, seed, games = args
    card_set = load_card_set(path)
    planner, other = PlannerAgent(weights=weights), make_agent(opponent)
    wins = 0
    for index in range(games):
        result = play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                           seed=game_seed(seed, index), a_first=index % 2 == 0,
                           agent_a=planner, agent_b=other)
        wins += result.winner == "a"
    return wins


def score_population(population: list[dict[str, float]], path: Path, games: dict[str, int],
                     seed: int, pool: ProcessPoolExecutor) -> list[int]:
    """Each candidate's wins over the fixed games (the same seeds for every candidate)."""
    pairings = list(itertools.permutations(load_card_set(path).decks, 2))
    jobs, owners = [], []
    for index, weights in enumerate(population):
        for opponent, count in games.items():
            for number, (a, b) in enumerate(pairings):
                if count > 0:
                    jobs.append((path, weights, opponent, a, b, seed + number, count))
                    owners.append(index)
    wins = [0] * len(population)
    for owner, won in zip(owners, pool.map(_slice, jobs, chunksize=1), strict=True):
        wins[owner] += won
    return wins


@dataclass
class Tuning:
    """What a tuning ended with: the best weights seen and their wins, of ``games``."""
    weights: dict[str, float]
    wins: int
    start_wins: int
    games: int
    mean: dict[str, float] = field(default_factory=dict)    # CMA-ES's last mean


def tune(names: list[str], *, path: Path = CORE_SET, games: dict[str, int], seed: int,
         generations: int, sigma: float = 0.5, population: int = 0, processes: int = 2,
         start: dict[str, float] = WEIGHTS, report=print) -> Tuning:
    """CMA-ES over the weights ``names`` (the others stay as in ``start``), ``games``
    seat-swapped games a pairing against each opponent; deterministic for a given seed."""
    with warnings.catch_warnings():           # it would plot with matplotlib, if it were here
        warnings.simplefilter("ignore")
        import cma

    options: dict = {"seed": seed, "verbose": -9}
    if population:
        options["popsize"] = population
    strategy = cma.CMAEvolutionStrategy([start[n] for n in names], sigma, options)

    def weights_of(vector) -> dict[str, float]:
        return {**start, **{n: round(float(v), 3) for n, v in zip(names, vector, strict=True)}}

    decks = len(load_card_set(path).decks)
    total = sum(max(0, count) for count in games.values()) * decks * (decks - 1)
    with ProcessPoolExecutor(max_workers=processes) as pool:
        best_wins = start_wins = score_population([dict(start)], path, games, seed, pool)[0]
        report(f"start: {start_wins} wins of {total}")
        best = dict(start)
        for generation in range(1, generations + 1):
            vectors = strategy.ask()
            candidates = [weights_of(v) for v in vectors]
            wins = score_population(candidates, path, games, seed, pool)
            strategy.tell(vectors, [-w for w in wins])
            top = max(range(len(wins)), key=wins.__getitem__)
            if wins[top] > best_wins:
                best, best_wins = candidates[top], wins[top]
            report(f"generation {generation}: best {wins[top]} wins, mean "
                   f"{sum(wins) / len(wins):.1f}; best so far {best_wins}: {json.dumps(best)}")
    return Tuning(best, best_wins, start_wins, total, weights_of(strategy.mean))


def main(argv: list[str] | None = None) -> Tuning:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=6)
    parser.add_argument("--greedy-games", type=int, default=8)
    parser.add_argument("--search-games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=501)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--set", dest="card_set", type=Path, default=CORE_SET)
    parser.add_argument("--weights", default=",".join(w for w in WEIGHTS if w != UNIT))
    parser.add_argument("--sigma", type=float, default=0.5)
    parser.add_argument("--population", type=int, default=0, help="default: CMA-ES's own")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    names = [n for n in args.weights.split(",") if n and n != UNIT]
    unknown = [n for n in names if n not in WEIGHTS]
    if unknown:
        parser.error(f"unknown weights: {', '.join(unknown)} (known: {', '.join(WEIGHTS)})")
    games = {"greedy": args.greedy_games, "search": args.search_games}
    result = tune(names, path=args.card_set, games=games, seed=args.seed,
                  generations=args.generations, sigma=args.sigma, population=args.population,
                  processes=args.processes, report=lambda line: print(line, flush=True))
    print(json.dumps(result.weights))
    if args.out:
        args.out.write_text(json.dumps(asdict(result), indent=1))
    return result


if __name__ == "__main__":
    main()
