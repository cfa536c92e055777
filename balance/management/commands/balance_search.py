"""python manage.py balance_search — the fewest card changes that bring a field near 50 %."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from balance.cli import OptionError, add_run_arguments, card_set_of, check_agent
from balance.search.adapted_cli import (
    adapted_progress_line,
    adapted_report_text,
    add_adapted_arguments,
    build_adapted,
)
from balance.search.cli import (
    Clock,
    build_problem,
    calibrated_budget,
    parse_agents,
    progress_line,
    replay_commands,
    report_text,
    run_via_celery,
    write_patch,
)
from rules.ai.agents import DEFAULT_AGENT
from rules.lab.balance_search import Field, LocalEvaluator, Problem, SpaceError, balance_search
from rules.lab.balance_search.adapted import adapted_search
from rules.lab.balance_search.adapted_play import AdaptedBase, LocalAdaptedEvaluator
from rules.lab.balance_search.problem import (
    DEFAULT_STRONG_BUDGET,
    DEFAULT_STRONG_SCREEN,
    DEFAULT_STRONG_VERIFY,
)
from rules.lab.patches import patch_with_text
from rules.localized import SOURCE_LANGUAGE
from simulations.cli.input import card_set_words


class Command(BaseCommand):
    help = ("Search balance patches (changes to cards' cost, attack and HP) that bring every "
            "matchup of a field of starter decks into a win-rate band with as few changes as "
            "possible; re-verify the best on fresh seeds and write the best verified patch "
            "(docs/patches.md format). Same seed and --budget-games, same search.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--agent", default=DEFAULT_AGENT)
        parser.add_argument("--agents", default=None, metavar="A,B",
                            help="meta: every target must hold under each of these agents "
                                 "(e.g. greedy,planner); the fastest screens and races, the "
                                 "others check the finalists and re-verify")
        parser.add_argument("--strong-budget-games", type=int, default=DEFAULT_STRONG_BUDGET,
                            help="with --agents: games the further agents may play while "
                                 f"searching (default {DEFAULT_STRONG_BUDGET:,})")
        parser.add_argument("--strong-screen-games", type=int, default=None,
                            help="with --agents: games the further agents may screen single "
                                 "changes with, on the changed card's decks' matchups "
                                 f"(default {DEFAULT_STRONG_SCREEN:,}; 0: screen under the "
                                 "first agent only)")
        parser.add_argument("--strong-verify-games", type=int, default=DEFAULT_STRONG_VERIFY,
                            help="with --agents: games a matchup the further agents re-verify "
                                 f"with on fresh seeds (default {DEFAULT_STRONG_VERIFY})")
        parser.add_argument("--objective", choices=("meta", "band", "adapted"), default="meta",
                            help="meta (default): every deck's field win rate in --field-band, "
                                 "every matchup in --matchup-band and every deck at least "
                                 "--min-share of the ε-equilibrium; band: every matchup in "
                                 "--band; adapted: the meta's targets (and --exploit-limit) "
                                 "on the lists players adapt to the patch (a meta forecast)")
        parser.add_argument("--band", default="45-55",
                            help="the band objective's win-rate band in %% (45-55)")
        parser.add_argument("--field-band", default=None,
                            help="meta: each deck's field win rate in %% (47-53; adapted: "
                                 "45-55)")
        parser.add_argument("--matchup-band", default=None,
                            help="meta: every matchup's win rate in %% (30-70; adapted: "
                                 "25-75)")
        parser.add_argument("--epsilon", type=float, default=0.005,
                            help="meta: win rate a deck may give up in the ε-equilibrium "
                                 "(0.005: half a point)")
        parser.add_argument("--min-share", type=float, default=5.0,
                            help="meta: each deck's smallest share of the ε-equilibrium in %% "
                                 "(5)")
        parser.add_argument("--max-changes", type=int, default=6)
        parser.add_argument("--out", default=None, metavar="FILE",
                            help="write the best verified patch here (JSON)")
        parser.add_argument("--live-patch", default=None, metavar="FILE",
                            help="a patch already live (docs/patches.md): the search starts "
                                 "from it and may extend it, change it or take its changes "
                                 "back; --out writes the whole patch against printed cards "
                                 "(adapted: the live patch is forecast first)")
        parser.add_argument("--max-edits", type=int, default=None, metavar="N",
                            help="with --live-patch or --objective adapted: a patch the "
                                 "search proposes differs from the patch it starts from in at "
                                 "most N places — a change added, taken back or given another "
                                 "value (default: no cap beyond --max-changes)")
        parser.add_argument("--decks", nargs="+", default=None,
                            help="starter deck names (default: every starter deck of the set)")
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--budget-minutes", type=float, default=None,
                            help="wall time for search and verification (default 10; "
                                 "adapted: no limit unless given)")
        parser.add_argument("--budget-games", type=int, default=None,
                            help="games the search may start rounds within: the round "
                                 "under way when it is spent is finished (a few thousand "
                                 "games past it), and the re-verification on fresh seeds "
                                 "(--verify-games a matchup, for the unpatched field and each "
                                 "verified patch) comes on top; the report counts all three. "
                                 "With it and --seed the search is reproducible (default: "
                                 "what --budget-minutes affords here, at most 400,000)")
        parser.add_argument("--verify-games", type=int, default=2000,
                            help="games a matchup when re-verifying on fresh seeds")
        parser.add_argument("--fields", default=None,
                            help="fields that may change: cost, attack, hp, keywords, "
                                 "attribute, abilities (numbers inside abilities, and "
                                 "removing an effect or an ability); default cost,attack,hp, "
                                 "and abilities with --objective meta")
        parser.add_argument("--cards", default=None,
                            help="comma-separated card codes that may change (default: every "
                                 "card of the decks, heroes included)")
        parser.add_argument("--spread", type=int, default=2,
                            help="how far numbers may move from printed (default ±2)")
        add_adapted_arguments(parser)
        add_run_arguments(parser, via_celery_help="submit the search as a job for the workers "
                                                  "(the catalogue's starter decks by name) and "
                                                  "follow it")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["via_celery"]:
            return run_via_celery(self, opts)
        check_agent(opts)
        field = self._field(opts)
        try:
            agents = parse_agents(opts, len(field.decks))
            field = replace(field, agent=agents[0])
            problem = build_problem(field, {**opts, "further_agents": agents[1:]})
        except (OptionError, SpaceError) as exc:
            raise CommandError(str(exc)) from None
        if opts["objective"] == "adapted":
            return self._adapted(field, problem, opts)
        minutes = 10.0 if opts["budget_minutes"] is None else opts["budget_minutes"]
        opts["budget_minutes"] = minutes
        clock = Clock(minutes, problem)
        names = [deck.name for deck in field.decks]

        def progress(event: dict[str, Any]) -> None:   # stderr: --json's stdout stays JSON
            sys.stderr.write(progress_line(clock, event) + "\n")
            sys.stderr.flush()

        with LocalEvaluator(field, processes=max(1, opts["processes"])) as evaluator:
            if not opts["budget_games"]:
                budget, rate = calibrated_budget(evaluator, problem,
                                                 opts["budget_minutes"])
                problem = replace(problem, budget_games=budget)
                if not opts["json"]:
                    sys.stderr.write(f"Measured {rate:,.0f} games/s on {opts['processes']} "
                                     f"processes: the search may play {budget:,} games.\n")
            result = balance_search(problem, evaluator, progress=progress,
                                    should_stop=clock.should_stop)
        best = result.best
        if opts["out"] and best is not None:
            unpatched = {code: card.to_dict() for code, card in field.cards.items()}
            patch = patch_with_text(unpatched, best.patch(), SOURCE_LANGUAGE, self.words)
            write_patch(opts["out"], patch)
        if opts["json"]:
            data = result.to_dict(names)
            data.update(wall_seconds=round(clock.elapsed, 1), seed=problem.seed,
                        replay=replay_commands(problem, names, opts["out"] or "patch.json"))
            self.stdout.write(json.dumps(data, sort_keys=True))
        else:
            self.stdout.write(report_text(result, names, problem, out=opts["out"],
                                          elapsed=clock.elapsed, words=self.words))

    def _adapted(self, field: Field, search: Problem, opts: dict[str, Any]) -> None:
        try:
            problem = build_adapted(field, search, opts)
        except OptionError as exc:
            raise CommandError(str(exc)) from None
        clock = Clock(None, search)
        minutes = opts["budget_minutes"]

        def out_of_time() -> bool:
            return minutes is not None and clock.elapsed > minutes * 60

        def progress(event: dict[str, Any]) -> None:   # stderr: --json's stdout stays JSON
            sys.stderr.write(adapted_progress_line(event) + "\n")
            sys.stderr.flush()

        base = AdaptedBase(cards=field.cards, agent=field.agent, ruleset=field.ruleset)
        with LocalAdaptedEvaluator(base, processes=max(1, opts["processes"])) as evaluator:
            result = adapted_search(problem, evaluator, progress=progress,
                                    should_stop=out_of_time if minutes is not None else None)
        patch = result.best_patch
        if opts["out"] and patch is not None:
            unpatched = {code: card.to_dict() for code, card in field.cards.items()}
            write_patch(opts["out"], patch_with_text(unpatched, patch, SOURCE_LANGUAGE,
                                                     self.words))
        if opts["json"]:
            data = result.to_dict()
            data.update(wall_seconds=round(clock.elapsed, 1),
                        cpu_seconds_this_process=round(time.process_time(), 1))
            self.stdout.write(json.dumps(data, sort_keys=True))
        else:
            self.stdout.write(adapted_report_text(result, opts["out"], clock.elapsed,
                                                  cards=field.cards, words=self.words))

    def _field(self, opts: dict[str, Any]) -> Field:
        card_set = card_set_of(opts)
        self.words = card_set_words(card_set)     # its races' and factions' names
        try:
            decks = [card_set.deck(n) for n in opts["decks"]] if opts["decks"] \
                else list(card_set.decks.values())
        except KeyError as exc:
            raise CommandError(f"--decks: {exc.args[0]}") from None
        return Field(cards=card_set.cards, decks=tuple(decks), agent=opts["agent"])
