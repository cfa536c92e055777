"""What a minion is worth now and what an ability's numbers come to: keywords (R4.8–R4.10),
attack values (R2.3.3–R2.3.4), auras (R4.7), amounts, counts and conditions.

One module because these questions ask each other: an aura's condition counts minions by a
filter that may ask for attack values, which ask the auras. Nothing here changes the game but
the aura memo.

Invariants: final attack is never below 0 (R2.3.4 ruling). Aura bonuses are worked out when
asked (memoised only while nothing they depend on can have changed), never stored on the
minions, so an aura ends the moment its source sleeps, leaves or its condition fails.
"""

from __future__ import annotations

from typing import Any, Final

from rules.engine.advantage import has_advantage
from rules.engine.cards import AURA_BIT
from rules.engine.core import GameState, locate, sides
from rules.engine.filters import card_matches
from rules.engine.state import NO_GRANTS, NO_KEYWORDS, Minion

_NOTHING: Final[list[str]] = []


# ------------------------------------------------------------ attack values and keywords

def keywords(game: GameState, minion: Minion) -> frozenset[str]:
    """The keywords a minion has now: printed and granted, less removed, plus auras.

    [ruling R6.3] Keywords work while the minion sleeps: they are glossary terms of their own,
    not passive skills (R4.1) — R4.10 regenerate explicitly keeps a sleeping minion sleeping,
    and shield (R4.8) is read the same way for a face-down defender. Ruleset option
    sleeping_keywords off: a sleeping minion has none."""
    if not minion.awake and not game.ruleset.sleeping_keywords:
        return NO_KEYWORDS
    have = minion.keywords
    if minion.turn_granted or minion.turn_removed:
        have = (have | minion.turn_granted) - minion.turn_removed
    if game._auras and not game._aura_busy:
        _collect_if_moved(game)
        if game._aura_grants:         # no aura in force grants a keyword: nothing to work out
            granted = _aura_keywords(game, minion)
            if granted:
                have = have.union(granted)
    return have


def keyword_count(game: GameState, minion: Minion) -> int:
    """``len(keywords(game, minion))``, without building the set the auras' keywords join
    (a planner's evaluation counts the keywords of every minion it scores)."""
    if not minion.awake and not game.ruleset.sleeping_keywords:
        return 0
    have = minion.keywords
    if minion.turn_granted or minion.turn_removed:
        have = (have | minion.turn_granted) - minion.turn_removed
    count = len(have)
    if game._auras and not game._aura_busy:
        _collect_if_moved(game)
        if game._aura_grants:
            granted = _aura_keywords(game, minion)
            if granted:
                extra: list[str] = []
                for keyword in granted:
                    if keyword not in have and keyword not in extra:
                        extra.append(keyword)
                count += len(extra)
    return count


def has_keyword(game: GameState, minion: Minion, keyword: str) -> bool:
    """``keyword in keywords(game, minion)``, without working out what the auras give unless
    an aura in force grants that keyword (combat asks after every death, which moves the
    board: most of the time no aura could answer yes)."""
    if not minion.awake and not game.ruleset.sleeping_keywords:
        return False
    if keyword not in minion.turn_removed and (
            keyword in minion.keywords or keyword in minion.turn_granted):
        return True
    if not game._auras or game._aura_busy:
        return False
    _collect_if_moved(game)
    if keyword not in game._aura_grants:
        return False
    return keyword in _aura_keywords(game, minion)


def attack_mod(game: GameState, minion: Minion) -> int:
    """Buffs minus debuffs (R2.3.4): permanent, this turn, and auras."""
    mod = minion.perm_attack + minion.turn_attack
    if game._auras and not game._aura_busy:
        _collect_if_moved(game)
        if game._aura_attacks:        # no aura in force changes attack: nothing to work out
            mod += _aura_attack(game, minion)
    return mod


def current_attack(game: GameState, minion: Minion) -> int:
    return max(0, minion.card.attack + attack_mod(game, minion))


def final_attack(game: GameState, minion: Minion, against: str | None,
                 against_shield: bool) -> int:
    """R2.3.3–R2.3.4: printed × advantage multiplier + buffs − debuffs, at least 0."""
    advantage = has_advantage(minion.card.attribute, against) and not against_shield
    return max(0, minion.card.attack * (2 if advantage else 1) + attack_mod(game, minion))


# ------------------------------------------------------------ filters, amounts, conditions

