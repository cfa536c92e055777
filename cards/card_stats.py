"""Simulated per-card figures in the catalogue: the service that adds a finished run's games
(``card_stats_add``) and the reads that sum them for the card page and the API
(``card_stats``, ``card_stats_slices``), filtered by agent, ruleset and card-data version.

Invariants: the figures are kept per card, agent, ruleset and card-data version
(``CardStatsSlice``), so a filter never mixes levels of play or versions of a card; a run adds
its games once, in the transaction that finishes it; every rate is reported with a 95 %
interval on seat-swapped pairs where the pair moments were kept (``rules.lab.card_figures``), and
with a plain Wilson interval, labelled ``games``, for totals recorded before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max, Sum
from django.utils.translation import gettext_lazy

from cards.models import Card, CardStatsSlice
from rules.engine.cards import Ruleset
from rules.lab import card_figures
from rules.lab.card_figures import CONDITIONS, STAT_NAMES
from rules.lab.intervals import Moments

COUNT_FIELDS = ("times_drawn", "times_played", "times_awakened",
                *(name for pair in STAT_NAMES.values() for name in pair))
STANDARD_RULES = "standard"
MSG_UNKNOWN_STAT = gettext_lazy("unknown card stats field {name!r} (known: {known})")


def ruleset_changes(ruleset: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options of a run's ruleset that differ from the standard rules (its name apart)."""
    standard = Ruleset().to_dict()
    return {key: value for key, value in sorted(dict(ruleset or {}).items())
            if key != "name" and standard.get(key) != value}


def ruleset_key(changes: Mapping[str, Any]) -> str:
    """A short stable name for a set of ruleset changes: "standard" for none."""
    if not changes:
        return STANDARD_RULES
    text = json.dumps(dict(changes), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@transaction.atomic
def card_stats_add(*, totals: Mapping[str, Mapping[str, Any]], agent: str = "",
                   ruleset: Mapping[str, Any] | None = None, card_data_version: str = "") -> int:
    """Add per-card counts of finished simulated games, played by ``agent`` under ``ruleset``
    with the card data of ``card_data_version``: ``{code: {"games_played_in": 3, …,
    "moments": {"played": [six numbers], …}}}`` (``rules.lab.card_figures.totals`` and
    ``moments``; every key optional).

    For the simulation service: call it in the transaction that finishes the run, so the games
    are counted once. Unknown card codes are ignored (a card deleted since); returns the number
    of cards updated.
    """
    for counts in totals.values():
        for name in counts:
            if name not in (*COUNT_FIELDS, "moments"):
                raise ValueError(MSG_UNKNOWN_STAT.format(
                    name=name, known=", ".join((*COUNT_FIELDS, "moments"))))
    changes = ruleset_changes(ruleset)
    key = ruleset_key(changes)
    ids = dict(Card.objects.filter(code__in=list(totals)).values_list("code", "pk"))
    for code, counts in totals.items():
        if code not in ids:
            continue
        CardStatsSlice.objects.get_or_create(card_id=ids[code], agent=agent, ruleset_key=key,
                                             card_data_version=card_data_version,
                                             defaults={"ruleset": changes})
        row = CardStatsSlice.objects.select_for_update().get(
            card_id=ids[code], agent=agent, ruleset_key=key, card_data_version=card_data_version)
        for name in COUNT_FIELDS:
            setattr(row, name, getattr(row, name) + int(counts.get(name, 0)))
        for condition, values in (counts.get("moments") or {}).items():
            kept = Moments.from_list(row.moments.get(condition) or Moments().to_list())
            row.moments[condition] = kept.merge(Moments.from_list(values)).to_list()
        row.save()
    return len(ids)


# ------------------------------------------------------------------------------ reads


@dataclass
class CardTotals:
    """A card's simulated figures summed over the slices a filter picked."""

    games_drawn: int = 0
    wins_when_drawn: int = 0
    games_in_opening_hand: int = 0
    wins_in_opening_hand: int = 0
    games_played_in: int = 0
    wins_when_played: int = 0
    games_awakened: int = 0
    wins_when_awakened: int = 0
    times_drawn: int = 0
    times_played: int = 0
    times_awakened: int = 0
    updated_at: Any = None
    when: dict[str, dict[str, Any]] = field(default_factory=dict)   # condition → rate

    @property
    def win_rate_when_played(self) -> float | None:
        return self.wins_when_played / self.games_played_in if self.games_played_in else None

    @property
    def plays_per_game(self) -> float | None:
        return self.times_played / self.games_played_in if self.games_played_in else None

    @property
    def rates(self) -> list[tuple[str, dict[str, Any]]]:
        """(condition, rate) in the order of ``rules.lab.card_figures.CONDITIONS``."""
        return [(condition, self.when[condition]) for condition in CONDITIONS]


@dataclass(frozen=True)
class StatsFilter:
    """Which slices to sum: None for any."""

    agent: str | None = None
    ruleset: str | None = None            # a ruleset_key
    card_data_version: str | None = None

    def kwargs(self) -> dict[str, str]:
        return {name: value for name, value in (("agent", self.agent),
                                                 ("ruleset_key", self.ruleset),
                                                 ("card_data_version", self.card_data_version))
                if value is not None}


def card_stats(*, card: Card, only: StatsFilter = StatsFilter()) -> CardTotals | None:
    """The card's simulated figures over the slices ``only`` picks, or None before any."""
    slices = list(CardStatsSlice.objects.filter(card=card, **only.kwargs()))
    if not slices:
        return None
    table: dict[str, list[float]] = {}
    for piece in slices:   # the slices' rows add up like chunks of a run
        card_figures.merge(table, {"card": card_figures.row_of(
            {name: getattr(piece, name) for name in COUNT_FIELDS}, piece.moments)})
    row = table["card"]
    # The counts are CardTotals' int fields by name; mypy cannot match a dict's keys to them.
    totals = CardTotals(**card_figures.totals(table)["card"],  # type: ignore[arg-type]
                        updated_at=max(piece.updated_at for piece in slices))
    totals.when = {condition: card_figures.condition_rate(row, condition)
                   for condition in card_figures.CONDITIONS}
    return totals


def card_stats_slices(*, card: Card) -> dict[str, list[dict[str, Any]]]:
    """What the card's figures can be filtered by: the agents, rulesets and card-data versions
    its games were played with, each with its games drawn and the latest update, newest
    first."""
    rows = CardStatsSlice.objects.filter(card=card)
    out: dict[str, list[dict[str, Any]]] = {}
    for name, column in (("agent", "agent"), ("ruleset", "ruleset_key"),
                         ("card_data_version", "card_data_version")):
        values = (rows.values(column).annotate(games=Sum("games_drawn"),
                                               played=Sum("games_played_in"),
                                               latest=Max("updated_at")).order_by("-latest"))
        out[name] = [{"value": v[column], "games": v["games"], "played": v["played"],
                      "latest": v["latest"]} for v in values]
    rulesets = dict(rows.values_list("ruleset_key", "ruleset"))
    for entry in out["ruleset"]:
        entry["changes"] = rulesets.get(entry["value"]) or {}
    return out
