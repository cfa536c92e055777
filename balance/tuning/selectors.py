"""Reads of a deck tuning for its pages and API: its result with every swap in card names, its
best suggestion so far, the tuned deck's name, and whether the visitor owns the tuned deck.
Which tunings a visitor may see is every job's (``balance.selectors``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from balance.models import BalanceJob
from cards.models import Card
from common.language import frozen_card_name, frozen_deck_name
from decks.models import Deck

if TYPE_CHECKING:
    from common.visitor import Visitor


def tuning_result(job: BalanceJob) -> dict[str, Any] | None:
    """A finished tuning's result with every swap spelt in card names (the page's language):
    each suggestion gains ``diff``, lines of ``{out, out_name, into, into_name, copies, hero}``
    (``copies`` 0 with ``hero`` true for a hero change)."""
    result = job.result
    if not result:
        return None
    cards = job.cards or {}
    renamed = job.deck_renames
    suggestions = []
    for index, s in enumerate(result.get("suggestions") or []):
        diff = [{**swap, "hero": swap["copies"] == 0,
                 "out_name": frozen_card_name(cards, swap["out"]),
                 "into_name": frozen_card_name(cards, swap["into"])} for swap in s["swaps"]]
        gain = s["improvement"]
        shown = {"change": _points(gain["change"]), "low": _points(gain["low"]),
                 "high": _points(gain["high"]), "p": _p_value(gain["p_value"]),
                 "p_is": _p_is(gain["p_value"]), "rate": _percent(s["verified"]["rate"]),
                 "rate_low": _percent(s["verified"]["low"]),
                 "rate_high": _percent(s["verified"]["high"])}
        matchups = [{**m, "opponent": renamed.get(m.get("opponent"), m.get("opponent")),
                     "before_pct": _percent(m["before"]), "after_pct": _percent(m["after"]),
                     "change_pct": _points(m["change"]), "low_pct": _points(m["low"]),
                     "high_pct": _points(m["high"]), "p": _p_value(m["p_value"])}
                    for m in s["matchups"]]
        suggestions.append({**s, "index": index, "diff": diff, "shown": shown,
                            "matchups": matchups, "changes": _net_changes(job, s["deck"])})
    base = result["baseline"]
    baseline = {**base, "rate_pct": _percent(base["rate"]), "low_pct": _percent(base["low"]),
                "high_pct": _percent(base["high"])}
    return {**result, "suggestions": suggestions, "baseline": baseline}


def _net_changes(job: BalanceJob, deck: dict[str, Any]) -> list[dict[str, Any]]:
    """What the suggestion changes in the deck, card by card (the net of its swaps): copies
    out first, then copies in, each ``{code, name, copies}`` (``copies`` signed), and the hero
    as ``{hero: true, out_name, into_name}`` when it changes."""
    cards, before = job.cards or {}, job.decks[0] if job.decks else {}
    old, new = before.get("cards") or {}, deck.get("cards") or {}
    lines: list[dict[str, Any]] = []
    if before.get("hero") and deck.get("hero") != before.get("hero"):
        lines.append({"hero": True, "out_name": frozen_card_name(cards, before["hero"]),
                      "into_name": frozen_card_name(cards, deck["hero"])})
    delta = {code: new.get(code, 0) - old.get(code, 0) for code in {*old, *new}}
    for code, copies in sorted(delta.items(), key=lambda item: (item[1] > 0,
                                                                frozen_card_name(cards,
                                                                                 item[0]))):
        if copies:
            lines.append({"hero": False, "code": code, "copies": copies,
                          "count": abs(copies), "name": frozen_card_name(cards, code)})
    return lines


def _percent(value: float) -> str:
    return f"{value * 100:.1f}"


def _points(value: float) -> str:
    return f"{value * 100:+.1f}"


def _p_value(value: float) -> str:
    return f"{value:.2g}" if value >= 0.0001 else "< 0.0001"


def _p_is(value: float) -> str:
    """What a p-value is, after "p": "= 0.031", or "< 0.0001" (never "= < 0.0001")."""
    return f"= {value:.2g}" if value >= 0.0001 else "< 0.0001"


def tuning_field_named(job: BalanceJob, field: dict[str, Any]) -> dict[str, Any]:
    """The field's meta with its decks named in the reader's language: the search stored the
    names it was given (a starter deck's English), the job keeps each deck's names."""
    names = {str(deck.get("name")): frozen_deck_name(deck, number)
             for number, deck in enumerate(job.decks or [], start=1) if deck.get("name")}
    return {**field, "decks": [names.get(str(name), name) for name in field.get("decks", [])]}


def tuning_deck_name(job: BalanceJob) -> str:
    return frozen_deck_name(job.decks[0], 1) if job.decks else ""


def tuning_best_lines(job: BalanceJob) -> list[str]:
    """The best suggestion so far (from the progress report), as "2 × A → B" lines."""
    best = (job.progress or {}).get("best") or {}
    cards = job.cards or {}
    return [f"{s['copies'] or ''}{' × ' if s['copies'] else ''}"
            f"{frozen_card_name(cards, s['out'])} → {frozen_card_name(cards, s['into'])}"
            for s in best.get("swaps") or []]


def tuning_verified_best(job: BalanceJob) -> dict[str, Any] | None:
    """A finished tuning's best suggestion as its progress box sums it up: the first
    suggestion's swaps and field win rate against the unchanged deck's, both on the fresh
    games its table shows (never the search's own estimate). None while it has no result."""
    result = tuning_result(job)
    if result is None:
        return None
    best = (result["suggestions"] or [None])[0]
    lines = [f"{s['copies'] or ''}{' × ' if s['copies'] else ''}{s['out_name']} → "
             f"{s['into_name']}" for s in (best["diff"] if best else [])]
    return {"lines": lines, "rate": best["shown"]["rate"] if best else None,
            "base": result["baseline"]["rate_pct"], "games": result["baseline"]["games"]}


def card_names(codes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``{code: {code, names}}`` of catalogue cards (for ``frozen_card_name``)."""
    rows = Card.objects.filter(code__in=list(codes)).values("code", "names")
    return {row["code"]: {"code": row["code"], "names": row["names"]} for row in rows}


def user_owns_deck(user: Visitor, uid: str | None) -> bool:
    return bool(uid and user is not None and user.is_authenticated
                and Deck.objects.filter(uid=uid, owner=user).exists())
