"""What a meta forecast reports: each round's lists as diffs from their printed lists, field
win rates with intervals and the meta's shares; the settled field's matchups, equilibria, the
cards it adopts and drops, and how far one more tuning exploits it. ``to_dict`` is the JSON
the command prints and the site keeps.

Every figure carries its games; a win rate's interval is computed on seat-swapped pairs (both
games of a pair share a seed: the pair is the independent unit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.lab.deck_tuning import Suggestion, TuningResult
from rules.lab.deck_tuning.problem import DeckKey
from rules.lab.deck_tuning.result import matchup_games
from rules.lab.forecast.reuse import LeftOut
from rules.lab.intervals import Moments, Rate, cluster_rate
from rules.lab.meta import Field as MetaField
from rules.lab.meta import MetaReport

Pairing = tuple[int, int]
EXAMPLES = 5        # left-out games the report names one by one


def list_diff(printed: DeckKey, key: DeckKey) -> list[dict[str, Any]]:
    """The list as a diff from its printed list: ``{"card", "copies"}``, out (−) before in."""
    before, after = dict(printed[1]), dict(key[1])
    rows = [{"card": c, "copies": after.get(c, 0) - before.get(c, 0)}
            for c in sorted(set(before) | set(after)) if after.get(c, 0) != before.get(c, 0)]
    return sorted(rows, key=lambda r: (r["copies"] > 0, r["card"]))


def card_moves(printed: Sequence[DeckKey], final: Sequence[DeckKey]
               ) -> dict[str, list[dict[str, Any]]]:
    """The cards the adapted lists adopt and drop: in how many archetypes, how many copies;
    most archetypes, then most copies, first."""
    moves: dict[str, dict[str, list[int]]] = {"adopted": {}, "dropped": {}}
    for before, after in zip(printed, final, strict=True):
        for row in list_diff(before, after):
            kind = "adopted" if row["copies"] > 0 else "dropped"
            entry = moves[kind].setdefault(row["card"], [0, 0])
            entry[0] += 1
            entry[1] += abs(row["copies"])
    return {kind: sorted(({"card": c, "archetypes": a, "copies": n}
                          for c, (a, n) in entries.items()),
                         key=lambda r: (-r["archetypes"], -r["copies"], r["card"]))
            for kind, entries in moves.items()}


def meta_field(names: Sequence[str], outcomes: Mapping[Pairing, str]) -> MetaField:
    return MetaField(list(names), {pair: matchup_games(o) for pair, o in outcomes.items()})


def _figure(rate: Rate) -> dict[str, Any]:
    return {"rate": round(rate["rate"], 4) if rate["rate"] is not None else None,
            "low": round(rate["low"], 4), "high": round(rate["high"], 4),
            "games": rate["games"]}


def matchup_table(n: int, outcomes: Mapping[Pairing, str]) -> list[list[dict[str, Any] | None]]:
    """Row deck's win rate against each column deck with its interval on pairs."""
    table: list[list[dict[str, Any] | None]] = [[None] * n for _ in range(n)]
    for (i, j), text in outcomes.items():
        for row, col, won in ((i, j, "a"), (j, i, "b")):
            m = Moments()
            for start in range(0, len(text), 2):
                pair = [c for c in text[start:start + 2] if c in "abd"]
                m.add_cluster(sum(c == won for c in pair), len(pair))
            table[row][col] = _figure(cluster_rate(m))
    return table


def field_rates(names: Sequence[str], outcomes: Mapping[Pairing, str]) -> list[dict[str, Any]]:
    field = meta_field(names, outcomes)
    return [_figure(field.field_rate(d)) for d in range(len(names))]


@dataclass(frozen=True)
class ArchetypeTuning:
    """One archetype's tuning of one round: the verified gain of its best suggestion."""

    suggestion: Suggestion | None
    adopted: bool
    games: int                          # games played
    reused: int = 0                     # games read from an earlier round instead

    def to_dict(self) -> dict[str, Any]:
        s = self.suggestion
        return {"adopted": self.adopted, "games": self.games, "reused": self.reused,
                "swaps": [w.to_dict() for w in s.swaps] if s else [],
                "improvement": s.improvement if s else None,
                "verified": s.verified.interval() if s else None,
                "baseline": s.baseline.interval() if s else None}


@dataclass(frozen=True)
class Round:
    number: int                         # 0: patch day
    lists: tuple[DeckKey, ...]
    shares: tuple[float, ...]           # the meta after this round
    answer: tuple[float, ...]           # this round's ε-equilibrium
    outcomes: Mapping[Pairing, str]     # the round's matchups (seeds shared across rounds)
    tunings: tuple[ArchetypeTuning | None, ...]
    check: bool = False                 # its tunings were the exploitability's (a check)

    def to_dict(self, names: Sequence[str], printed: Sequence[DeckKey]) -> dict[str, Any]:
        rates = field_rates(names, self.outcomes) if self.outcomes else [None] * len(names)
        return {"round": self.number, "check": self.check,
                "shares": [round(s, 4) for s in self.shares],
                "equilibrium": [round(s, 4) for s in self.answer],
                "decks": [{"name": name, "hero": key[0], "cards": dict(key[1]),
                           "diff": list_diff(base, key), "field": rate,
                           "tuning": t.to_dict() if t is not None else None}
                          for name, key, base, rate, t in zip(
                              names, self.lists, printed, rates, self.tunings, strict=True)]}


