"""Screen a strong learned agent, or a variant of it, against the planner: run from a
checkout's root.

  python scripts/learned_screen.py [--games 960] [--seed 5000000] [--model FILE]
      [--worlds 2] [--candidates 4] [--margin 1] [--all-kinds]
      [--variant plain|counter|counter-any|unsure|reply|omniscient|omniscient-learned]
      [--q-worlds 2] [--q-candidates 4] [--gap 0.3] [--reply-weight 0] [--horizon 0]
      [--ensemble-weight 0.5] [--variant material|planner]

plays ``--games`` seat-swapped games over the 30 ordered pairings of the core set's starter
decks on run seeds from ``--seed`` on (5,000,000 on is no training, evaluation or ladder seed;
``rules.lab.learned_training.evaluate``) and prints one JSON line: the agent's win rate with
its 95 % paired interval, and each side's own CPU milliseconds a game (its decisions only,
timed in the same run). The variants, each a ``LearnedPlannerAgent`` unless said:

- ``plain`` (or ``ensemble``, its earlier name): the agent as shipped — both evaluators on the
  same rollouts, the learned value where its own turn ends and the planner's material after
  the opponent's reply (``--reply-turns`` turns on: 2 is after its own next turn too), each
  standardised over the shortlist and mixed ``--ensemble-weight``
  to the learned value (1: the learned value alone, the agent shipped before) — with the
  budget given (``--worlds``, ``--candidates``, ``--margin``; ``--all-kinds`` searches every
  decision kind the planner searches; ``--horizon`` turns after its own the learned value
  judges);
- ``material``: the planner's search and material on that budget (``PlannerAgent``, main-phase
  decisions only, every one searched), its rollouts stopped ``--horizon`` turns after its own;
- ``planner``: the planner itself on that budget (``--worlds`` × ``--candidates``, every
  decision kind it searches, its rollouts to the end of the opponent's next turn or
  ``--horizon`` turns if more): how much more search buys the planner against itself;
- the variants below change the learned value alone (``--ensemble-weight`` 1), as screened:
- ``counter``: a counter-attack question — two attacks or two awakenings among the policy's
  best ``--q-candidates`` actions (``counter-any``: two of either) — is searched as the planner
  searches (through the opponent's reply, the planner's material), on ``--q-worlds`` worlds;
- ``unsure``: ``--q-worlds`` × ``--q-candidates`` where the policy's two best are within
  ``--gap``;
- ``reply``: the learned value at the end of its own turn mixed with the learned value after
  the opponent's reply (``--reply-weight`` the first's share; 0 is the value after the reply);
- ``omniscient``: the planner whose worlds are the true game (``rules.lab.ceiling``), a
  measuring device; ``omniscient-learned``: the learned planner so (``--horizon`` too).
"""

import argparse
import heapq
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())  # run from the project root

from rules.ai.lean import POLICY_KINDS  # noqa: E402
from rules.ai.learned import LEARNED_SHARE, SCALE, LearnedPlannerAgent, finish_turn  # noqa: E402
from rules.ai.planner import GREEDY_KINDS, PlannerAgent  # noqa: E402
from rules.ai.planner import HORIZON as PLANNER_HORIZON  # noqa: E402
from rules.ai.rollout import ROLLOUT_ACTIONS, rollout  # noqa: E402
from rules.ai.value_model import SHIPPED_MODEL, load_model  # noqa: E402
from rules.decks.cardset import CORE_SET, load_card_set  # noqa: E402
from rules.lab.ceiling import OmniscientPlanner  # noqa: E402
from rules.lab.learned_training import evaluate  # noqa: E402

QUESTION = frozenset({"attack", "awaken"})


class Timed:
    """An agent whose decisions' CPU time is added up."""

    def __init__(self, agent):
        self.agent, self.cpu, self.name, self.needs_view = agent, 0.0, agent.name, True

    def choose(self, view, legal, rng):
        began = time.process_time()
        try:
            return self.agent.choose(view, legal, rng)
        finally:
            self.cpu += time.process_time() - began


class Counter(LearnedPlannerAgent):
    """Counter-attack questions searched as the planner searches them."""

    def __init__(self, model, worlds, candidates, q_worlds, q_candidates, any_kind):
        super().__init__(model, worlds=worlds, candidates=candidates, learned_share=1.0)
        self.base, self.more, self.any_kind = (worlds, candidates), (q_worlds, q_candidates), \
            any_kind
        self.mode, self.questions = "learned", 0

    def choose(self, view, legal, rng):
        self.mode = "learned"
        self.worlds, self.candidates = self.base
        if len(legal) > 1 and view.decision not in self.greedy_kinds:
            values = self.policy.score(view, legal)
            order = sorted(range(len(legal)), key=lambda i: -values[i])
            kinds = [legal[i].kind for i in order[: self.more[1]] if legal[i].kind in QUESTION]
            question = len(kinds) >= 2 if self.any_kind else \
                any(kinds.count(k) >= 2 for k in QUESTION)
            if question and values[order[0]] - values[order[1]] < self.margin:
                self.questions += 1
                self.mode = "planner"
                self.worlds, self.candidates = self.more
        return super().choose(view, legal, rng)

    def _rollout(self, game, action, player, rng):
        if self.mode == "planner":
            return rollout(game, action, player, self.policy, rng, 1, self.weights)
        return super()._rollout(game, action, player, rng)


