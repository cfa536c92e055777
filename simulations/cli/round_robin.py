"""``python manage.py simulate --decks A B C …``: a round-robin of starter decks in this process
(a pool of ``--processes``), with its meta.

Every pairing plays the command's seed, as a round-robin run on the workers does
(``simulations.services.pairings``, ``rules.lab.match.game_seed``): the same seed gives the same
games here and with ``--via-celery``, and pair ``g // 2`` is one cluster across the whole field
(``rules.lab.meta.Field(shared_seeds=True)``). With three decks or more the report ends with the
field's meta (``rules.lab.meta``): each deck's field win rate with its interval, the Nash
equilibrium, the maximum-entropy ε-equilibrium (``--epsilon``, in points), their resampled
uncertainty and the plain sentence; ``--json`` carries it under ``meta``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.engine.cards import CardDef, DeckList, Ruleset
from rules.lab import meta
from rules.lab.match import GameResult, play_games, tally
from rules.lab.report import match_summary, match_text
from rules.lab.stats import MatchStats
from simulations.cli.input import (
    checked_options,
    load_card_set_for_cli,
    load_patch_for_cli,
    patched_cards_for_cli,
)

PIECE_GAMES = 100   # games a pool task plays: small enough to keep both processes busy
FEW_DECKS = "--decks: a round-robin needs at least three decks (got {count}); for two, give " \
            "--deck-a and --deck-b."
SAME_DECK = "--decks: {name} is named twice."
BAD_PROCESSES = "--processes: give a whole number from 1 to 64 (got {value})."
BAD_EPSILON = "--epsilon: give a number of points from 0 up to (not including) 50 (got {value})."


def load_field_for_cli(names: Sequence[str], card_set: str | None
                       ) -> tuple[dict[str, CardDef], list[DeckList]]:
    """The cards and the named starter decks of a card set file; CommandError otherwise."""
    if len(names) < 3:
        raise CommandError(FEW_DECKS.format(count=len(names)))
    cards = load_card_set_for_cli(card_set)
    decks: list[DeckList] = []
    for name in names:
        try:
            deck = cards.deck(name)
        except KeyError as exc:
            raise CommandError(f"--decks: {exc.args[0]}") from None
        if any(d.name == deck.name for d in decks):
            raise CommandError(SAME_DECK.format(name=deck.name))
        decks.append(deck)
    return cards.cards, decks


def checked_round_robin_options(opts: Mapping[str, Any]) -> tuple[Ruleset, float]:
    """The ruleset and ε (a share) of a round-robin's options; CommandError naming the option."""
    ruleset = checked_options(opts)
    if not 1 <= opts.get("processes", 1) <= 64:
        raise CommandError(BAD_PROCESSES.format(value=opts.get("processes")))
    points = opts.get("epsilon")
    points = meta.DEFAULT_EPSILON * 100 if points is None else points
    if not 0 <= points < 50:
        raise CommandError(BAD_EPSILON.format(value=points))
    return ruleset, points / 100


_PLAYING: dict[str, Any] = {}


def _init_worker(cards: dict[str, CardDef], decks: list[DeckList], agent: str,
                 ruleset: Ruleset) -> None:
    _PLAYING.update(cards=cards, decks=decks, agent=agent, ruleset=ruleset)


def _play_piece(piece: tuple[int, int, int, int, int]) -> list[GameResult]:
    a, b, seed, start, stop = piece
    return [result for _, result in play_games(
        _PLAYING["cards"], _PLAYING["decks"][a], _PLAYING["decks"][b], seed=seed, start=start,
        stop=stop, agent_a=_PLAYING["agent"], agent_b=_PLAYING["agent"],
        ruleset=_PLAYING["ruleset"])]


