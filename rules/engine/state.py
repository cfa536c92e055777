"""Mutable game state: minions on the board and each player's zones (R1.1).

Invariants: a player's ``minions`` list always has exactly ``ruleset.slots`` entries, each a
``Minion`` or ``None``; hand, deck, display and graveyard hold ``CardDef`` objects (the deck's
top card is the *last* element, so drawing is ``pop()``); ``hp`` may go below 0 (R3.1 checks
"0 or less"); ``energy`` never goes below 0. A minion's keyword sets are frozensets, replaced
(never changed in place) when a keyword is granted or removed, so a copied minion shares them.
"""

from __future__ import annotations

from typing import Final

from rules.engine.cards import CardDef

NO_KEYWORDS: Final[frozenset[str]] = frozenset()
NO_GRANTS: Final[tuple[str, ...]] = ()


def with_keyword(have: frozenset[str], keyword: str) -> frozenset[str]:
    return have if keyword in have else have | {keyword}


def without_keyword(have: frozenset[str], keyword: str) -> frozenset[str]:
    return have - {keyword} if keyword in have else have


class Minion:
    """A minion card in a slot. ``uid`` is unique within its game and never reused."""

    __slots__ = ("uid", "card", "awake", "awake_turn", "attacks_left", "attacked", "reacted",
                 "skill_used", "regen_turn", "perm_attack", "turn_attack", "keywords",
                 "turn_granted", "turn_removed", "public", "controlled_turn", "simple_sources",
                 "simple_owner", "simple_awake", "simple_attack", "simple_keywords")

    def __init__(self, uid: int, card: CardDef, awake: bool = False):
        self.uid = uid
        self.card = card
        self.awake = awake
        self.awake_turn = -1          # the game turn it was awakened (R4.2: no hero attack then)
        self.attacks_left = 0         # R4.2 once per turn, +1 from re-act (R4.9)
        self.attacked = False         # attacked this turn (for attack_or_skill)
        self.reacted = False          # re-act used this turn (R4.9)
        self.skill_used = False       # active skill used this turn (R4.6)
        self.regen_turn = -1          # the game turn it last regenerated (R4.10)
        self.perm_attack = 0          # permanent buffs minus debuffs
        self.turn_attack = 0          # this turn's buffs minus debuffs
        # printed plus permanently granted, minus removed; then this turn's grants and removals
        self.keywords: frozenset[str] = card.keyword_set
        self.turn_granted: frozenset[str] = NO_KEYWORDS
        self.turn_removed: frozenset[str] = NO_KEYWORDS
        self.public = False           # identity known to both players (face up, or revealed)
        self.controlled_turn = -1     # the game turn it changed controller (R2.4.2)
        # What the simple auras give it (rules.engine.values._simple_part), and what that was
        # worked out for: the auras in force (the game's ``_aura_sources``), its side and
        # whether it was awake. Kept on the minion, copied with it.
        self.simple_sources = -1
        self.simple_owner = -1
        self.simple_awake = False
        self.simple_attack = 0
        self.simple_keywords: tuple[str, ...] = NO_GRANTS

    def copy(self) -> Minion:
        clone = Minion(self.uid, self.card, self.awake)
        clone.awake_turn = self.awake_turn
        clone.attacks_left = self.attacks_left
        clone.attacked = self.attacked
        clone.reacted = self.reacted
        clone.skill_used = self.skill_used
        clone.regen_turn = self.regen_turn
        clone.perm_attack = self.perm_attack
        clone.turn_attack = self.turn_attack
        clone.keywords = self.keywords           # immutable: shared
        clone.turn_granted = self.turn_granted
        clone.turn_removed = self.turn_removed
        clone.public = self.public
        clone.controlled_turn = self.controlled_turn
        clone.simple_sources = self.simple_sources     # the copy's auras are this one's
        clone.simple_owner = self.simple_owner
        clone.simple_awake = self.simple_awake
        clone.simple_attack = self.simple_attack
        clone.simple_keywords = self.simple_keywords
        return clone

    def __repr__(self) -> str:
        state = "awake" if self.awake else "sleeping"
        return f"<Minion {self.card.code} #{self.uid} {state}>"


class Player:
    __slots__ = ("index", "hero", "hp", "energy", "hand", "deck", "display", "graveyard",
                 "minions", "hero_skill_used", "skip_draw", "turns_taken", "marked")

    def __init__(self, index: int, hero: CardDef, slots: int):
        self.index = index
        self.hero = hero
        self.hp = hero.hp
        self.energy = 0
        self.hand: list[CardDef] = []
        self.deck: list[CardDef] = []
        self.display: list[CardDef] = []
        self.graveyard: list[CardDef] = []
        self.minions: list[Minion | None] = [None] * slots
        self.hero_skill_used = False
        self.skip_draw = False        # R1.2: the next draw phase is skipped
        self.turns_taken = 0
        self.marked: list[int] = []   # R2.1.4: hand positions chosen for the mulligan

    def copy(self) -> Player:
        clone = Player(self.index, self.hero, 0)
        clone.hp = self.hp
        clone.energy = self.energy
        clone.hand = list(self.hand)
        clone.deck = list(self.deck)
        clone.display = list(self.display)
        clone.graveyard = list(self.graveyard)
        clone.minions = [m.copy() if m is not None else None for m in self.minions]
        clone.hero_skill_used = self.hero_skill_used
        clone.skip_draw = self.skip_draw
        clone.turns_taken = self.turns_taken
        clone.marked = list(self.marked)
        return clone

    def empty_slots(self) -> list[int]:
        return [i for i, m in enumerate(self.minions) if m is None]
