"""Positions from the strong learned agent's search, labelled by play from them, and the
shipped model fitted further on them: run from a checkout's root.

  python scripts/learned_search_positions.py play OUT.npz [--games 1500] [--share 0.2]
      [--playouts 1] [--playout policy|learned|lean|planner] [--horizon 0] [--seed 9]
  python scripts/learned_search_positions.py fit OUT.json DATA.npz [DATA.npz …]
      [--epochs 4] [--rate 0.001] [--search-weight 1] [--game-weight 1]

``play``: ``--games`` games over the starter-deck pairings (training run seeds
``TRAIN_SEEDS + seed * 1000 + 500`` on) of ``LearnedPlannerAgent`` (the shipped model, its
rollouts stopped ``--horizon`` turns after its own) against the planner half the time and
itself otherwise. Where a rollout of its search stops, with probability ``--share``, the
position's features (its seat's view) are kept, labelled by ``--playouts`` games played on
from that world by ``--playout`` for both sides (the share it won). The games' own positions
(the first decision of each turn, both seats, labelled by the game's winner, as
``rules.lab.learned_training`` records them) are kept too. Saved as arrays ``sx``/``sy`` (search)
and ``gx``/``gy`` (games).

``fit``: the shipped model fitted further (Adam on the log-loss, its standardisation kept) on
the files' positions, 5 % held out for the log-loss printed before and after.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())  # run from the project root

import numpy as np  # noqa: E402

from rules.ai.greedy import GreedyAgent  # noqa: E402
from rules.ai.lean import LeanPlannerAgent  # noqa: E402
from rules.ai.learned import SCALE, LearnedAgent, LearnedPlannerAgent, finish_turn  # noqa: E402
from rules.ai.planner import POLICY, PlannerAgent  # noqa: E402
from rules.ai.value_features import features  # noqa: E402
from rules.ai.value_model import SHIPPED_MODEL, load_model  # noqa: E402
from rules.decks.cardset import CORE_SET, load_card_set  # noqa: E402
from rules.lab.learned_training import TRAIN_SEEDS, Data, fit, log_loss, play_for_data  # noqa: E402


class Recording(LearnedPlannerAgent):
    """The strong learned agent, keeping a share of the positions its rollouts stop at."""

    def __init__(self, model, horizon, rows, labels, share, playouts, seed, playout_agent):
        super().__init__(model, horizon=horizon, learned_share=1.0)   # as screened
        self.rows, self.labels, self.share, self.playouts = rows, labels, share, playouts
        self.record_rng = random.Random(seed)
        self.playout_agent = playout_agent

    def _rollout(self, game, action, player, rng):
        finish_turn(game, action, player, self.policy, rng, self.horizon)
        view = game.view(player)
        value = self.model.value(view)
        draw = self.record_rng
        if game.decision is not None and draw.random() < self.share:
            row = features(view)
            won = 0.0
            for k in range(self.playouts):
                world = game.copy(random.Random(draw.getrandbits(32))) \
                    if k + 1 < self.playouts else game
                rngs = (random.Random(draw.getrandbits(32)), random.Random(draw.getrandbits(32)))
                world.play_out((self.playout_agent, self.playout_agent), rngs, 2000)
                won += 0.5 if world.winner is None else float(world.winner == player)
            self.rows.append(row)
            self.labels.append(won / self.playouts)
        return SCALE * value


def play(args):
    card_set = load_card_set(CORE_SET)
    model = load_model(SHIPPED_MODEL)
    playout = {"policy": lambda: GreedyAgent(POLICY), "learned": lambda: LearnedAgent(model),
               "lean": LeanPlannerAgent, "planner": PlannerAgent}[args.playout]()
    rows, labels = [], []
    recording = Recording(model, args.horizon, rows, labels, args.share, args.playouts,
                          args.seed, playout)
    planner = PlannerAgent()

    def players():
        draw = random.Random(args.seed)
        while True:
            rival = recording if draw.random() < 0.5 else planner
            yield (recording, rival) if draw.random() < 0.5 else (rival, recording)

    data = Data()
    began = time.process_time()
    play_for_data(card_set, data, TRAIN_SEEDS + args.seed * 1000 + 500, args.games, players(),
                  "search games")
    x, y = data.arrays()
    np.savez_compressed(args.out, gx=x, gy=y, sx=np.asarray(rows, dtype=np.float64),
                        sy=np.asarray(labels))
    print(f"{data.games} games, {len(x)} game positions, {len(rows)} search positions, "
          f"{time.process_time() - began:.1f} CPU s", flush=True)


def fit_more(args):
    shipped = load_model(SHIPPED_MODEL)
    xs, ys = [], []
    for name in args.data:
        arrays = np.load(name)
        xs += [arrays["sx"]] * args.search_weight + [arrays["gx"]] * args.game_weight
        ys += [arrays["sy"]] * args.search_weight + [arrays["gy"]] * args.game_weight
    x, y = np.concatenate(xs), np.concatenate(ys)
    held = np.random.default_rng(0).random(len(x)) < 0.05
    before = log_loss(shipped, x[held], y[held])
    model = fit(x[~held], y[~held], hidden=shipped.hidden_weights.shape[1], seed=11,
                epochs=args.epochs, rate=args.rate, start=shipped, cards=shipped.cards)
    print(f"{len(x)} positions; held-out log-loss {before:.4f} → "
          f"{log_loss(model, x[held], y[held]):.4f}", flush=True)
    model.meta = {"fitted_further": vars(args)}
    model.save(Path(args.out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play")
    p.add_argument("out")
    p.add_argument("--games", type=int, default=1500)
    p.add_argument("--share", type=float, default=0.2)
    p.add_argument("--playouts", type=int, default=1)
    p.add_argument("--playout", default="policy",
                   choices=["policy", "learned", "lean", "planner"])
    p.add_argument("--horizon", type=int, default=0)
    p.add_argument("--seed", type=int, default=9)
    f = commands.add_parser("fit")
    f.add_argument("out")
    f.add_argument("data", nargs="+")
    f.add_argument("--epochs", type=int, default=4)
    f.add_argument("--rate", type=float, default=0.001)
    f.add_argument("--search-weight", type=int, default=1)
    f.add_argument("--game-weight", type=int, default=1)
    args = parser.parse_args()
    play(args) if args.command == "play" else fit_more(args)


if __name__ == "__main__":
    main()
