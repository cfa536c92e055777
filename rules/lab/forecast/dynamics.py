"""How the meta moves from round to round: the running mean of each round's ε-equilibrium.

After each round of re-tuning, the lists' matchups give a payoff matrix; its maximum-entropy
ε-equilibrium (``rules.lab.meta.relaxed_equilibrium``) is who a field that answers these lists
would play. The meta of round *t* is the mean of the patch-day shares (every archetype alike:
nobody knows the new meta yet) and the equilibria of rounds 1…*t* — fictitious play's step
1/(t+1), with the lab's ε-equilibrium as the answer:

- on a fixed matrix it converges to that matrix's ε-equilibrium (rock-paper-scissors: a third
  each; a dominated deck: nothing), at rate 1/t, from any start;
- jumping to each round's equilibrium instead lets a list tuned against last round's favourite
  be answered next round, and the field chase itself (a cycle in a rock-paper-scissors field);
  the mean damps the chase as fictitious play does in zero-sum games (Robinson, 1951);
- a discrete replicator step (shares × exp(η · payoff)) spirals away from the interior
  equilibrium of a zero-sum game (Bailey & Piliouras, EC 2018) and needs a step size: no step
  to choose here;
- the ε-equilibrium rather than the exact Nash equilibrium: the exact one hangs on differences
  smaller than the games measure, the maximum-entropy one spreads the field where the games
  cannot tell decks apart.

Pure numpy; deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rules.lab.meta import DEFAULT_EPSILON, Floats, payoff_matrix, relaxed_equilibrium


def patch_day(archetypes: int) -> tuple[float, ...]:
    """The meta before anyone adapts: every archetype alike."""
    return (1 / archetypes,) * archetypes


def meta_step(shares: Sequence[float], scores: Sequence[Sequence[float | None]], round_: int,
              *, epsilon: float = DEFAULT_EPSILON) -> tuple[tuple[float, ...], Floats]:
    """The meta after round ``round_`` (1, 2, …) and the round's ε-equilibrium, from the meta
    before it and the round's score matrix (row deck's wins + half its draws over games)."""
    answer = relaxed_equilibrium(payoff_matrix(scores), epsilon)
    before = np.array(shares, dtype=float)
    after = before + (answer - before) / (round_ + 1)
    after = np.clip(after, 0.0, None)
    return tuple(float(s) for s in after / after.sum()), answer
