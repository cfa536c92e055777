"""The state every part of a game shares, declared once.

``Game`` is built in layers, each a class of its own module that inherits the one before:
``GameCore`` (this state) → ``LegalMixin`` → ``EffectTermsMixin`` → ``EffectsMixin`` →
``CombatMixin`` → ``TurnsMixin`` → ``Game``. One line of inheritance with every attribute
declared here is what lets mypyc compile the engine to native classes (see the README's
"Compiled engine"); the methods declared at the bottom are defined by the later layers, so an
earlier layer may call them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.cards import CardDef, Ruleset
from rules.engine.state import Minion, Player


class Decision:
    """Who must act and about what. ``resume`` is the task to push with the answer.
    (A plain class rather than a named tuple: the compiled engine reads its fields directly.)"""

    kind: str
    player: int
    data: tuple
    resume: tuple | None

    def __init__(self, kind: str, player: int, data: tuple = (),
                 resume: tuple | None = None) -> None:
        self.kind = kind
        self.player = player
        self.data = data
        self.resume = resume

    def __repr__(self) -> str:
        return (f"Decision(kind={self.kind!r}, player={self.player}, data={self.data!r}, "
                f"resume={self.resume!r})")


class GameCore:
    """Attributes of a game in progress (set by ``Game._init_common``)."""

    cards: Mapping[str, CardDef]
    ruleset: Ruleset
    seed: int
    rng: random.Random
    events: list[dict] | None
    actions: list
    turn: int
    active: int
    first_player: int
    phase: str
    decision: Decision | None
    result: dict[str, Any] | None
    combat: dict[str, Any] | None
    start: dict[str, Any]
    players: list[Player]
    main_actions: int
    played: tuple[dict[str, int], dict[str, int]]
    awakened: tuple[dict[str, int], dict[str, int]]
    drawn: tuple[dict[str, int], dict[str, int]]
    opening: tuple[dict[str, int], dict[str, int]]
    _stack: list[tuple]
    _legal: list | None
    _next_uid: int
    _owed: list[int]
    _started: bool
    _auras: bool
    _aura_busy: bool
    _tick: int
    _aura_key: int
    _board_version: int
    _aura_sources: int
    _sources_key: int
    _static_auras: list[tuple]
    _dynamic_auras: list[tuple]
    _board_attack: dict[int, int]
    _board_keywords: dict[int, list[str]]
    _aura_tick: int
    _step_attack: dict[int, int]
    _step_keywords: dict[int, list[str]]
    _fallen: dict[int, CardDef]

    # The game's random numbers, drawn exactly as random.Random's own shuffle() and
    # randrange(n) draw them (same seed, same decks), but in compiled code: the library's
    # versions are Python functions, slow next to the rest of a compiled game.
    def _randbelow(self, n: int) -> int:               # 0 <= result < n, for n > 0
        bits = n.bit_length()
        value = self.rng.getrandbits(bits)
        while value >= n:
            value = self.rng.getrandbits(bits)
        return value

    def _shuffle(self, cards: list) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self._randbelow(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    # Defined by the parts of the game below; declared here so each part can call the others.
    def _event(self, kind: str, **data: Any) -> None:
        raise NotImplementedError

    def _push(self, *tasks: tuple) -> None:
        raise NotImplementedError

    def _push_list(self, tasks: list[tuple]) -> None:
        raise NotImplementedError

    def _ask(self, kind: str, player: int, data: tuple = (), resume: tuple | None = None) -> None:
        raise NotImplementedError

    def _check_victory(self) -> None:
        raise NotImplementedError

    def _finish(self, winner: int | None, reason: str) -> None:
        raise NotImplementedError

    def _new_minion(self, card: CardDef) -> Any:
        raise NotImplementedError

    def _draw(self, index: int, count: int) -> None:
        raise NotImplementedError

    def _place(self, index: int, hand_index: int, slot: int) -> Any:
        raise NotImplementedError

    def _after_deaths(self, effect_order: Any, replenish_order: Any, first: Any = ()) -> None:
        raise NotImplementedError

    def _amount(self, controller: int, value: Any) -> int:
        raise NotImplementedError

    def _awaken(self, index: int, minion: Minion) -> None:
        raise NotImplementedError

    def _current_attack(self, minion: Minion) -> int:
        raise NotImplementedError

    def _death_key(self, spot: tuple[int, int]) -> tuple[int, int]:
        raise NotImplementedError

    def _dying(self, p: int, s: int, restore: tuple | None = None) -> Any:
        raise NotImplementedError

    def _keywords(self, minion: Minion) -> Any:
        raise NotImplementedError

    def _locate(self, uid: int) -> tuple[int, int] | None:
        raise NotImplementedError

    def _minion(self, uid: int) -> Any:
        raise NotImplementedError

    def _usable(self, controller: int, source: int, ability: dict) -> bool:
        raise NotImplementedError

    def _may_attack_hero(self, minion: Minion) -> bool:
        raise NotImplementedError

    def _board_changed(self, card: CardDef | None = None) -> None:
        raise NotImplementedError


# Every attribute above, for Game.copy() (compiled classes have no __dict__ to copy).
STATE_ATTRIBUTES = (
    'cards',
    'ruleset',
    'seed',
    'rng',
    'events',
    'actions',
    'turn',
    'active',
    'first_player',
    'phase',
    'decision',
    'result',
    'combat',
    'start',
    'players',
    'main_actions',
    'played',
    'awakened',
    'drawn',
    'opening',
    '_stack',
    '_legal',
    '_next_uid',
    '_owed',
    '_started',
    '_auras',
    '_aura_busy',
    '_tick',
    '_aura_key',
    '_board_version',
    '_aura_sources',
    '_sources_key',
    '_static_auras',
    '_dynamic_auras',
    '_board_attack',
    '_board_keywords',
    '_aura_tick',
    '_step_attack',
    '_step_keywords',
    '_fallen',
)
