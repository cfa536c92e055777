"""python manage.py meta_forecast — the meta once players have re-tuned their lists."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from balance.cli import add_run_arguments, card_set_of, check_agent
from balance.forecast.report import paths_text, progress_line, replay_text, report_text
from rules.ai.agents import DEFAULT_AGENT
from rules.lab.deck_tuning import TuneField, TuningError
from rules.lab.forecast import ForecastError, ForecastProblem, LocalPairEvaluator, forecast
from rules.lab.forecast.paths import compare_paths, path_seeds
from rules.lab.forecast.replay import replay_forecast
from simulations.cli.input import load_patch_for_cli, patched_cards_for_cli

DEFAULTS = ForecastProblem(cards={}, archetypes=())
BAD_BAND = "--band: give two percentages around 50, e.g. 45-55 (got {value!r})."
SMALL = "{option}: give at least {least:,} (got {value:,})."
REPLAY_PATCH = "--replay: the forecast played the patch {name!r}; give it again with --patch."
BAD_SEEDS = "--seeds: give a whole number from 1 to {most} (got {value})."
MOST_SEEDS = 8


class Command(BaseCommand):
    help = ("Forecast the meta after players adapt: rounds in which every archetype re-tunes "
            "its list against the field weighted by the current meta (each keeps its hero and "
            "at most --max-changes cards from its printed list), until no verified gain "
            "exceeds --settle points or the budget is spent; then the settled field on fresh "
            "seeds and its exploitability. Same seed, same forecast.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--decks", nargs="+", default=None,
                            help="starter deck names (default: every starter deck)")
        parser.add_argument("--agent", default=DEFAULT_AGENT)
        parser.add_argument("--agents", default=None,
                            help="comma-separated: the first adapts the lists; every one "
                                 "plays the settled field, and each archetype gets a verdict "
                                 "by Riot's rule (a nerf if over --band under any agent, a "
                                 "buff only if under it under every agent)")
        parser.add_argument("--band", default="45-55",
                            help="the field win rates a verdict calls fine, in percent")
        parser.add_argument("--patch", default=None, metavar="FILE",
                            help="a balance patch (docs/patches.md): forecast the patched pool")
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--max-changes", type=int, default=DEFAULTS.max_changes,
                            help="cards a list may differ from its printed list, in all")
        parser.add_argument("--settle", type=float, default=DEFAULTS.settle * 100,
                            help="points: the rounds stop when no verified gain exceeds it")
        parser.add_argument("--budget-games", type=int, default=DEFAULTS.budget_games,
                            help="games the rounds may play (the settled field's apart)")
        parser.add_argument("--max-rounds", type=int, default=DEFAULTS.max_rounds)
        parser.add_argument("--swaps-per-round", type=int, default=DEFAULTS.swaps_per_round)
        parser.add_argument("--tune-games", type=int, default=DEFAULTS.tune_games,
                            help="one tuning's search games")
        parser.add_argument("--verify-games", type=int, default=DEFAULTS.verify_games,
                            help="one tuning's fresh games against each opponent")
        parser.add_argument("--round-games", type=int, default=DEFAULTS.round_games,
                            help="games a matchup in each round")
        parser.add_argument("--final-games", type=int, default=DEFAULTS.final_games,
                            help="fresh games a matchup of the settled field")
        parser.add_argument("--exploit-swaps", type=int, default=DEFAULTS.exploit_swaps)
        parser.add_argument("--replay", default=None, metavar="FORECAST_JSON",
                            help="play a forecast's settled lists again on --seed (another "
                                 "seed than its own) and say, for each figure, whether the "
                                 "replayed value falls inside the forecast's interval; give "
                                 "--patch and --set as the forecast had them")
        parser.add_argument("--seeds", type=int, default=1,
                            help="forecast on this many seeds (--seed and the ones after it) "
                                 "and say, archetype by archetype, whether their settled "
                                 "figures agree: forecasts on other seeds can follow other "
                                 "paths to other metas")
        parser.add_argument("--compare", nargs="+", default=None, metavar="FORECAST_JSON",
                            help="compare saved forecasts of one field (their --json files) "
                                 "as --seeds does, playing no game")
        add_run_arguments(parser, via_celery_help="submit the forecast as a job for the "
                                                  "workers and follow it (decks: starter "
                                                  "names, or deck:<id>; --agents and "
                                                  "--band as here)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["via_celery"]:
            return self.via_celery(opts)
        if opts["replay"]:
            return self.replay(opts)
        if opts["compare"]:
            return self.compare(opts)
        if not 1 <= opts["seeds"] <= MOST_SEEDS:
            raise CommandError(BAD_SEEDS.format(most=MOST_SEEDS, value=opts["seeds"]))
        further: list[str] = []
        if opts["agents"]:
            opts["agent"], *further = [a.strip() for a in opts["agents"].split(",")
                                       if a.strip()]
        for agent in [opts["agent"], *further]:
            check_agent({**opts, "agent": agent})
        opts["further_agents"] = tuple(further)
        problem = self.problem(opts)
        start, cpu = time.monotonic(), time.process_time()

        seeds = path_seeds(problem.seed, opts["seeds"])
        field = TuneField(cards=problem.cards, opponents=(), agent=problem.agent)
        forecasts = []
        with LocalPairEvaluator(field, processes=max(1, opts["processes"])) as evaluator:
            for k, seed in enumerate(seeds):
                where = f"[seed {seed}, forecast {k + 1} of {len(seeds)}] " \
                    if len(seeds) > 1 else ""

                def progress(event: dict[str, Any], where: str = where) -> None:
                    # stderr: --json's stdout stays JSON
                    self.stderr.write(where + progress_line(time.monotonic() - start, event))

                path_start, path_cpu = time.monotonic(), time.process_time()
                try:
                    result = forecast(replace(problem, seed=seed), evaluator,
                                      progress=progress)
                except (ForecastError, TuningError) as exc:
                    raise CommandError(str(exc)) from None
                forecasts.append(self.data(result.to_dict(), seed, opts, path_start, path_cpu))
        elapsed = time.monotonic() - start
        if len(forecasts) == 1:
            [data] = forecasts
            self.stdout.write(json.dumps(data, sort_keys=True) if opts["json"] else
                              report_text(data, problem.cards, elapsed=elapsed))
            return
        paths = compare_paths(forecasts)
        if opts["json"]:
            self.stdout.write(json.dumps({
                "forecasts": forecasts, "paths": paths, "wall_seconds": round(elapsed, 1),
                "cpu_seconds_this_process": round(time.process_time() - cpu, 1)},
                sort_keys=True))
            return
        for data in forecasts:
            self.stdout.write(f"\n=== Seed {data['seed']} ===\n")
            self.stdout.write(report_text(data, problem.cards, elapsed=data["wall_seconds"]))
        self.stdout.write("\n" + paths_text(paths, problem.cards))

    def data(self, data: dict[str, Any], seed: int, opts: dict[str, Any], start: float,
             cpu: float) -> dict[str, Any]:
        """One forecast's ``--json``: its result with its seed, costs, patch and options."""
        data.update(seed=seed, wall_seconds=round(time.monotonic() - start, 1),
                    cpu_seconds_this_process=round(time.process_time() - cpu, 1),
                    patch=self.diff and {"name": opts["patch"], "diff": self.diff},
                    options={k: opts[k] for k in ("max_changes", "settle", "budget_games",
                                                  "max_rounds", "swaps_per_round",
                                                  "tune_games", "verify_games", "round_games",
                                                  "final_games", "exploit_swaps")})
        return data

    def compare(self, opts: dict[str, Any]) -> None:
        """``--compare``: saved forecasts of one field, archetype by archetype."""
        forecasts = []
        for name in opts["compare"]:
            try:
                data = json.loads(Path(name).read_text())
                forecasts.append(data["forecasts"] if "forecasts" in data else [data])
            except (OSError, ValueError, TypeError) as exc:
                raise CommandError(f"--compare: cannot read a forecast's JSON from {name} "
                                   f"({exc}).") from None
        if sum(len(group) for group in forecasts) < 2:
            raise CommandError("--compare: give two or more forecasts of one field.")
        try:
            paths = compare_paths([f for group in forecasts for f in group])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise CommandError(f"--compare: {exc}") from None
        self.stdout.write(json.dumps(paths, sort_keys=True) if opts["json"] else
                          paths_text(paths, card_set_of(opts).cards))

    def via_celery(self, opts: dict[str, Any]) -> None:
        """The forecast as a job for the workers (``balance.forecast.services``), followed to
        its end (``balance.cli.follow_job``); the options a job takes, the rest at their
        defaults."""
        from balance.cli import follow_job
        from balance.forecast.services import forecast_job_request
        from balance.services import BalanceInputError
        from common.deck_refs import spec_or_starter

        agent, *further = [a.strip() for a in (opts["agents"] or opts["agent"]).split(",")
                           if a.strip()] or [opts["agent"]]
        low, high = self.band(opts["band"])
        patch = load_patch_for_cli(opts["patch"])
        sizes = {k: opts[k] for k in ("tune_games", "round_games", "final_games",
                                      "swaps_per_round", "exploit_swaps")}
        try:
            job = forecast_job_request(
                user=None, deck_specs=[spec_or_starter(n) for n in opts["decks"] or ()],
                agent=agent, further_agents=further,
                band=(round(low * 100, 6), round(high * 100, 6)),
                patch=patch.to_dict() if patch else None, max_changes=opts["max_changes"],
                settle=opts["settle"], max_rounds=opts["max_rounds"],
                budget_games=opts["budget_games"], verify_games=opts["verify_games"],
                seed=opts["seed"], is_public=True, **sizes)
        except BalanceInputError as exc:
            option = {"further_agents": "agents"}.get(exc.field, exc.field)
            raise CommandError(f"--{option.replace('_', '-')}: {exc.message}") from None
        start = time.monotonic()
        follow_job(self, job, opts, what="meta forecast",
                   line=lambda _job, event: progress_line(time.monotonic() - start, event))

    def replay(self, opts: dict[str, Any]) -> None:
        """``--replay``: the forecast's figures against their replay on fresh seeds."""
        try:
            data = json.loads(Path(opts["replay"]).read_text())
        except (OSError, ValueError) as exc:
            raise CommandError(f"--replay: cannot read a forecast's JSON ({exc}).") from None
        if isinstance(data, dict) and data.get("patch") and not opts["patch"]:
            raise CommandError(REPLAY_PATCH.format(name=data["patch"].get("name")))
        cards, _ = patched_cards_for_cli(card_set_of(opts).cards,
                                         load_patch_for_cli(opts["patch"]), opts["card_set"])
        agent = data.get("agent") if isinstance(data, dict) else None
        field = TuneField(cards=cards, opponents=(), agent=str(agent or opts["agent"]))
        start, cpu = time.monotonic(), time.process_time()
        with LocalPairEvaluator(field, processes=max(1, opts["processes"])) as evaluator:
            try:
                out = replay_forecast(data, evaluator, seed=opts["seed"])
            except ForecastError as exc:
                raise CommandError(str(exc)) from None
        out.update(wall_seconds=round(time.monotonic() - start, 1),
                   cpu_seconds_this_process=round(time.process_time() - cpu, 1))
        self.stdout.write(json.dumps(out, sort_keys=True) if opts["json"] else replay_text(out))

    @staticmethod
    def band(text: str) -> tuple[float, float]:
        try:
            low, high = (float(part) / 100 for part in text.split("-"))
        except ValueError:
            raise CommandError(BAD_BAND.format(value=text)) from None
        if not low < 0.5 < high:
            raise CommandError(BAD_BAND.format(value=text))
        return low, high

    def problem(self, opts: dict[str, Any]) -> ForecastProblem:
        card_set = card_set_of(opts)
        try:
            decks = tuple(card_set.deck(n) for n in opts["decks"]) if opts["decks"] else \
                tuple(card_set.decks.values())
        except KeyError as exc:
            raise CommandError(f"--decks: {exc.args[0]}") from None
        cards, self.diff = patched_cards_for_cli(
            card_set.cards, load_patch_for_cli(opts["patch"]), opts["card_set"])
        for option, least in (("tune_games", 2_000), ("verify_games", 100),
                              ("round_games", 50), ("final_games", 100),
                              ("budget_games", 2_000), ("max_rounds", 1),
                              ("swaps_per_round", 1), ("exploit_swaps", 1)):
            if opts[option] < least:
                raise CommandError(SMALL.format(option="--" + option.replace("_", "-"),
                                                least=least, value=opts[option]))
        problem = ForecastProblem(
            cards=cards, archetypes=decks, agent=opts["agent"],
            max_changes=opts["max_changes"], settle=opts["settle"] / 100,
            max_rounds=opts["max_rounds"], budget_games=opts["budget_games"],
            swaps_per_round=opts["swaps_per_round"], tune_games=opts["tune_games"],
            verify_games=opts["verify_games"], round_games=opts["round_games"],
            final_games=opts["final_games"], exploit_swaps=opts["exploit_swaps"],
            seed=opts["seed"], further_agents=opts["further_agents"],
            band=self.band(opts["band"]))
        try:
            problem.check()
        except ForecastError as exc:
            raise CommandError(str(exc)) from None
        return problem

