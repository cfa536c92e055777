"""Training the learned evaluator (``rules.ai.value_model``) from games, on CPU, with numpy alone.

``python -m rules.lab.learned_training [--seed 1] [--games 6000] [--rounds 4]
[--round-games 2000] [--eval-games 240] [--hidden 32] [--set FILE] [--out FILE] [--curve SVG]``

1. *Outcomes of the existing agents' games*: ``--games`` games over every ordered pairing of the
   set's starter decks, played by greedy, the planner's tuned policy and (one in twenty) the
   planner itself against one another. At the first decision of every turn each seat's view is
   turned into ``value_features`` (the moment the learned agents judge positions at: a turn
   just over); the label is whether that seat won the game.
2. *A value regression*: a one-hidden-layer network (``--hidden`` tanh units; 0 is logistic
   regression) fitted by Adam on the log-loss, in numpy (``fit``).
3. *Rounds of self-play*: each round the learned agent (``rules.ai.learned.LearnedAgent``) with
   the current model plays ``--round-games`` games, half against itself and half against the
   policy and greedy; their positions join the data and the network is fitted again from where
   it was.
4. After the first fit and after every round the cheap learned agent plays ``--eval-games``
   seat-swapped games against greedy and against the planner: the learning curve, printed, kept
   in the model file (``meta.curve``) and drawn as an SVG (``--curve``).

Reproducible: every game seed, sample and initial weight comes from ``--seed``. Training games
use run seeds from ``TRAIN_SEEDS`` on, evaluation games from ``EVAL_SEEDS`` on — neither is the
AI ladder's — and the game seeds of training are checked against those of every evaluation:
an overlap is an error, not a number.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from rules.ai.greedy import GreedyAgent
from rules.ai.learned import LearnedAgent
from rules.ai.planner import POLICY, PlannerAgent
from rules.ai.value_features import features
from rules.ai.value_model import SHIPPED_MODEL, Floats, ValueModel, card_codes
from rules.decks.cardset import CORE_SET, CardSet, load_card_set
from rules.engine.actions import Action
from rules.engine.agent import Agent
from rules.engine.view import PlayerView
from rules.lab.learned_curve import write_curve
from rules.lab.match import game_seed, play_game, tally
from rules.lab.stats import MatchStats

TRAIN_SEEDS: Final = 1_000_000      # run seeds of training games: TRAIN_SEEDS + seed * 1000 + …
EVAL_SEEDS: Final = 2_000_000       # run seeds of the evaluation games
CURVE: Final = Path(__file__).resolve().parents[2] / "docs" / "learned-agent-curve.svg"
OVERLAP: Final = "training and evaluation share game seeds: {seeds}"


class _Recorder:
    """An agent that keeps, at the first decision of every turn, both seats' features, each
    from its own view: the moment the learned agents judge a position at (a turn just over)."""

    def __init__(self, agent: Agent, rows: list[tuple[int, list[float]]],
                 turn: list[int]) -> None:
        self.agent, self.rows, self.turn = agent, rows, turn
        self.needs_view = True

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        assert view is not None
        if view.turn != self.turn[0]:           # shared by both seats' recorders
            self.turn[0] = view.turn
            other = PlayerView(view._game, view.opponent)   # what the other seat sees now
            self.rows.append((view.player, features(view)))
            self.rows.append((other.player, features(other)))
        return self.agent.choose(view, legal, rng)


@dataclass
class Data:
    blocks: list[npt.NDArray[np.float32]] = field(default_factory=list)   # a game's rows each
    labels: list[npt.NDArray[np.float32]] = field(default_factory=list)
    games: int = 0
    positions: int = 0
    seeds: set[int] = field(default_factory=set)     # every game seed played for training

    def add(self, rows: list[list[float]], labels: list[float]) -> None:
        if rows:
            self.blocks.append(np.asarray(rows, dtype=np.float32))
            self.labels.append(np.asarray(labels, dtype=np.float32))
            self.positions += len(rows)

    def arrays(self) -> tuple[Floats, Floats]:
        return (np.concatenate(self.blocks).astype(np.float64),
                np.concatenate(self.labels).astype(np.float64))


def _pairings(card_set: CardSet) -> list[tuple[str, str]]:
    return list(itertools.permutations(card_set.decks, 2))


def play_for_data(card_set: CardSet, data: Data, run_seed: int, games: int,
                  players: Iterator[tuple[Agent, Agent]], label: str) -> None:
    """Play ``games`` seat-swapped games (deck pairings in turn) and add their positions."""
    pairings = _pairings(card_set)
    for index in tqdm(range(games), desc=label, unit="game", leave=False):
        deck_a, deck_b = pairings[(index // 2) % len(pairings)]
        first, second = next(players)
        rows: list[tuple[int, list[float]]] = []
        turn = [-1]
        seed = game_seed(run_seed, index)
        result = play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                           seed=seed, a_first=index % 2 == 0,
                           agent_a=_Recorder(first, rows, turn),
                           agent_b=_Recorder(second, rows, turn))
        data.seeds.add(seed)
        if result.error is not None:
            continue
        data.games += 1
        winner = {"a": 0, "b": 1, None: None}[result.winner]
        data.add([row for _, row in rows],
                 [0.5 if winner is None else float(winner == seat) for seat, _ in rows])


def fit(x: Floats, y: Floats, *, hidden: int, seed: int, epochs: int,
        start: ValueModel | None = None, cards: list[str] | None = None,
        rate: float = 0.003, batch: int = 256, l2: float = 1e-4) -> ValueModel:
    """A network fitted to ``x`` → ``y`` (chances in [0, 1]) by Adam on the log-loss, from
    ``start``'s weights when given (its standardisation kept), else from small random ones."""
    rng = np.random.default_rng(seed)
    size = x.shape[1]
    if start is not None:
        mean, scale = start.mean, start.scale
        params = [start.hidden_weights.copy(), start.hidden_bias.copy(),
                  start.out_weights.copy(), np.array([start.out_bias])]
    else:
        mean = x.mean(axis=0)
        std = x.std(axis=0)
        scale = np.where(std > 1e-9, std, 1.0)
        width = hidden if hidden else size
        params = [rng.normal(0, 1 / np.sqrt(size), (size, hidden)), np.zeros(hidden),
                  rng.normal(0, 1 / np.sqrt(width), width) * (0.1 if hidden else 0.0),
                  np.zeros(1)]
    xs = (x - mean) / scale
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(xs))
        for begin in range(0, len(xs), batch):
            take = order[begin:begin + batch]
            grads = _gradients(params, xs[take], y[take], hidden, l2)
            step += 1
            for p, g, m, v in zip(params, grads, moments, squares, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return ValueModel(mean=mean, scale=scale, hidden_weights=params[0], hidden_bias=params[1],
                      out_weights=params[2], out_bias=float(params[3][0]),
                      cards=list(cards or (start.cards if start else [])))


def _gradients(params: list[Floats], x: Floats, y: Floats, hidden: int,
               l2: float) -> list[Floats]:
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1) if hidden else x
    p = 1 / (1 + np.exp(-(h @ w2 + b2[0])))
    d = (p - y) / len(y)                     # the log-loss's gradient at the logit
    g_w2 = h.T @ d + l2 * w2
    g_b2 = np.array([d.sum()])
    if not hidden:
        return [np.zeros_like(w1), np.zeros_like(b1), g_w2, g_b2]
    dh = np.outer(d, w2) * (1 - h * h)
    return [x.T @ dh + l2 * w1, dh.sum(axis=0), g_w2, g_b2]