def play_round_robin(cards: Mapping[str, CardDef], decks: Sequence[DeckList], *, games: int,
                     seed: int, agent: str, ruleset: Ruleset, processes: int = 1
                     ) -> dict[tuple[int, int], list[GameResult]]:
    """Every pairing ``(i, j)``, ``i < j``, ``games`` games on ``seed``, results in game order."""
    pairs = list(itertools.combinations(range(len(decks)), 2))
    pieces = [(a, b, seed, start, min(start + PIECE_GAMES, games))
              for a, b in pairs for start in range(0, games, PIECE_GAMES)]
    args = (dict(cards), list(decks), agent, ruleset)
    if processes <= 1:
        _init_worker(*args)
        played = [_play_piece(p) for p in pieces]
    else:
        with ProcessPoolExecutor(processes, initializer=_init_worker, initargs=args) as pool:
            played = list(pool.map(_play_piece, pieces, chunksize=1))
    out: dict[tuple[int, int], list[GameResult]] = {pair: [] for pair in pairs}
    for (a, b, *_), results in zip(pieces, played, strict=True):
        out[a, b].extend(results)
    return out


def field_of(names: Sequence[str], results: Mapping[tuple[int, int], list[GameResult]]
             ) -> meta.Field:
    """The games as a field for ``rules.lab.meta``: every pairing played the same seeds."""
    matchups = {}
    for pair, games in results.items():
        by_pair = meta.MatchupGames()
        for index, game in enumerate(games):
            if game.error is None:
                by_pair.add(index // 2, won=int(game.winner == "a"),
                            drawn=int(game.winner is None), counted=1)
        matchups[pair] = by_pair
    return meta.Field(list(names), matchups, shared_seeds=True)


def run_round_robin_in_process(command: BaseCommand, opts: dict[str, Any]) -> None:
    """Play the round-robin here (with the ``--patch`` file's cards, if any) and print each
    pairing's report, then the field's meta."""
    ruleset, epsilon = checked_round_robin_options(opts)
    cards, decks = load_field_for_cli(opts["decks"], opts["card_set"])
    patch = load_patch_for_cli(opts.get("patch"))
    cards, diff = patched_cards_for_cli(cards, patch, opts["card_set"])
    games = opts["games"] + opts["games"] % 2
    agent = opts["agent_a"]
    results = play_round_robin(cards, decks, games=games, seed=opts["seed"], agent=agent,
                               ruleset=ruleset, processes=opts.get("processes", 1))
    names = [d.name for d in decks]
    summaries = []
    for (a, b), played in results.items():
        stats = MatchStats()
        for game in played:
            tally(stats, game)
        summaries.append(match_summary(
            stats, deck_a=names[a], deck_b=names[b], seed=opts["seed"], agent_a=agent,
            agent_b=agent, patch={"name": patch.name, "diff": diff} if patch else None))
    report = meta.meta_report(field_of(names, results), epsilon=epsilon).to_dict()
    if opts["json"]:
        command.stdout.write(json.dumps({"matchups": summaries, "meta": report},
                                        sort_keys=True))
        return
    command.stdout.write("\n".join(match_text(s) for s in summaries) + "\n\n" + meta_text(report))


def meta_text(report: Mapping[str, Any]) -> str:
    """The meta as the command prints it: per deck its field win rate (95 % interval), its
    share of each equilibrium and how often resampled games play it; the evenness of each; the
    matchup range; the plain sentence (``rules.lab.meta.describe``)."""
    names = report["decks"]
    width = max(len(n) for n in names)
    eps = f"ε={report['epsilon'] * 100:g} pt"
    lines = [f"{'':>{width}} | vs field (95 %)    | Nash   played | {eps:<9} played",
             "-" * (width + 58)]
    nash, relaxed = report["nash"], report["relaxed"]
    for d, name in enumerate(names):
        rate = report["field_rates"][d]
        lines.append(f"{name:>{width}} | {rate['rate'] * 100:5.1f}% ({rate['low'] * 100:4.1f}–"
                     f"{rate['high'] * 100:4.1f}) | {nash['shares'][d] * 100:5.1f}% "
                     f"{nash['played'][d] * 100:5.0f}% | {relaxed['shares'][d] * 100:8.1f}% "
                     f"{relaxed['played'][d] * 100:5.0f}%")
    lines.append(f"entropy ÷ log {len(names)}: Nash {nash['entropy_ratio']:.2f} "
                 f"({nash['entropy_low']:.2f}–{nash['entropy_high']:.2f}), {eps} "
                 f"{relaxed['entropy_ratio']:.2f} ({relaxed['entropy_low']:.2f}–"
                 f"{relaxed['entropy_high']:.2f}); {report['resamples']} resamples of the pairs")
    return "\n".join(lines) + "\n\n" + meta.describe(report)
