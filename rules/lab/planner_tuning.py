"""Tuning the planner by self-play: CMA-ES on common random numbers.

``python -m rules.lab.planner_tuning {policy,evaluation} [--generations 25] [--games 20]
[--search-games 0] [--seed 11] [--sigma 0.3] [--population N] [--from FILE] [--names a,b,…]
[--processes 2] [--set FILE] [--out FILE]`` tunes one of the planner's two sets of constants:

- ``policy`` — the greedy heuristic's constants (``rules.ai.greedy.HEURISTIC``) the planner
  pre-scores actions with, answers the mulligan and setup with and plays its rollouts with
  (``rules.ai.planner.POLICY``). A candidate is the greedy agent with those constants, played
  against the plain greedy agent: a game takes a millisecond, so thousands a generation.
- ``evaluation`` — the weights of the planner's position evaluation (``rules.ai.planner.WEIGHTS``).
  A candidate is the planner with those weights, played against greedy and (``--search-games``)
  the search agent: slow, a few hundred games a generation.

Each candidate plays ``--games`` seat-swapped games a pairing over every ordered pairing of the
set's starter decks against each opponent, and CMA-ES (the ``cma`` library: the
covariance-matrix adaptation evolution strategy, made for noisy objectives) moves the constants
toward more wins. Every candidate plays the *same* seeds (common random numbers), so candidates
are compared on the same deals. Constants are searched in units of their starting size
(``max(|value|, 1)``), so one step size fits them all. Each generation prints its best and mean
win rate; the end prints the best candidate measured and CMA-ES's final mean, whose figure is
less flattered by the noise of selection. ``--from`` starts from a file this command wrote
(its mean). Check a result on other seeds (``python -m rules.lab.ladder``) before adopting it: the
tuning seeds are not the ladder's.

``cma`` is a development dependency (``pip install -e .[dev]``); the agents need only the
constants.
"""

from __future__ import annotations

import argparse
import itertools
import json
import warnings
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from rules.ai.agents import agent_spec, make_agent
from rules.ai.greedy import HEURISTIC, GreedyAgent
from rules.ai.planner import POLICY, WEIGHTS, PlannerAgent
from rules.decks.cardset import CORE_SET, load_card_set
from rules.engine.agent import Agent
from rules.lab.match import game_seed, play_game

FIXED = {"evaluation": ("attack",), "policy": ()}   # the unit the rest are measured in


def candidate_agent(target: str, constants: dict[str, float]) -> Agent:
    """The player a candidate set of constants makes."""
    if target == "policy":
        return GreedyAgent(constants)
    return PlannerAgent(weights=constants)


# (card set, target, candidate's constants, opponent, deck A, deck B, seed, games): one job
_Slice = tuple[Path, str, dict[str, float], str, str, str, int, int]


def _slice(args: _Slice) -> float:
    """A candidate's wins (draws half) in one pairing's games against one opponent."""
    path, target, constants, opponent, deck_a, deck_b, seed, games = args
    card_set = load_card_set(path)
    candidate, other = candidate_agent(target, constants), make_agent(opponent)
    wins = 0.0
    for index in range(games):
        result = play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                           seed=game_seed(seed, index), a_first=index % 2 == 0,
                           agent_a=candidate, agent_b=other)
        wins += 1.0 if result.winner == "a" else 0.5 if result.winner is None else 0.0
    return wins


def score_population(target: str, population: list[dict[str, float]], path: Path,
                     pairings: list[tuple[str, str]], games: dict[str, int], seed: int,
                     pool: ProcessPoolExecutor) -> list[float]:
    """Each candidate's win rate over the fixed games (the same seeds for every candidate)
    on the ordered deck ``pairings`` of the set at ``path``."""
    jobs: list[_Slice] = []
    owners: list[int] = []
    for index, constants in enumerate(population):
        for opponent, count in games.items():
            for number, (a, b) in enumerate(pairings):
                if count > 0:
                    jobs.append((path, target, constants, opponent, a, b, seed + number, count))
                    owners.append(index)
    wins = [0.0] * len(population)
    for owner, won in zip(owners, pool.map(_slice, jobs, chunksize=1), strict=True):
        wins[owner] += won
    played = sum(max(0, count) for count in games.values()) * len(pairings)
    return [w / played for w in wins]