def minion_matches(game: GameState, minion: Minion, flt: dict[str, Any] | None) -> bool:
    if flt is None:
        return True
    # Attack and keywords are worked out (auras included) only when the filter asks.
    attack = current_attack(game, minion) \
        if "attack_min" in flt or "attack_max" in flt else None
    have = keywords(game, minion) if "keyword" in flt else None
    return card_matches(minion.card, flt, minion, attack, have)


def amount(game: GameState, controller: int, value: int | dict[str, Any]) -> int:
    if isinstance(value, int):
        return value
    total: int = count(game, controller, value["count"]) * value["times"] + value["plus"]
    return total if value["max"] is None else min(total, value["max"])


def count(game: GameState, controller: int, spec: dict[str, Any]) -> int:
    zone, flt = spec["zone"], spec["filter"]
    total = 0
    for p in sides(controller, spec["side"]):     # plain loops: no generator object per count
        if zone == "minions":
            for m in game.players[p].minions:
                if m is not None and minion_matches(game, m, flt):
                    total += 1
        else:
            for c in getattr(game.players[p], zone):
                if card_matches(c, flt):
                    total += 1
    return total


def condition(game: GameState, controller: int, cond: dict[str, Any]) -> bool:
    if "count" in cond:
        value = count(game, controller, cond["count"])
    else:
        who = controller if cond["hero_hp"] == "own" else 1 - controller
        value = game.players[who].hp
    low, high = cond.get("min"), cond.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


# ------------------------------------------------------------ auras (R4.7)
#
# What the auras reaching a minion give it (attack amounts, keywords granted: the only aura
# effects) is worked out for the whole board at once and memoised, because agents and combat
# ask about the same minions many times between changes. An aura whose effect depends on the
# board alone (which minions, where, awake or not, their printed properties) keeps its part
# until the board changes (``core.board_changed``); the other auras' part is kept for one state
# step (``_tick`` moves with every action and task).

def work_out_auras(game: GameState) -> None:
    """Collect the auras in force and work out what the board-only ones give, and what the
    simple ones give each minion, now rather than when first asked: a search plays many
    copies of one world, and each copy starts with what the world worked out."""
    if game._auras and _auras_in_force(game) and game._simple_auras:
        for player in game.players:
            for minion in player.minions:
                if minion is not None:
                    _simple_part(game, minion)


def _aura_attack(game: GameState, minion: Minion) -> int:
    """The attack the auras in force give ``minion`` now."""
    if not _auras_in_force(game):
        return 0
    bonus = game._board_attack.get(minion.uid, 0)
    if game._simple_auras:
        _simple_part(game, minion)
        bonus += minion.simple_attack
    if game._dynamic_auras:
        _refresh_dynamic_part(game)
        bonus += game._step_attack.get(minion.uid, 0)
    return bonus


def _aura_keywords(game: GameState, minion: Minion) -> list[str]:
    """The keywords the auras in force grant ``minion`` now (repeats possible)."""
    if not _auras_in_force(game):
        return _NOTHING
    granted = game._board_keywords.get(minion.uid, _NOTHING)
    if game._simple_auras:
        _simple_part(game, minion)
        simple = minion.simple_keywords
        if simple:
            granted = granted + list(simple)
    if game._dynamic_auras:
        _refresh_dynamic_part(game)
        more = game._step_keywords.get(minion.uid)
        if more:
            granted = granted + more
    return granted


def _auras_in_force(game: GameState) -> bool:
    """Bring the board-only part up to date; False when no aura is in force — or while an
    aura's own condition or amount is being worked out and asks about attack values: the answer
    then comes from the cards alone instead of recursing forever."""
    if game._aura_busy:
        return False
    if game._aura_key != game._board_version:
        game._aura_key = game._board_version
        _collect_if_moved(game)
        if game._static_auras:
            game._board_attack, game._board_keywords = {}, {}
            _aura_table(game, game._static_auras, game._board_attack, game._board_keywords)
        elif game._board_attack or game._board_keywords:
            game._board_attack, game._board_keywords = {}, {}
    return bool(game._static_auras) or bool(game._simple_auras) or bool(game._dynamic_auras)


def _refresh_dynamic_part(game: GameState) -> None:
    if game._aura_tick != game._tick:
        game._aura_tick = game._tick
        game._step_attack, game._step_keywords = {}, {}
        _aura_table(game, game._dynamic_auras, game._step_attack, game._step_keywords)


def _collect_if_moved(game: GameState) -> None:
    """Collect the auras in force again if a minion with an aura entered, left or woke."""
    if game._sources_key != game._aura_sources:
        game._sources_key = game._aura_sources
        _collect_auras(game)


