"""Round-robin of a card set's starter decks: every deck against every other, seat-swapped.

Usage::

    python -m rules.lab.roundrobin --games 200 --agent greedy
    python -m rules.lab.roundrobin --games 100 --agent random --decks "Ember Rush" Tidewall

Each cell of the table is the row deck's win rate against the column deck over ``--games``
games (half with each deck going first, ``rules.lab.match.run_match``); draws count as not-wins.
"vs field" is the plain average of a deck's matchup win rates. Below the table, the meta
(``rules.lab.meta``): each deck's win rate against the field with its pair-aware interval, the Nash
equilibrium of the deck choice and the maximum-entropy ε-equilibrium (``--epsilon``, half a
point by default), with how often each deck is played when the pairs are resampled
(``--resamples``); ``--json`` prints all of it as JSON. Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules.ai.agents import DEFAULT_AGENT
from rules.decks.cardset import CORE_SET, CardSet, load_card_set
from rules.lab import meta
from rules.lab.match import play_games, tally
from rules.lab.stats import ErrorSample, MatchStats

FIELD_HIGH = 0.65   # no starter deck should win more than this against the field
FIELD_LOW = 0.35    # ... nor less than this


@dataclass
class RoundRobin:
    decks: list[str]
    rates: dict[tuple[str, str], float] = field(default_factory=dict)   # row deck's win rate
    turns: dict[tuple[str, str], float] = field(default_factory=dict)   # average game turns
    draws: int = 0
    errors: int = 0
    games: int = 0
    error_samples: list[ErrorSample] = field(default_factory=list)
    games_by_pair: dict[tuple[int, int], meta.MatchupGames] = field(default_factory=dict)

    def meta(self, epsilon: float = meta.DEFAULT_EPSILON,
             resamples: int = meta.DEFAULT_RESAMPLES, seed: int = 0) -> meta.MetaReport:
        """The field's meta (each pairing played its own seeds: its pairs are its clusters)."""
        return meta.meta_report(meta.Field(list(self.decks), self.games_by_pair),
                                epsilon=epsilon, resamples=resamples, seed=seed)

    def field_rate(self, deck: str) -> float:
        others = [self.rates[deck, other] for other in self.decks if other != deck]
        return sum(others) / len(others) if others else 0.0

    def average_turns(self) -> float:
        pairs = [self.turns[a, b] for a, b in itertools.combinations(self.decks, 2)]
        return sum(pairs) / len(pairs) if pairs else 0.0

    def table(self) -> str:
        width = max(len(d) for d in self.decks)
        short = [d[:8] for d in self.decks]
        lines = [" " * width + " | " + " ".join(f"{s:>8}" for s in short) + " |  field"]
        lines.append("-" * len(lines[0]))
        for deck in self.decks:
            cells = []
            for other in self.decks:
                cells.append(f"{'-':>8}" if other == deck
                             else f"{self.rates[deck, other] * 100:7.1f}%")
            rate = self.field_rate(deck)
            flag = "" if FIELD_LOW <= rate <= FIELD_HIGH else "  <-- out of band"
            lines.append(f"{deck:>{width}} | " + " ".join(cells)
                         + f" | {rate * 100:5.1f}%{flag}")
        lines.append("")
        lines.append(f"games: {self.games}  draws: {self.draws}  errors: {self.errors}  "
                     f"average game length: {self.average_turns():.1f} turns")
        return "\n".join(lines)


def round_robin(card_set: CardSet, games: int = 200, agent: str = DEFAULT_AGENT, seed: int = 1,
                decks: Sequence[str] | None = None,
                progress: Callable[[str, str, MatchStats], None] | None = None) -> RoundRobin:
    """Play every pairing of the set's starter decks (or the named ones)."""
    names = [card_set.deck(n).name for n in decks] if decks else list(card_set.decks)
    result = RoundRobin(decks=names)
    games += games % 2                       # whole seat-swapped pairs
    for i, (a, b) in enumerate(itertools.combinations(names, 2)):
        stats, by_pair = MatchStats(), meta.MatchupGames()
        for index, game in play_games(card_set.cards, card_set.deck(a), card_set.deck(b),
                                      seed=seed * 1000 + i, start=0, stop=games,
                                      agent_a=agent, agent_b=agent):
            tally(stats, game)
            if game.error is None:
                by_pair.add(index // 2, won=game.winner == "a", drawn=game.winner is None,
                            counted=1)
        result.games_by_pair[names.index(a), names.index(b)] = by_pair
        done = stats.completed
        result.rates[a, b] = stats.wins / done if done else 0.0
        result.rates[b, a] = stats.losses / done if done else 0.0
        result.turns[a, b] = result.turns[b, a] = stats.turns / done if done else 0.0
        result.games += stats.games
        result.draws += stats.draws
        result.errors += stats.errors
        result.error_samples.extend(stats.error_samples[:3])
        if progress is not None:
            progress(a, b, stats)
    return result