class Unsure(LearnedPlannerAgent):
    """More worlds and candidates where the policy's two best are within ``gap``."""

    def __init__(self, model, worlds, candidates, q_worlds, q_candidates, gap):
        super().__init__(model, worlds=worlds, candidates=candidates, learned_share=1.0)
        self.base, self.more, self.gap = (worlds, candidates), (q_worlds, q_candidates), gap
        self.questions = 0

    def choose(self, view, legal, rng):
        self.worlds, self.candidates = self.base
        if len(legal) > 1 and view.decision not in self.greedy_kinds:
            best, second = heapq.nlargest(2, self.policy.score(view, legal))
            if best - second < self.gap:
                self.questions += 1
                self.worlds, self.candidates = self.more
        return super().choose(view, legal, rng)


class Reply(LearnedPlannerAgent):
    """The value at the end of its own turn mixed with the value after the opponent's reply."""

    def __init__(self, model, worlds, candidates, weight):
        super().__init__(model, worlds=worlds, candidates=candidates, learned_share=1.0)
        self.weight = weight

    def _rollout(self, game, action, player, rng):
        finish_turn(game, action, player, self.policy, rng, 0)
        first = self.model.value(game.view(player))
        if self.weight >= 1.0 or game.decision is None:
            return SCALE * first
        stop, count = game.turn + 1, 0
        while game.decision is not None and game.turn < stop and count < ROLLOUT_ACTIONS:
            seat = game.decision.player
            game.apply(self.policy.choose(game.view(seat), game.legal_actions(), rng),
                       check=False)
            count += 1
        after = self.model.value(game.view(player))
        return SCALE * (self.weight * first + (1 - self.weight) * after)


class OmniscientLearned(LearnedPlannerAgent):
    """The learned planner whose worlds are the true game (a measuring device)."""

    _sample_worlds = OmniscientPlanner._sample_worlds
    know = "all"

    def __init__(self, model):
        super().__init__(model, learned_share=1.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=960)
    parser.add_argument("--seed", type=int, default=5_000_000)
    parser.add_argument("--model", default=str(SHIPPED_MODEL))
    parser.add_argument("--worlds", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--margin", type=float, default=1.0)
    parser.add_argument("--all-kinds", action="store_true")
    parser.add_argument("--variant", default="plain",
                        choices=["plain", "counter", "counter-any", "unsure", "reply",
                                 "omniscient", "omniscient-learned", "material",
                                 "ensemble", "planner"])
    parser.add_argument("--q-worlds", type=int, default=2)
    parser.add_argument("--q-candidates", type=int, default=4)
    parser.add_argument("--gap", type=float, default=0.3)
    parser.add_argument("--reply-weight", type=float, default=0.0)
    parser.add_argument("--horizon", type=int, default=0)
    parser.add_argument("--ensemble-weight", type=float, default=LEARNED_SHARE)
    parser.add_argument("--reply-turns", type=int, default=1)
    args = parser.parse_args()
    model = load_model(Path(args.model))
    size, more = (args.worlds, args.candidates), (args.q_worlds, args.q_candidates)
    if args.variant == "omniscient":
        agent = OmniscientPlanner()
    elif args.variant == "omniscient-learned":
        agent = OmniscientLearned(model)
        agent.horizon = args.horizon
    elif args.variant == "material":
        agent = PlannerAgent(worlds=args.worlds, candidates=args.candidates,
                             horizon=args.horizon, greedy_kinds=POLICY_KINDS)
    elif args.variant == "planner":
        agent = PlannerAgent(worlds=args.worlds, candidates=args.candidates,
                             horizon=max(PLANNER_HORIZON, args.horizon))
    elif args.variant.startswith("counter"):
        agent = Counter(model, *size, *more, args.variant == "counter-any")
    elif args.variant == "unsure":
        agent = Unsure(model, *size, *more, args.gap)
    elif args.variant == "reply":
        agent = Reply(model, *size, args.reply_weight)
    else:
        agent = LearnedPlannerAgent(model, worlds=args.worlds, candidates=args.candidates,
                                    margin=args.margin, horizon=args.horizon,
                                    learned_share=args.ensemble_weight)
    if args.reply_turns != 1:
        if not isinstance(agent, LearnedPlannerAgent):
            parser.error(f"--reply-turns: the {args.variant} variant judges no reply")
        agent.reply_turns = args.reply_turns
    if args.all_kinds:
        agent.greedy_kinds = GREEDY_KINDS
    timed, rival = Timed(agent), Timed(PlannerAgent())
    began = time.time()
    result = evaluate(load_card_set(CORE_SET), timed, rival, args.games, args.seed, set())
    games = result["games"]
    print(json.dumps({
        "args": vars(args), "rate": round(100 * result["rate"], 1),
        "low": round(100 * result["low"], 1), "high": round(100 * result["high"], 1),
        "games": games, "errors": result["errors"],
        "agent_ms": round(1000 * timed.cpu / games, 2),
        "planner_ms": round(1000 * rival.cpu / games, 2),
        "searched_otherwise": getattr(agent, "questions", None),
        "wall_s": round(time.time() - began)}), flush=True)


if __name__ == "__main__":
    main()