def _collect_auras(game: GameState) -> None:
    """The auras in force, as (controller, source uid, ability), split into those whose effect
    depends on the board alone and the others; and which keywords they grant and whether any
    changes attack."""
    static: list[tuple[int, int, dict[str, Any]]] = []
    dynamic: list[tuple[int, int, dict[str, Any]]] = []
    simple: list[tuple[Any, ...]] = []
    grants: set[str] = set()
    attacks = False
    for index, player in enumerate(game.players):
        if player.hero.triggers & AURA_BIT:
            for ability in player.hero.by_trigger["aura"]:
                attacks = _file_aura(game, index, 0, ability, static, dynamic, simple,
                                     grants) or attacks
        for minion in player.minions:
            if minion is not None and minion.card.triggers & AURA_BIT:
                for ability in minion.card.by_trigger["aura"]:
                    if minion.awake or ability["sleeping"]:
                        attacks = _file_aura(game, index, minion.uid, ability, static, dynamic,
                                             simple, grants) or attacks
    game._static_auras, game._simple_auras, game._dynamic_auras = static, simple, dynamic
    game._aura_grants, game._aura_attacks = grants, attacks


def _file_aura(game: GameState, controller: int, source: int, ability: dict[str, Any],
               static: list[tuple[int, int, dict[str, Any]]],
               dynamic: list[tuple[int, int, dict[str, Any]]], simple: list[tuple[Any, ...]],
               grants: set[str]) -> bool:
    """Put one aura in force into its list (simple ones as their entries) and add the keywords
    it grants to ``grants``; returns whether it changes attack."""
    kind = _aura_kind(game, ability)
    if kind[3]:
        for effect in kind[5]:
            simple.append((controller, source, effect[0], sides(controller, effect[1]),
                           effect[2], effect[3], effect[4], effect[5]))
    elif kind[1]:
        static.append((controller, source, ability))
    else:
        dynamic.append((controller, source, ability))
    for keyword in kind[4]:
        grants.add(keyword)
    changes_attack: bool = kind[2]
    return changes_attack


def _aura_kind(game: GameState, ability: dict[str, Any]) -> tuple[Any, ...]:
    """What an aura ability is, worked out once per game (an aura's source enters, leaves or
    wakes several times a game): (the ability, depends on the board alone, changes attack, is
    simple, the keywords it grants, its simple entries' parts but controller and source).
    Keyed by identity; the entry holds the ability, so its id cannot be reused meanwhile."""
    kinds = game._aura_kinds
    key = id(ability)
    kind = kinds.get(key)
    if kind is not None and kind[0] is ability:
        return kind
    attacks = False
    keywords: list[str] = []
    for effect in ability["effects"]:
        if effect["do"] == "attack":
            attacks = True
        else:
            keywords.append(effect["keyword"])
    simple = _depends_on_board_only(ability) and _is_simple(ability)
    parts: list[tuple[Any, ...]] = []
    if simple:
        for effect in ability["effects"]:
            target = effect["target"]
            attack = effect["do"] == "attack"
            parts.append((target["pick"] == "self", target["side"], target["other"],
                          target["filter"], effect["amount"] if attack else 0,
                          "" if attack else effect["keyword"]))
    kind = (ability, _depends_on_board_only(ability), attacks, simple, keywords, parts)
    kinds[key] = kind
    return kind


# An aura with no condition, a fixed amount, reaching itself or every minion of a side that
# passes a filter on its card ("simple"; most auras) gives a minion the same whatever else is on
# the board: it is read for the minion asked about, instead of working out a table for the whole
# board after every change. Entries: (controller, source uid, reaches only itself, the sides
# reached, other (not itself), filter, attack given, keyword granted or "").

def _is_simple(ability: dict[str, Any]) -> bool:
    if ability["if"] is not None:
        return False
    for effect in ability["effects"]:
        pick = effect["target"]["pick"]
        if pick != "all" and pick != "self":
            return False
        if effect["do"] == "attack" and not isinstance(effect["amount"], int):
            return False
    return True


def _simple_reaches(game: GameState, entry: tuple[Any, ...], minion: Minion, owner: int) -> bool:
    if entry[2]:                                       # pick "self"
        source: int = entry[1]
        return minion.uid == source
    if owner < 0 or owner not in entry[3]:
        return False
    return _reached(minion, entry[1], entry[4], entry[5])


def _owner(game: GameState, minion: Minion) -> int:
    """The side whose board holds ``minion`` (-1: not on the board)."""
    for p in range(2):
        for other in game.players[p].minions:
            if other is minion:
                return p
    return -1