@dataclass
class Tuning:
    """What a tuning ended with: the best candidate measured, its win rate, the starting
    constants' win rate, the games a candidate played and CMA-ES's final mean."""
    best: dict[str, float]
    best_rate: float
    start_rate: float
    games: int
    mean: dict[str, float]


def tune(target: str, start: dict[str, float], *, names: list[str] | None = None,
         path: Path = CORE_SET, games: dict[str, int], seed: int, generations: int,
         sigma: float = 0.3, population: int = 0, processes: int = 2,
         report: Callable[[str], None] = print) -> Tuning:
    """CMA-ES over the constants ``names`` (default: all but the unit; the rest stay as in
    ``start``); deterministic for a given seed."""
    with warnings.catch_warnings():           # it would plot with matplotlib, if it were here
        warnings.simplefilter("ignore")
        import cma

    names = names or [n for n in start if n not in FIXED[target]]
    scale = [max(abs(float(start[n])), 1.0) for n in names]
    options: dict[str, int] = {"seed": seed, "verbose": -9}
    if population:
        options["popsize"] = population
    strategy = cma.CMAEvolutionStrategy([start[n] / s for n, s in zip(names, scale, strict=True)],
                                        sigma, options)

    def constants_of(vector: Iterable[float]) -> dict[str, float]:
        moved = {n: round(float(v) * s, 2) for n, v, s in zip(names, vector, scale, strict=True)}
        return {**start, **moved}

    pairings = list(itertools.permutations(load_card_set(path).decks, 2))
    played = sum(max(0, count) for count in games.values()) * len(pairings)
    with ProcessPoolExecutor(max_workers=processes) as pool:
        best_rate = start_rate = score_population(target, [dict(start)], path, pairings,
                                                  games, seed, pool)[0]
        report(f"start: {start_rate:.1%} of {played} games")
        best = dict(start)
        for generation in range(1, generations + 1):
            vectors = strategy.ask()
            candidates = [constants_of(v) for v in vectors]
            rates = score_population(target, candidates, path, pairings, games, seed, pool)
            strategy.tell(vectors, [-r for r in rates])
            top = max(range(len(rates)), key=rates.__getitem__)
            if rates[top] > best_rate:
                best, best_rate = candidates[top], rates[top]
            report(f"generation {generation}: best {rates[top]:.1%}, mean "
                   f"{sum(rates) / len(rates):.1%} (best so far {best_rate:.1%})")
    return Tuning(best, best_rate, start_rate, played, constants_of(strategy.mean))


def main(argv: list[str] | None = None) -> Tuning:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=("policy", "evaluation"))
    parser.add_argument("--generations", type=int, default=25)
    parser.add_argument("--games", type=int, default=20, help="games a pairing against greedy")
    parser.add_argument("--search-games", type=int, default=0,
                        help="games a pairing against search (evaluation only)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--sigma", type=float, default=0.3)
    parser.add_argument("--population", type=int, default=0, help="default: CMA-ES's own")
    parser.add_argument("--from", dest="start", type=Path,
                        help="a file this command wrote: start from its mean")
    parser.add_argument("--names", help="comma-separated constants to tune (default: all)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--set", dest="card_set", type=Path, default=CORE_SET)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    known = HEURISTIC if args.target == "policy" else WEIGHTS
    start = dict(POLICY if args.target == "policy" else WEIGHTS)
    if args.start:
        start.update(json.loads(args.start.read_text())["mean"])
    names = [n for n in (args.names or "").split(",") if n]
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown constants: {', '.join(unknown)} (known: {', '.join(known)})")
    # The opponents the planner meets on the AI ladder; the planning ones only when tuning its
    # evaluation (the policy is measured against the fast ones alone).
    games = {name: args.games if agent_spec(name).fast else args.search_games
             for name in agent_spec("planner").measured_against
             if agent_spec(name).fast or args.target == "evaluation"}
    result = tune(args.target, start, names=names or None, path=args.card_set, games=games,
                  seed=args.seed, generations=args.generations, sigma=args.sigma,
                  population=args.population, processes=args.processes,
                  report=lambda line: print(line, flush=True))
    print(json.dumps({"best": result.best, "mean": result.mean}))
    if args.out:
        args.out.write_text(json.dumps(asdict(result), indent=1))
    return result


if __name__ == "__main__":
    main()
