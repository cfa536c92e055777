"""The match runner's old address, kept for tools outside the project that import it (the
shared instruction counter, ``instr_per_game``, imports ``rules.match`` and ``rules.cardset``).
The runner lives in ``rules.lab.match``; the project imports it from there."""

from rules.lab.match import game_seed, play_game, run_games

__all__ = ["game_seed", "play_game", "run_games"]
