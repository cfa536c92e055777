"""Skill corrections shrunk toward zero by their noise (empirical Bayes, James–Stein style).

A move's *skill correction* under a further agent (``strong.StrongCheck.screen``) is what it
does there beyond what it does under the first agent, in log-odds per matchup: a difference of
four measured log-odds, each on a few hundred games. The screening keeps the moves whose
corrections are largest, so a correction measured on few games is as likely luck as a lever,
and added as measured it would overshoot (the winner's curse). Each one is therefore replaced
by its posterior mean under a normal prior centred on zero — the normal–normal empirical Bayes
estimate of Efron and Morris ("Data analysis using Stein's estimator and its
generalizations", JASA 70, 1975; Morris, "Parametric empirical Bayes inference", JASA 78,
1983):

    shrunk = estimate × τ² / (τ² + σ²)

- σ² is the estimate's noise: its squared standard error. The moves are played on the same
  deals as the unpatched field (common random numbers), so block ``k`` of a move and block
  ``k`` of the unpatched field are a pair; the variance of the per-block paired differences,
  pooled over every move and matchup of one agent, divided by the blocks behind an estimate,
  is its noise (``paired_noise``) — one per side (the further agent's and the first's), added.
  Where no estimate has two blocks to pair, the binomial bound for two independent
  log-odds (1/(n·p·(1−p)) each) stands in: common random numbers only make the difference less
  noisy, so it shrinks more, never less.
- τ² is the spread of the true corrections, estimated from all of one agent's corrections at
  once: the mean of estimate² − σ², at least 0 (``signal_variance``).

So a correction on few games shrinks more than one on many, a noiseless one is unchanged, and
when the corrections spread no more than their noise they all shrink to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from rules.lab.balance_search.evaluate import Tally, logit, smoothed_rate

K = TypeVar("K")
M = TypeVar("M")


def shrink_factor(signal: float, noise: float) -> float:
    """τ² / (τ² + σ²): 1 for a noiseless estimate, 0 when nothing is signal."""
    if noise <= 0:
        return 1.0
    return signal / (signal + noise) if signal > 0 else 0.0


def signal_variance(estimates: Iterable[tuple[float, float]]) -> float:
    """τ² from ``(estimate, noise)`` pairs: the mean of estimate² − noise, at least 0."""
    pairs = list(estimates)
    if not pairs:
        return 0.0
    return max(0.0, sum(x * x - v for x, v in pairs) / len(pairs))


def shrink(estimates: Mapping[K, Mapping[M, float]], noise: Mapping[K, Mapping[M, float]]
           ) -> dict[K, dict[M, float]]:
    """Every estimate times ``shrink_factor`` (τ² from them all, σ² its own noise; an estimate
    without a noise figure is taken as noiseless)."""
    pairs = [(x, noise.get(key, {}).get(m, 0.0))
             for key, per in estimates.items() for m, x in per.items()]
    signal = signal_variance(pairs)
    return {key: {m: x * shrink_factor(signal, noise.get(key, {}).get(m, 0.0))
                  for m, x in per.items()} for key, per in estimates.items()}


def block_logits(blocks: Sequence[Tally]) -> list[float]:
    return [logit(smoothed_rate(block)) for block in blocks]


def pooled_block_variance(pairs: Iterable[tuple[Sequence[Tally], Sequence[Tally]]]
                          ) -> float | None:
    """The variance of one block's paired difference in log-odds (a move's block against the
    unpatched field's block on the same deals), pooled over ``pairs`` of block lists; None
    when no list has two blocks."""
    total, freedom = 0.0, 0
    for moved, base in pairs:
        diffs = [a - b for a, b in zip(block_logits(moved), block_logits(base), strict=False)]
        if len(diffs) < 2:
            continue
        mean = sum(diffs) / len(diffs)
        total += sum((d - mean) ** 2 for d in diffs)
        freedom += len(diffs) - 1
    return total / freedom if freedom else None


def binomial_noise(moved: Tally, base: Tally) -> float:
    """The variance of a difference of two independent log-odds (delta method)."""
    out = 0.0
    for tally in (moved, base):
        rate = smoothed_rate(tally)
        out += 1.0 / (max(1, tally.completed) * rate * (1 - rate))
    return out


def paired_noise(pairs: Mapping[K, Mapping[M, tuple[Sequence[Tally], Sequence[Tally]]]]
                 ) -> dict[K, dict[M, float]]:
    """The noise (squared standard error) of each effect measured as the difference in
    log-odds between a move's blocks and the unpatched field's on the same deals: the pooled
    per-block variance divided by its blocks, or the binomial bound (see the module's
    docstring)."""
    pooled = pooled_block_variance(p for per in pairs.values() for p in per.values())
    out: dict[K, dict[M, float]] = {}
    for key, per in pairs.items():
        out[key] = {}
        for m, (moved, base) in per.items():
            if pooled is not None:
                out[key][m] = pooled / max(1, len(moved))
            else:
                out[key][m] = binomial_noise(_total(moved), _total(base))
    return out


def _total(blocks: Sequence[Tally]) -> Tally:
    total = Tally()
    for block in blocks:
        total = total + block
    return total


__all__ = ["binomial_noise", "paired_noise", "pooled_block_variance", "shrink",
           "shrink_factor", "signal_variance"]
