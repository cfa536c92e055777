"""The lean planner: the planner's search, spent where it decides, at a fourth to a fifth of
its cost.

It is ``rules.ai.planner.PlannerAgent`` — the same policy, evaluation, determinization and
rollouts — with a smaller budget, spent by measurement:

- it searches only main-phase decisions; targets, replenish, optional skills and the other
  answers come from its policy (about a quarter of the planner's searches, the ones that
  moved its win rate least);
- ``WORLDS`` sampled worlds instead of three; every shortlisted action is played in the first,
  and only the ``KEEP`` best of them go on to the next (successive halving), so a decision
  costs the shortlist plus ``KEEP`` rollouts instead of three times the shortlist;
- when the first world already separates the two best actions by ``SETTLE`` points of the
  evaluation (about a three-attack minion awake), the second world is neither sampled nor
  played.

Its strength and cost beside the planner's are on the AI ladder (``rules/data/ladder.json``)
and in ``docs/lean-planner.md``, with the commands that measured them.

Invariant: as the planner's — it reads only its view and its own RNG, so the same seed plays
the same game.
"""

from __future__ import annotations

from typing import Final

from rules.ai.planner import GREEDY_KINDS, PlannerAgent

WORLDS: Final = 2
KEEP: Final = 2
SETTLE: Final = 8.0
# Every decision kind but the main phase is answered by the policy.
POLICY_KINDS: Final = GREEDY_KINDS | frozenset({
    "optional", "replenish", "pick", "target", "discard", "choose", "discard_display"})


class LeanPlannerAgent(PlannerAgent):
    name = "lean"

    def __init__(self) -> None:
        super().__init__(worlds=WORLDS, keep=KEEP, settle=SETTLE, greedy_kinds=POLICY_KINDS)
