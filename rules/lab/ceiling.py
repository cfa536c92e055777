"""The ceiling of the planner's kind of play: the planner given every hidden card.

``python -m rules.lab.ceiling [--games 1000] [--processes 2] [--set FILE] [--worlds N]
[--horizon N] [--know all|board|hand] [--json]`` plays ``OmniscientPlanner`` — the planner
(``rules.ai.planner``) whose worlds are copies of the true game, so it knows the enemy's hand, the
enemy's face-down minions and the order of both decks — against every agent the planner meets
on the AI ladder, with the ladder's seeds and deck pairings, and prints its win rates beside
the honest planner's stored in ``rules/data/ladder.json``. ``--worlds`` and ``--horizon`` give
it more budget than the planner's (a horizon of 100 turns plays every rollout to the end of the
game); ``--know board`` or ``--know hand`` tells it only the enemy's face-down minions or only
the enemy's hand (the rest guessed as the planner guesses it), to see what each is worth.

What it answers: how much of the gap between the planner and a target win rate is information
the planner cannot have. A win rate its omniscient twin does not reach is out of reach of any
better guess at the hidden cards; only better play (its policy and evaluation) or far more
search can close it.

It is a measuring device, not an agent: it reads the true game, so it is not registered in
``rules.ai.agents``, the site never offers it, and the hidden-information tests would fail it.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rules.ai.agents import agent_spec, make_agent
from rules.ai.planner import HORIZON, WORLDS, PlannerAgent
from rules.ai.ratings import LADDER_FILE, load_ladder
from rules.decks.cardset import CORE_SET, TEST_SET
from rules.lab.ladder import rung

if TYPE_CHECKING:
    from rules.engine.agent import Agent
    from rules.engine.game import Game
    from rules.engine.view import PlayerView

NAME = "omniscient"


KNOWLEDGE = ("all", "board", "hand")


class OmniscientPlanner(PlannerAgent):
    """The planner with every world a copy of the true game (a fresh RNG each, so effects
    that shuffle or pick at random still vary between worlds) — or, knowing only the enemy's
    ``board`` or ``hand``, the planner's own guessed worlds with that part made true."""

    name = NAME

    def __init__(self, know: str = "all", **kwargs: Any) -> None:
        if know not in KNOWLEDGE:
            raise ValueError(f"know must be one of {', '.join(KNOWLEDGE)}, not {know!r}")
        super().__init__(**kwargs)
        self.know = know

    def _sample_worlds(self, view: PlayerView, rng: random.Random) -> list[Game]:
        truth = cast("Game", view._game)     # every view is made by Game.view
        if self.know != "all":
            worlds = super()._sample_worlds(view, rng)
            enemy = 1 - view.player
            for world in worlds:
                guessed, true = world.players[enemy], truth.players[enemy]
                if self.know == "hand":
                    guessed.hand = list(true.hand)
                    continue
                for minion, true_minion in zip(guessed.minions, true.minions, strict=True):
                    if minion is not None and true_minion is not None:
                        minion.card, minion.keywords = true_minion.card, true_minion.keywords
            return worlds
        worlds = []
        for _ in range(self.worlds):
            world = truth.copy()
            world.rng = random.Random(rng.getrandbits(64))
            worlds.append(world)
        return worlds


def make(name: str, worlds: int = WORLDS, horizon: int = HORIZON,
         know: str = "all") -> Agent:
    """The omniscient planner for its name, any registered agent for its own."""
    if name == NAME:
        return OmniscientPlanner(worlds=worlds, horizon=horizon, know=know)
    return make_agent(name)


def measure(path: Path, games: int, processes: int, worlds: int = WORLDS,
            horizon: int = HORIZON, ladder: dict[str, Any] | None = None,
            know: str = "all") -> dict[str, dict[str, Any]]:
    """``{"omniscient-vs-<agent>": {"games", "wins", "losses", "draws", "errors", "win_rate",
    "average_turns", "cpu_seconds_per_game", "planner_win_rate"}}`` for each agent the
    planner is measured against; ``planner_win_rate`` is the honest planner's stored ladder
    rate against the same agent (None when the ladder has no such rung)."""
    ladder = {} if ladder is None else ladder
    builder = functools.partial(make, worlds=worlds, horizon=horizon, know=know)
    report = {}
    for weak in agent_spec("planner").measured_against:
        measured, per_game = rung(path, NAME, weak, games, processes, make=builder)
        stats = measured.to_dict()
        entry: dict[str, Any] = {key: stats[key] for key in (
            "games", "wins", "losses", "draws", "errors", "win_rate", "average_turns")}
        entry["cpu_seconds_per_game"] = {k: round(v, 6) for k, v in per_game.items()}
        entry["planner_win_rate"] = ladder.get(f"planner-vs-{weak}", {}).get("win_rate")
        report[f"{NAME}-vs-{weak}"] = entry
    return report


def _percent(rate: dict[str, Any] | None) -> str:
    if rate is None:
        return "not on the ladder"
    return f"{rate['rate'] * 100:.1f} % ({rate['low'] * 100:.1f} – {rate['high'] * 100:.1f})"


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--set", dest="card_set", default=None)
    parser.add_argument("--worlds", type=int, default=WORLDS,
                        help=f"worlds a decision (the planner's: {WORLDS})")
    parser.add_argument("--horizon", type=int, default=HORIZON,
                        help=f"turns each rollout looks past the opponent's (the planner's: "
                             f"{HORIZON}; 100 plays to the end)")
    parser.add_argument("--know", choices=KNOWLEDGE, default="all",
                        help="what it knows: every hidden card (all), or only the enemy's "
                             "face-down minions (board) or hand (hand)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.worlds < 1 or args.horizon < 0:
        parser.error("--games and --worlds must be at least 1, --horizon at least 0")
    path = Path(args.card_set) if args.card_set else (CORE_SET if CORE_SET.exists()
                                                      else TEST_SET)
    ladder = load_ladder() if LADDER_FILE.exists() else {}
    report = measure(path, args.games, args.processes, args.worlds, args.horizon, ladder,
                     args.know)
    if args.json:
        print(json.dumps(report))
        return report
    for key, entry in report.items():
        weak = key.split("-vs-")[1]
        own = entry["cpu_seconds_per_game"][NAME]
        print(f"omniscient planner (knows {args.know}, worlds {args.worlds}, horizon "
              f"{args.horizon}) vs {weak}: "
              f"{entry['wins']}–{entry['losses']}–{entry['draws']} in {entry['games']} games, "
              f"{_percent(entry['win_rate'])}, {own:.3f} CPU s a game; the planner on the "
              f"ladder: {_percent(entry['planner_win_rate'])}", flush=True)
    return report


if __name__ == "__main__":
    main()
