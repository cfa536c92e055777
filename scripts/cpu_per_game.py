"""CPU seconds per game of an agent against greedy: run from a checkout's root, so that two
builds (say, a worktree of an older commit and this one) can be timed side by side, in
alternate runs at the same moment (instructions per game: scripts/instr_per_game.sh).

  python scripts/cpu_per_game.py AGENT [GAMES]

plays a warm-up game, then GAMES (default 60) seat-swapped games of AGENT against greedy over
every ordered pairing of the core set's starter decks, through the match runner (per-card
figures included, logging off), and prints the CPU milliseconds of a whole game (both agents
and the engine) and games per CPU second. The same command plays the same games in any
checkout whose agents play the same games.
"""

import itertools
import os
import sys
import time

sys.path.insert(0, os.getcwd())  # run from the project root

from rules.compiled import compiled_modules  # noqa: E402
from rules.decks.cardset import CORE_SET, load_card_set  # noqa: E402
from rules.lab.match import run_games  # noqa: E402

agent = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 60
cs = load_card_set(CORE_SET)
names = list(cs.decks)
pairs = list(itertools.permutations(names, 2))
run_games(cs.cards, cs.deck(names[0]), cs.deck(names[1]), seed=1, start=0, stop=2,
          agent_a=agent, agent_b="greedy")
played = 0
start = time.process_time()
for i in range(games // 2):
    a, b = pairs[i % len(pairs)]
    stats, _ = run_games(cs.cards, cs.deck(a), cs.deck(b), seed=300 + i, start=0, stop=2,
                         agent_a=agent, agent_b="greedy")
    played += 2
seconds = time.process_time() - start
print(f"{os.path.basename(os.getcwd())} {agent}: {played} games, "
      f"{1000 * seconds / played:.1f} ms a game, {played / seconds:.1f} games/s "
      f"(compiled modules: {len(compiled_modules())})")