@dataclass(frozen=True)
class Exploit:
    """One more tuning of an archetype's settled list against the settled mix."""

    archetype: int
    result: TuningResult

    def best(self) -> tuple[dict[str, Any], Suggestion | None]:
        """The best verified figure: the best suggestion's if it beats the settled list on
        the fresh seeds, else the settled list's own."""
        for s in self.result.suggestions:
            if s.improvement["change"] > 0:
                return s.verified.interval(), s
        return self.result.baseline.interval(), None


@dataclass(frozen=True)
class ForecastResult:
    names: tuple[str, ...]
    printed: tuple[DeckKey, ...]
    rounds: tuple[Round, ...]
    final: Mapping[Pairing, str]        # the settled lists on fresh seeds
    meta: MetaReport
    exploits: tuple[Exploit, ...]
    stopped: str                        # "settled", "budget" or "rounds"
    games: Mapping[str, int]            # by step: rounds, tuning, final, exploit
    agent: str
    final_games: int
    further: Mapping[str, Mapping[Pairing, str]] = field(default_factory=dict)
    band: tuple[float, float] = (0.45, 0.55)
    reused_games: int = 0               # games asked for again and read, not played
    left_out: tuple[LeftOut, ...] = ()  # games an engine error left out of every figure
    errors: Mapping[int, str] = field(default_factory=dict)   # left_out index → the error

    def verdicts(self) -> list[dict[str, Any]]:
        """Each archetype's verdict across the agents, by the rule Riot's champion balance
        framework applies to its player groups: over the band under **any** agent, a nerf;
        under it under **every** agent, a buff; otherwise fine. Each agent's field win rate
        (the settled lists, fresh seeds) beside it."""
        by_agent = {self.agent: field_rates(self.names, self.final)}
        by_agent.update({a: field_rates(self.names, o) for a, o in self.further.items()})
        low, high = self.band
        out = []
        for i, name in enumerate(self.names):
            rates = {a: rows[i] for a, rows in by_agent.items()}
            values = [r["rate"] for r in rates.values() if r["rate"] is not None]
            verdict = ("nerf" if any(v > high for v in values) else
                       "buff" if values and all(v < low for v in values) else "fine")
            out.append({"archetype": name, "verdict": verdict, "agents": rates})
        return out

    def exploitability(self) -> dict[str, Any] | None:
        if not self.exploits:
            return None
        rows = []
        for e in self.exploits:
            figure, s = e.best()
            rows.append({"archetype": self.names[e.archetype], **figure,
                         "swaps": [w.to_dict() for w in s.swaps] if s else [],
                         "improvement": s.improvement if s else None})
        best = max(rows, key=lambda r: (r["rate"], -len(r["swaps"])))
        return {**best, "agent": self.agent, "per_archetype": rows}

    def to_dict(self) -> dict[str, Any]:
        last = self.rounds[-1]
        names = list(self.names)
        meta = self.meta.to_dict()
        return {
            "agent": self.agent, "stopped": self.stopped, "games": dict(self.games),
            "printed": [{"name": n, "hero": k[0], "cards": dict(k[1])}
                        for n, k in zip(names, self.printed, strict=True)],
            "rounds": [r.to_dict(names, self.printed) for r in self.rounds],
            "final": {
                "agent": self.agent, "games_each": self.final_games,
                "decks": [{"name": n, "hero": k[0], "cards": dict(k[1]),
                           "diff": list_diff(p, k)}
                          for n, k, p in zip(names, last.lists, self.printed, strict=True)],
                "field": field_rates(names, self.final),
                "matchups": matchup_table(len(names), self.final),
                "shares": [round(s, 4) for s in last.shares],
                "nash": meta["nash"], "relaxed": meta["relaxed"], "epsilon": meta["epsilon"],
                "meta": meta,
                "agents": {a: {"field": field_rates(names, o),
                               "matchups": matchup_table(len(names), o)}
                           for a, o in self.further.items()}},
            "band": list(self.band), "verdicts": self.verdicts(),
            "cards": card_moves(self.printed, last.lists),
            "exploitability": self.exploitability(),
            "games_reused": self.reused_games, "left_out": self.left_out_dict()}

    def left_out_dict(self) -> dict[str, Any]:
        """How many games an engine error left out, by phase, and each with what to replay
        it (its decks, run seed, game index) and the error, where it was replayed."""
        by_phase: dict[str, int] = {}
        for game in self.left_out:
            by_phase[game.phase] = by_phase.get(game.phase, 0) + 1
        names = {key: name for step in self.rounds for name, key in zip(
            self.names, step.lists, strict=True)}
        return {"games": len(self.left_out), "by_phase": by_phase,
                "why": "the engine could not finish the game (an engine error)",
                "examples": [{"phase": g.phase, "seed": g.seed, "game": g.game,
                              "agent": g.agent or self.agent,
                              "deck": _named(g.deck, names), "rival": _named(g.rival, names),
                              "error": self.errors.get(n)}
                             for n, g in enumerate(self.left_out[:EXAMPLES])]}


def _named(key: DeckKey, names: Mapping[DeckKey, str]) -> dict[str, Any]:
    """A list by its archetype's name where it is one of the rounds' lists (else a candidate
    a tuning raced), with its hero and cards."""
    return {"name": names.get(key), "hero": key[0], "cards": dict(key[1])}