def meta_table(report: meta.MetaReport) -> str:
    """Per deck: field win rate (95 % interval on pairs), the share of each equilibrium and how
    often resampled games play the deck."""
    width = max(len(n) for n in report.names)
    eps = f"ε={report.epsilon * 100:g} pt"
    lines = [f"{'':>{width}} | vs field (95 %)    | Nash   played | {eps:<9} played",
             "-" * (width + 58)]
    for d, name in enumerate(report.names):
        rate = report.field_rates[d]
        share = rate["rate"]
        assert share is not None, name      # every deck of a round-robin played the field
        lines.append(
            f"{name:>{width}} | {share * 100:5.1f}% ({rate['low'] * 100:4.1f}–"
            f"{rate['high'] * 100:4.1f}) | {report.nash.shares[d] * 100:5.1f}% "
            f"{report.nash.played[d] * 100:5.0f}% | {report.relaxed.shares[d] * 100:8.1f}% "
            f"{report.relaxed.played[d] * 100:5.0f}%")
    lines.append(f"entropy ÷ log {len(report.names)}: Nash {report.nash.entropy_ratio:.2f} "
                 f"({report.nash.entropy_low:.2f}–{report.nash.entropy_high:.2f}), {eps} "
                 f"{report.relaxed.entropy_ratio:.2f} ({report.relaxed.entropy_low:.2f}–"
                 f"{report.relaxed.entropy_high:.2f}); {report.resamples} resamples of the pairs")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--agent", default=DEFAULT_AGENT, help="agent for both seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", type=Path, default=CORE_SET, help="card set YAML file")
    parser.add_argument("--decks", nargs="*", help="only these starter decks")
    parser.add_argument("--quiet", action="store_true", help="no per-pairing progress")
    parser.add_argument("--epsilon", type=float, default=meta.DEFAULT_EPSILON,
                        help="win rate a deck may give up in the relaxed equilibrium (0.005: "
                             "half a point)")
    parser.add_argument("--resamples", type=int, default=meta.DEFAULT_RESAMPLES,
                        help="resamples of the pairs for the equilibria's uncertainty")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if not 0 <= args.epsilon < 0.5:
        parser.error(meta.BAD_EPSILON)
    card_set = load_card_set(args.set)
    started = time.time()

    def progress(a: str, b: str, stats: MatchStats) -> None:
        if not args.quiet:
            done = stats.completed or 1
            print(f"  {a} vs {b}: {stats.wins}-{stats.losses}-{stats.draws} "
                  f"({stats.turns / done:.1f} turns)", file=sys.stderr)

    result = round_robin(card_set, games=args.games, agent=args.agent, seed=args.seed,
                         decks=args.decks, progress=progress)
    report = result.meta(epsilon=args.epsilon, resamples=args.resamples, seed=args.seed)
    if args.json:
        print(json.dumps({"set": card_set.name_en, "games_per_pairing": args.games,
                          "agent": args.agent, "seed": args.seed,
                          "rates": [[result.rates.get((a, b)) for b in result.decks]
                                    for a in result.decks],
                          "games": result.games, "draws": result.draws,
                          "errors": result.errors, "meta": report.to_dict()}, indent=2))
        return 1 if result.errors else 0
    print(f"{card_set.name_en}: {len(result.decks)} starter decks, {args.games} games per "
          f"pairing, agent {args.agent}, seed {args.seed} ({time.time() - started:.0f} s)")
    print(result.table())
    print()
    print(meta_table(report))
    print()
    print(report.sentence())
    for sample in result.error_samples:
        print(f"error (seed {sample['seed']}): {sample['error']}")
    return 1 if result.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