def _simple_part(game: GameState, minion: Minion) -> None:
    """What the simple auras in force give ``minion``, kept on it while the auras in force,
    its side and whether it is awake stay as they were: nothing else of the board changes
    what a simple aura gives it (its card changes only when the auras are collected again),
    and agents, combat and a rollout's evaluation ask about the same minions many times
    between such changes."""
    owner = _owner(game, minion)
    sources = game._aura_sources
    if minion.simple_sources == sources and minion.simple_owner == owner \
            and minion.simple_awake == minion.awake:
        return
    bonus = 0
    granted = NO_GRANTS
    for entry in game._simple_auras:
        value: int = entry[6]
        keyword: str = entry[7]
        if (value != 0 or keyword) and _simple_reaches(game, entry, minion, owner):
            bonus += value
            if keyword:
                granted = granted + (keyword,)
    minion.simple_sources = sources
    minion.simple_owner = owner
    minion.simple_awake = minion.awake
    minion.simple_attack = bonus
    minion.simple_keywords = granted


def _aura_table(game: GameState, auras: list[tuple[int, int, dict[str, Any]]],
                attack: dict[int, int], granted: dict[int, list[str]]) -> None:
    """Add what these auras give to ``attack`` and ``granted`` (by minion uid). Each aura's
    condition, reach and amount are worked out once, not per minion."""
    game._aura_busy = True
    try:
        for index, source, ability in auras:
            if ability["if"] is not None and not condition(game, index, ability["if"]):
                continue
            for effect in ability["effects"]:
                target = effect["target"]
                reached = [source] if target["pick"] == "self" \
                    else _aura_reach(game, index, source, target)
                if effect["do"] == "attack":
                    # Counted here, still busy: a count that filters on attack must not ask
                    # the auras again (that recursed without end).
                    value = amount(game, index, effect["amount"])
                    for uid in reached:
                        attack[uid] = attack.get(uid, 0) + value
                else:
                    keyword = effect["keyword"]
                    for uid in reached:
                        have = granted.get(uid)
                        if have is None:
                            granted[uid] = [keyword]
                        else:
                            have.append(keyword)
    finally:
        game._aura_busy = False


def _aura_reach(game: GameState, controller: int, source: int,
                target: dict[str, Any]) -> list[int]:
    """The uids of the minions an aura's target reaches (its filter read on the card: a filter
    on attack would recurse into the auras)."""
    flt, pick, other = target["filter"], target["pick"], target["other"]
    out: list[int] = []
    if pick == "adjacent":
        anchor = locate(game, source)
        if anchor is None:
            return out
        p, s = anchor
        minions = game.players[p].minions
        for t in (s - 1, s + 1):
            if 0 <= t < game.ruleset.slots:
                minion = minions[t]
                if minion is not None and _reached(minion, source, other, flt):
                    out.append(minion.uid)
        return out
    leftmost, rightmost = pick == "leftmost", pick == "rightmost"
    for p in sides(controller, target["side"]):
        found = -1
        for minion in game.players[p].minions:
            if minion is not None and _reached(minion, source, other, flt):
                found = minion.uid
                if leftmost:
                    break
                if not rightmost:
                    out.append(found)
        if (leftmost or rightmost) and found != -1:
            out.append(found)
    return out


def _reached(minion: Minion, source: int, other: bool, flt: dict[str, Any] | None) -> bool:
    """Does an aura from ``source`` reach this minion (its filter read on the card)?"""
    return not (other and minion.uid == source) \
        and (flt is None or card_matches(minion.card, flt, minion))


# Filter keys answered by the card or by ``awake`` alone: a count of minions filtered on these
# changes only when the board does.
_BOARD_FILTER_KEYS: Final = frozenset(
    {"attribute", "rarity", "kind", "faction", "race", "cost_min", "cost_max", "awake"})


def _depends_on_board_only(ability: dict[str, Any]) -> bool:
    """Does what this aura gives depend on the board alone? True when its condition and amounts
    are fixed or count minions by printed properties and ``awake``."""
    cond = ability["if"]
    if cond is not None and ("count" not in cond or not _counts_the_board(cond["count"])):
        return False
    for effect in ability["effects"]:
        value = effect.get("amount", 0)
        if not isinstance(value, int) and not _counts_the_board(value["count"]):
            return False
    return True


def _counts_the_board(spec: dict[str, Any]) -> bool:
    flt = spec["filter"]
    return spec["zone"] == "minions" and (flt is None or _BOARD_FILTER_KEYS.issuperset(flt))
