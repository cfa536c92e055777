"""A player's view: the game as one seat may see it. Agents decide from this, never the game.

Visible to the player: their own hand, deck size and remaining deck contents (as a multiset:
they built the deck, but not its order), both heroes and HP, energy, both display zones and
graveyards, every face-up minion, their own face-down minions, and any face-down enemy minion
revealed in combat (R2.3.2). Hidden: the enemy's hand (only its size), both decks' order, the
enemy deck's contents, and the identity of face-down enemy minions never revealed.

Invariant: nothing reachable through a view's public attributes depends on hidden information;
``to_dict`` is the complete visible state, and two games that differ only in hidden parts give
equal ``to_dict`` results. Boards and attack values are worked out when first read (agents ask
every decision, so only what they use is paid for): read a view before the next action, or keep
``to_dict()``.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import CardDef
from rules.engine.core import GameState
from rules.engine.legal import legal_actions
from rules.engine.state import Minion
from rules.engine.values import current_attack, has_keyword, keywords


class MinionView:
    """A minion as the viewer sees it. ``card`` is None for an unknown face-down minion."""

    __slots__ = ("slot", "owner", "awake", "card", "_game", "_minion", "_viewer", "_attack",
                 "_keywords")

    def __init__(self, game: GameState, owner: int, slot: int, minion: Minion, viewer: int):
        self.slot = slot
        self.owner = owner
        self.awake = minion.awake
        self.card = minion.card if owner == viewer or minion.public else None
        self._game, self._minion, self._viewer = game, minion, viewer
        self._attack = -1                    # worked out when first read (a view is read
        self._keywords: frozenset[str] | None = None   # before the game moves on)

    @property
    def attack(self) -> int | None:
        """Current attack (printed plus buffs and auras); None when the card is unknown."""
        if self.card is None:
            return None
        if self._attack < 0:
            self._attack = current_attack(self._game, self._minion)
        return self._attack

    @property
    def keywords(self) -> frozenset[str]:
        if self.card is None:
            return frozenset()
        if self._keywords is None:
            self._keywords = frozenset(keywords(self._game, self._minion))
        return self._keywords

    def has_keyword(self, keyword: str) -> bool:
        """``keyword in self.keywords``, without working out every keyword the auras give."""
        if self.card is None:
            return False
        if self._keywords is not None:
            return keyword in self._keywords
        return has_keyword(self._game, self._minion, keyword)

    @property
    def can_attack(self) -> bool:
        game, minion = self._game, self._minion
        return (self.owner == self._viewer == game.active and minion.awake
                and minion.attacks_left > 0)

    def to_dict(self) -> dict[str, Any]:
        if self.card is None:
            return {"slot": self.slot, "hidden": True, "awake": False}
        return {"slot": self.slot, "card": self.card.code, "awake": self.awake,
                "attack": self.attack, "keywords": sorted(self.keywords)}


class PlayerView:
    def __init__(self, game: GameState, player: int):
        self._game = game
        self.player = player
        self.opponent = 1 - player
        self.ruleset = game.ruleset
        self.turn = game.turn
        self.active = game.active
        self.phase = game.phase
        decision = game.decision
        self.decision = None if decision is None else decision.kind
        # An optional skill offered to this player (R4.4, R4.5): (its card, the ability).
        # The card is face up or in the graveyard, so both players know it.
        self.offer: tuple[CardDef | None, dict[str, Any]] | None = None
        if decision is not None and decision.kind == "optional" and decision.player == player:
            self.offer = (game.cards.get(decision.data[0]), decision.data[1])
        me, foe = game.players[player], game.players[1 - player]
        self.hand = tuple(me.hand)
        self.energy = me.energy
        self.hp = me.hp
        self.enemy_hp = foe.hp
        self.hero = me.hero
        self.enemy_hero = foe.hero
        self.deck_size = len(me.deck)
        self.enemy_deck_size = len(foe.deck)
        self.enemy_hand_size = len(foe.hand)
        self._me, self._foe = me, foe          # zones the agents seldom read: copied when read
        self.hero_skill_used = me.hero_skill_used
        self.result = game.result
        self._minions: tuple[MinionView | None, ...] | None = None         # built when first
        self._enemy_minions: tuple[MinionView | None, ...] | None = None   # read

    @property
    def display(self) -> tuple[CardDef, ...]:
        return tuple(self._me.display)

    @property
    def enemy_display(self) -> tuple[CardDef, ...]:
        return tuple(self._foe.display)

    @property
    def graveyard(self) -> tuple[CardDef, ...]:
        return tuple(self._me.graveyard)

    @property
    def enemy_graveyard(self) -> tuple[CardDef, ...]:
        return tuple(self._foe.graveyard)

    @property
    def minions(self) -> tuple[MinionView | None, ...]:
        if self._minions is None:
            self._minions = self._board(self._game, self.player)
        return self._minions

    @property
    def enemy_minions(self) -> tuple[MinionView | None, ...]:
        if self._enemy_minions is None:
            self._enemy_minions = self._board(self._game, self.opponent)
        return self._enemy_minions

    def _board(self, game: GameState, owner: int) -> tuple[MinionView | None, ...]:
        # A plain loop into a list: a generator object per board cost more than the views.
        out: list[MinionView | None] = []
        minions = game.players[owner].minions
        for s in range(len(minions)):
            m = minions[s]
            out.append(None if m is None else MinionView(game, owner, s, m, self.player))
        return tuple(out)

    def deck_contents(self) -> dict[str, int]:
        """The player's remaining deck as {code: count} (known from the list, not the order)."""
        counts: dict[str, int] = {}
        for card in self._game.players[self.player].deck:
            counts[card.code] = counts.get(card.code, 0) + 1
        return dict(sorted(counts.items()))

    def legal_actions(self) -> list[Action]:
        decision = self._game.decision
        if decision is None or decision.player != self.player:
            return []
        return legal_actions(self._game)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "turn": self.turn, "active": self.active,
            "phase": self.phase, "decision": self.decision, "result": self.result,
            "offer": None if self.offer is None else {
                "card": getattr(self.offer[0], "code", None), "trigger": self.offer[1]["trigger"]},
            "me": {"hero": self.hero.code, "hp": self.hp, "energy": self.energy,
                   "hand": [c.code for c in self.hand], "deck_size": self.deck_size,
                   "deck_contents": self.deck_contents(),
                   "display": [c.code for c in self.display],
                   "graveyard": [c.code for c in self.graveyard],
                   "hero_skill_used": self.hero_skill_used,
                   "minions": [None if m is None else m.to_dict() for m in self.minions]},
            "enemy": {"hero": self.enemy_hero.code, "hp": self.enemy_hp,
                      "hand_size": self.enemy_hand_size, "deck_size": self.enemy_deck_size,
                      "display": [c.code for c in self.enemy_display],
                      "graveyard": [c.code for c in self.enemy_graveyard],
                      "minions": [None if m is None else m.to_dict()
                                  for m in self.enemy_minions]},
            "legal_actions": [a.to_dict() for a in self.legal_actions()],
        }
