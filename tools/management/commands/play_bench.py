"""``python manage.py play_bench [--agent planner] [--games 6]``: what a move of an agent and a
request's replay of a game cost on this machine (``tools.play_bench``); ``--state-step N``: a
play state read; ``--every-step N``: ``?step=`` at every step of a game."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.ai.agents import AGENT_NAMES
from tools.play_bench import play_bench, state_read_bench, step_reads_bench


class Command(BaseCommand):
    help = "Time an agent's moves and a request's replay of a played game (CPU seconds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--agent", choices=AGENT_NAMES, default="planner")
        parser.add_argument("--games", type=int, default=6)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--state-step", type=int, default=0,
                            help="Only time a play state read at this step (e.g. 150).")
        parser.add_argument("--every-step", type=int, default=0,
                            help="Only time ?step= at every step of a game this many actions "
                                 "long (e.g. 150), the former way and the current one.")

    def handle(self, *args: Any, agent: str, games: int, seed: int, state_step: int,
               every_step: int, **options: Any) -> None:
        if every_step:
            for line in step_reads_bench(step=every_step, seed=seed).lines():
                self.stdout.write(line)
            return
        if state_step:
            for line in state_read_bench(step=state_step, seed=seed).lines():
                self.stdout.write(line)
            return
        for line in play_bench(agent=agent, games=max(1, games), seed=seed).lines():
            self.stdout.write(line)