def log_loss(model: ValueModel, x: Floats, y: Floats) -> float:
    p = np.clip(model.win_chances(x), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def evaluate(card_set: CardSet, make: Agent, rival: Agent, games: int, run_seed: int,
             forbidden: set[int]) -> dict[str, Any]:
    """``games`` seat-swapped games of ``make`` against ``rival`` over the deck pairings: the
    win rate with its paired interval (``MatchStats``). Raises if a seed was trained on."""
    pairings = _pairings(card_set)
    per = max(2, -(-games // len(pairings)))
    per += per % 2
    stats = MatchStats()
    for i, (deck_a, deck_b) in enumerate(pairings):
        seeds = {game_seed(run_seed + i, index) for index in range(per)}
        if seeds & forbidden:
            raise ValueError(OVERLAP.format(seeds=sorted(seeds & forbidden)[:5]))
        for index in range(per):
            tally(stats, play_game(card_set.cards, card_set.deck(deck_a), card_set.deck(deck_b),
                                   seed=game_seed(run_seed + i, index), a_first=index % 2 == 0,
                                   agent_a=make, agent_b=rival))
    figures = stats.to_dict()
    rate = figures["win_rate"]
    return {"games": figures["games"], "rate": rate["rate"], "low": rate["low"],
            "high": rate["high"], "errors": figures["errors"]}


def training_players(model_agent: Agent | None, seed: int) -> Iterator[tuple[Agent, Agent]]:
    """Who plays the training games: before a model, greedy, the policy and (one game in
    twenty) the planner; with one, the learned agent against itself half the time and against
    the policy or greedy otherwise."""
    rng = random.Random(seed)
    greedy, policy, planner = GreedyAgent(), GreedyAgent(POLICY), PlannerAgent()
    while True:
        if model_agent is None:
            pool: list[Agent] = [greedy, policy]
            first = planner if rng.random() < 0.05 else rng.choice(pool)
            yield first, rng.choice(pool)
        else:
            rival: Agent = model_agent if rng.random() < 0.5 else rng.choice([policy, greedy])
            yield (model_agent, rival) if rng.random() < 0.5 else (rival, model_agent)


@dataclass
class Settings:
    seed: int = 1
    games: int = 20000
    rounds: int = 4
    round_games: int = 4000
    eval_games: int = 480
    planner_games: int = 240
    hidden: int = 32
    epochs: int = 12
    round_epochs: int = 6


def train(card_set: CardSet, settings: Settings, log: bool = True) -> ValueModel:
    """The whole run (see the module docstring); the model carries its curve in ``meta``."""
    began = time.process_time()
    data = Data()
    base = TRAIN_SEEDS + settings.seed * 1000
    play_for_data(card_set, data, base, settings.games, training_players(None, settings.seed),
                  "games of greedy, policy, planner")
    x, y = data.arrays()
    model = fit(x, y, hidden=settings.hidden, seed=settings.seed, epochs=settings.epochs,
                cards=card_codes(card_set.cards))
    curve = [_curve_row(card_set, model, settings, 0, data, log)]
    for round_no in range(1, settings.rounds + 1):
        agent = LearnedAgent(model)
        play_for_data(card_set, data, base + round_no, settings.round_games,
                      training_players(agent, settings.seed + round_no), f"self-play {round_no}")
        x, y = data.arrays()
        model = fit(x, y, hidden=settings.hidden, seed=settings.seed + round_no,
                    epochs=settings.round_epochs, start=model)
        curve.append(_curve_row(card_set, model, settings, round_no, data, log))
    model.meta = {"seed": settings.seed, "games": data.games, "positions": data.positions,
                  "settings": vars(settings), "cpu_seconds": round(time.process_time() - began),
                  "curve": curve, "card_set": card_set.code,
                  "command": "python -m rules.lab.learned_training " + " ".join(
                      f"--{k.replace('_', '-')} {v}" for k, v in vars(settings).items())}
    return model


def _curve_row(card_set: CardSet, model: ValueModel, settings: Settings, round_no: int,
               data: Data, log: bool) -> dict[str, Any]:
    x, y = data.arrays()
    run = EVAL_SEEDS + settings.seed * 1000 + round_no * 100
    row: dict[str, Any] = {"round": round_no, "games": data.games, "positions": data.positions,
           "log_loss": round(log_loss(model, x, y), 4),
           "greedy": evaluate(card_set, LearnedAgent(model), GreedyAgent(),
                              settings.eval_games, run, data.seeds),
           "planner": evaluate(card_set, LearnedAgent(model), PlannerAgent(),
                               settings.planner_games, run + 50, data.seeds)}
    if log:
        print(f"round {round_no}: {data.games} games, {data.positions} positions, log-loss "
              f"{row['log_loss']}, vs greedy {_pct(row['greedy'])}, vs planner "
              f"{_pct(row['planner'])}", flush=True)
    return row


def _pct(figure: dict[str, Any]) -> str:
    return (f"{figure['rate'] * 100:.1f} % ({figure['low'] * 100:.1f}–{figure['high'] * 100:.1f},"
            f" {figure['games']} games)")


def main(argv: list[str] | None = None) -> ValueModel:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Settings()
    for name, value in vars(defaults).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=value)
    parser.add_argument("--set", dest="card_set", default=str(CORE_SET))
    parser.add_argument("--out", default=str(SHIPPED_MODEL))
    parser.add_argument("--curve", default=str(CURVE))
    args = parser.parse_args(argv)
    settings = Settings(**{k: getattr(args, k) for k in vars(defaults)})
    card_set = load_card_set(Path(args.card_set))
    model = train(card_set, settings)
    model.save(Path(args.out))
    write_curve(model.meta["curve"], Path(args.curve))
    print(json.dumps({k: v for k, v in model.meta.items() if k != "curve"}))
    return model


if __name__ == "__main__":
    main()
