"""The play benchmark prints what an agent's move and a request's replay cost."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tools.play_bench import play_bench


def test_the_bench_times_every_decision_of_the_agent_and_each_games_replay():
    figures = play_bench(agent="greedy", games=2)
    assert figures.games == 2 and len(figures.replays) == 2
    assert len(figures.moves) > 20 and all(m >= 0 for m in figures.moves)
    assert sum(figures.actions) > len(figures.moves)        # P1's moves are not counted


def test_the_command_prints_the_figures():
    out = StringIO()
    call_command("play_bench", "--agent", "random", "--games", "1", stdout=out)
    text = out.getvalue()
    assert "random's move (CPU s): median" in text and "replay of a whole game" in text


@pytest.mark.django_db
def test_the_step_bench_times_every_step_each_way(catalogue):
    out = StringIO()
    call_command("play_bench", "--every-step", "40", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("?step= at each of the 40 steps of a game")
    assert all("the answer" in line and "the game at the step" in line for line in lines[1:])
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "replayed from the start", "a main-phase step from its snapshot, else replayed (before)",
        "rebuilt from the kept snapshots (now)"]
