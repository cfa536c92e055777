"""How often the 95 % win-rate interval covers the true rate: a calibration anyone can run.

Usage::

    python -m rules.lab.calibrate --deck-a "Ember Rush" --deck-b Tidewall --games 400 --runs 200 \\
        --reference 40000 --agent greedy [--workers 2] [--set FILE]

It plays one large *reference* run (its win rate stands for the true rate) and ``--runs`` runs of
``--games`` games on other seeds, and prints how many of the runs' 95 % intervals cover the
reference rate: for the pair-aware interval the site reports (``rules.lab.intervals``) and, beside
it, for the plain Wilson interval that treats the games as independent. A well calibrated
interval covers about 95 % of the time (with R = 200 runs the figure itself is uncertain by
about ±1.5 points). Draws count as not won, as everywhere. Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rules.ai.agents import DEFAULT_AGENT
from rules.decks.cardset import CORE_SET, load_card_set
from rules.lab.intervals import wilson_interval
from rules.lab.match import run_match

REFERENCE_SEED = 2**40 + 17   # far from the runs' seeds 1 … R


@dataclass(frozen=True)
class Job:
    set_path: str
    deck_a: str
    deck_b: str
    agent_a: str
    agent_b: str
    games: int
    seed: int


@dataclass(frozen=True)
class Outcome:
    seed: int
    rate: float
    pairs_low: float
    pairs_high: float
    games_low: float
    games_high: float


def play(job: Job) -> Outcome:
    card_set = load_card_set(job.set_path)
    stats = run_match(card_set.cards, card_set.deck(job.deck_a), card_set.deck(job.deck_b),
                      games=job.games, seed=job.seed, agent_a=job.agent_a, agent_b=job.agent_b)
    figure = stats.to_dict()["win_rate"]
    low, high = wilson_interval(stats.wins, stats.completed)
    return Outcome(job.seed, figure["rate"] if figure["rate"] is not None else math.nan,
                   figure["low"], figure["high"], low, high)


@dataclass(frozen=True)
class Coverage:
    reference: float
    runs: int
    pairs: int      # runs whose pair-aware interval covered the reference rate
    games: int      # ... whose plain Wilson interval did
    pairs_width: float
    games_width: float

    def text(self, label: str) -> str:
        se = math.sqrt(0.95 * 0.05 / self.runs) * 100
        return (f"{label}: reference win rate {self.reference * 100:.2f} %\n"
                f"  pair-aware 95 % interval covered it in {self.pairs}/{self.runs} runs = "
                f"{self.pairs / self.runs * 100:.1f} % (±{se:.1f} at 95 % nominal); "
                f"mean width {self.pairs_width * 100:.1f} points\n"
                f"  plain Wilson (games as independent): {self.games}/{self.runs} = "
                f"{self.games / self.runs * 100:.1f} %; mean width "
                f"{self.games_width * 100:.1f} points")


def calibrate(job: Job, *, runs: int, reference_games: int, workers: int = 1) -> Coverage:
    """Coverage of the runs' intervals of the reference run's rate."""
    reference = Job(**{**job.__dict__, "games": reference_games, "seed": REFERENCE_SEED})
    jobs = [Job(**{**job.__dict__, "seed": seed}) for seed in range(1, runs + 1)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play, [reference, *jobs], chunksize=4))
    else:
        results = [play(j) for j in [reference, *jobs]]
    truth, samples = results[0].rate, results[1:]
    return Coverage(
        reference=truth, runs=len(samples),
        pairs=sum(o.pairs_low <= truth <= o.pairs_high for o in samples),
        games=sum(o.games_low <= truth <= o.games_high for o in samples),
        pairs_width=sum(o.pairs_high - o.pairs_low for o in samples) / len(samples),
        games_width=sum(o.games_high - o.games_low for o in samples) / len(samples))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck-a", required=True)
    parser.add_argument("--deck-b", required=True)
    parser.add_argument("--games", type=int, default=400, help="games per run (N)")
    parser.add_argument("--runs", type=int, default=200, help="runs (R)")
    parser.add_argument("--reference", type=int, default=40_000, help="games of the reference")
    parser.add_argument("--agent", default=DEFAULT_AGENT, help="both decks' agent")
    parser.add_argument("--agent-b", default=None, help="deck B's agent (default: --agent)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    parser.add_argument("--set", dest="card_set", default=str(CORE_SET))
    args = parser.parse_args(argv)
    if args.games < 2 or args.runs < 2 or args.reference < 2:
        parser.error("--games, --runs and --reference must be at least 2")
    card_set = load_card_set(Path(args.card_set))
    for name in (args.deck_a, args.deck_b):
        try:
            card_set.deck(name)
        except KeyError as exc:
            parser.error(str(exc.args[0]))
    job = Job(args.card_set, args.deck_a, args.deck_b, args.agent, args.agent_b or args.agent,
              args.games + args.games % 2, 0)
    coverage = calibrate(job, runs=args.runs, reference_games=args.reference,
                         workers=args.workers)
    label = (f"{args.deck_a} vs {args.deck_b} ({job.agent_a}/{job.agent_b}), "
             f"{args.runs} runs of {job.games} games, reference {args.reference} games")
    print(coverage.text(label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
