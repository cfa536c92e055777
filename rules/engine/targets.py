"""Targets: which minions an effect's target selector can mean, choosing among them, and
whether an item or active skill can do anything now.

Invariants: targets are carried as minion uids, so a minion that moved or left between
selection and resolution is simply skipped. Chosen-target candidates only use card properties
the chooser can see: a face-down enemy minion matches a filter only on ``awake``.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import Action
from rules.engine.core import Decision, GameState, ask, locate, push, sides
from rules.engine.filters import PUBLIC_FILTER_KEYS
from rules.engine.state import Minion
from rules.engine.values import condition, minion_matches


def candidates(game: GameState, controller: int, source: int, target: dict[str, Any], other: int,
               first_only: bool = False) -> list[tuple[int, int]]:
    """Every (player, slot) the target selector could mean, before pick narrows it (with
    ``first_only``, just the first: enough to know whether there is any)."""
    pick: str = target["pick"]
    flt: dict[str, Any] | None = target["filter"]
    exclude_source: bool = target["other"]
    # The chooser cannot see what a face-down enemy card is: it matches on awake alone.
    hidden = pick == "chosen" and flt is not None and not _public_only(flt)
    out: list[tuple[int, int]] = []
    size = game.ruleset.slots
    which: tuple[int, ...]
    if pick == "self" or pick == "combat_enemy" or pick == "adjacent":
        anchor = locate(game, source if pick != "combat_enemy" else other)
        if anchor is None:
            return out
        which = (anchor[0],)
        if pick == "adjacent":
            low, high, step = anchor[1] - 1, anchor[1] + 2, 2
        else:
            low, high, step = anchor[1], anchor[1] + 1, 1
    else:
        which = sides(controller, target["side"])
        low, high, step = 0, size, 1
    for p in which:
        minions = game.players[p].minions
        for t in range(low, high, step):
            if 0 <= t < size:
                minion = minions[t]
                if minion is not None and _is_candidate(
                        game, controller, source, p, minion, flt, exclude_source, hidden):
                    out.append((p, t))
                    if first_only:
                        return out
    return out


def _public_only(flt: dict[str, Any]) -> bool:
    """Does the filter ask only what anyone can see of a face-down minion
    (``PUBLIC_FILTER_KEYS``)? (A loop: ``issuperset`` would build a set from the filter.)"""
    for key in flt:
        if key not in PUBLIC_FILTER_KEYS:
            return False
    return True


def _is_candidate(game: GameState, controller: int, source: int, side: int, minion: Minion,
                  flt: dict[str, Any] | None, exclude_source: bool, hidden: bool) -> bool:
    if exclude_source and minion.uid == source:
        return False
    if hidden and side != controller and not minion.public:
        return False
    return minion_matches(game, minion, flt)


def select(game: GameState, controller: int, source: int, effect: dict[str, Any],
           other: int) -> list[int] | None:
    """The uids an effect targets; None when the controller was asked to choose (the answer
    resumes the effect)."""
    target = effect["target"]
    spots = candidates(game, controller, source, target, other)
    pick = target["pick"]
    if pick in ("leftmost", "rightmost"):
        firsts: dict[int, tuple[int, int]] = {}
        for spot in (spots if pick == "leftmost" else reversed(spots)):
            firsts.setdefault(spot[0], spot)
        spots = list(firsts.values())
    elif pick == "random" and len(spots) > target["count"]:
        spots = game.rng.sample(spots, target["count"])
    elif pick == "chosen" and len(spots) > 1:
        ask(game, "target", controller, tuple(spots),
            resume=("effect", controller, source, effect, other))
        return None
    uids: list[int] = []
    for p, s in spots:
        minion = game.players[p].minions[s]
        assert minion is not None                  # a candidate's slot holds it
        uids.append(minion.uid)
    return uids


def answer_target(game: GameState, decision: Decision, action: Action) -> None:
    minion = game.players[action.a].minions[action.b]
    assert minion is not None and decision.resume is not None    # a legal target; its effect
    push(game, decision.resume + ([minion.uid],))


def usable(game: GameState, controller: int, source: int, ability: dict[str, Any]) -> bool:
    """An item or active skill is usable if its condition holds and it can do something:
    [ruling] not when every effect needs a chosen target and none exists. A condition on cards
    the user cannot see is not judged here (legal actions use only what the player may know):
    the ability is offered and its condition checked when it resolves."""
    cond = ability["if"]
    if cond is not None and not _hidden_condition(game, controller, cond) \
            and not condition(game, controller, cond):
        return False
    for item in ability["effects"]:
        effect: dict[str, Any] = item          # typed: the compiled engine reads it natively
        target: dict[str, Any] | None = effect.get("target")
        if target is None:
            return True
        pick: str = target["pick"]
        if pick != "chosen" or candidates(game, controller, source, target, -1, True):
            return True
    return False


def _hidden_condition(game: GameState, controller: int, cond: dict[str, Any]) -> bool:
    """Does the condition look at cards ``controller`` cannot see (the enemy's hand or deck by
    a filter, or unrevealed enemy minions by more than ``awake``)?"""
    count = cond.get("count")
    if count is None or count["filter"] is None or count["side"] == "ally":
        return False                  # HP, zone sizes and one's own cards are known
    if count["zone"] in ("hand", "deck"):
        return True
    return count["zone"] == "minions" \
        and not _public_only(count["filter"]) \
        and any(m is not None and not m.public for m in game.players[1 - controller].minions)
