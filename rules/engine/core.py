"""The state of a game in progress, and the few moves every part of the game makes.

The engine is this state class plus modules of functions over it, each importing only the ones
before it (and none calling back up):

``core`` (this state; events, the task stack, decisions, draw, place, victory) → ``values``
(keywords, attack values, auras, amounts and conditions) → ``targets`` (target candidates,
usable abilities) → ``moves`` (deaths, replenish, awaken: shared by effects, combat and turns)
→ ``legal`` (legal actions) → ``effect_handlers`` (one handler per effect term) → ``effects``
(abilities, main-phase plays) → ``combat`` → ``turns`` → ``view`` (what one player may see)
→ ``game`` (``Game``: the public API, the task loop and its dispatch).

Everything that happens is a *task* — a plain tuple ``(name, *args)`` pushed on ``_stack`` and
run by ``game.Game`` — so a lower module asks for work of a higher one by pushing a task, never
by calling it. Compiled with mypyc, ``GameState`` is a native class and every function here a
native function (see the engine README).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from rules.engine.cards import AURA_BIT, CardDef, Ruleset
from rules.engine.state import Minion, Player

if TYPE_CHECKING:
    from rules.engine.actions import Action

HERO_UID: Final = 0       # the source uid of a hero's abilities


class Decision:
    """Who must act and about what. ``resume`` is the task to push with the answer.
    (A plain class rather than a named tuple: the compiled engine reads its fields directly.)"""

    kind: str
    player: int
    data: tuple[Any, ...]
    resume: tuple[Any, ...] | None

    def __init__(self, kind: str, player: int, data: tuple[Any, ...] = (),
                 resume: tuple[Any, ...] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.data = data
        self.resume = resume

    def __repr__(self) -> str:
        return (f"Decision(kind={self.kind!r}, player={self.player}, data={self.data!r}, "
                f"resume={self.resume!r})")


class Combat:
    """The combat between its ``combat`` and ``combat_resolve`` tasks (R2.3): the two minions by
    uid, whether an effect skipped it (R2.3.6), and what regenerate restores (R4.10) by uid when
    combat-start skills run. (A plain class, not a dict: the compiled engine reads its fields
    directly.)"""

    attacker: int
    defender: int
    skipped: bool
    restore: dict[int, tuple[Any, ...]]

    def __init__(self, attacker: int, defender: int, restore: dict[int, tuple[Any, ...]]) -> None:
        self.attacker = attacker
        self.defender = defender
        self.skipped = False
        self.restore = restore

    def copy(self) -> Combat:
        clone = Combat(self.attacker, self.defender, self.restore)
        clone.skipped = self.skipped
        return clone


class GameState:
    """Every attribute of a game in progress, declared (and given its starting value) once, in
    ``_init_state``. ``Game`` (rules/engine/game.py) adds the public API."""

    def _init_state(self, cards: Mapping[str, CardDef], seed: int, ruleset: Ruleset,
                    log: bool) -> None:
        self.cards: Mapping[str, CardDef] = cards
        self.ruleset: Ruleset = ruleset
        self.seed: int = seed
        self.rng: random.Random = random.Random(seed)
        self.events: list[dict[str, Any]] | None = [] if log else None
        self.actions: list[Action] = []
        self.turn: int = 0            # game turns so far; the first player's first turn is 1
        self.active: int = 0
        self.first_player: int = 0
        self.phase: str = "setup"
        self.decision: Decision | None = None
        self.result: dict[str, Any] | None = None
        self.combat: Combat | None = None
        self.start: dict[str, Any] = {}
        self.players: list[Player] = []
        self.main_actions: int = 0    # main-phase actions this turn (Ruleset.action_limit)
        # Per seat, how often each card code was played (into a slot, or an item used),
        # awakened and drawn, and the opening hand kept after the mulligan: the simulator's
        # per-card figures come from here, with logging off.
        self.played: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.awakened: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.drawn: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.opening: tuple[dict[str, int], dict[str, int]] = ({}, {})
        # The task stack is the first ``_depth`` entries of ``_stack``; the entries above are
        # spent and get overwritten. (A list grown and shrunk by a task at a time, as pop()
        # does, reallocated its memory at almost every push and pop: the stack is mostly empty
        # or one task deep between actions.)
        self._stack: list[tuple[Any, ...]] = []
        self._depth: int = 0
        self._legal: list[Action] | None = None
        self._next_uid: int = 1
        self._owed: list[int] = [0, 0]   # replenish chances still to come, per player (R3.2)
        self._started: bool = False      # victory is checked once setup has ended (R2.1.6)
        self._auras: bool = False        # set once the cards in play are known (speed only)
        self._aura_busy: bool = False
        self._tick: int = 0              # moves with every state step; keys the aura memo
        self._aura_key: int = -1         # the board version the board part is for
        self._board_version: int = 0     # moves whenever a minion enters, leaves, wakes, moves
        self._aura_sources: int = 0      # moves when a minion with an aura enters, leaves, wakes
        self._sources_key: int = -1      # the _aura_sources the aura lists were collected at
        # (controller, source uid, ability) of the auras in force that depend on the board
        # alone, and of the others; what the first give, by minion uid; the state step the
        # others' part is for, and what they give.
        self._static_auras: list[tuple[int, int, dict[str, Any]]] = []
        self._dynamic_auras: list[tuple[int, int, dict[str, Any]]] = []
        # static auras read per minion (values._is_simple)
        self._simple_auras: list[tuple[Any, ...]] = []
        self._aura_grants: set[str] = set()   # the keywords the auras in force grant
        self._aura_attacks: bool = False      # does any aura in force change attack?
        # what each aura ability is (values._aura_kind)
        self._aura_kinds: dict[int, tuple[Any, ...]] = {}
        self._board_attack: dict[int, int] = {}
        self._board_keywords: dict[int, list[str]] = {}
        self._aura_tick: int = -1
        self._step_attack: dict[int, int] = {}
        self._step_keywords: dict[int, list[str]] = {}
        self._fallen: dict[int, CardDef] = {}   # destroyed minions by uid, to name last words


def state_attributes(game: GameState) -> tuple[str, ...]:
    """The names of every attribute of ``game`` (compiled classes have no ``__dict__``: mypyc
    lists a native class's attributes in ``__mypyc_attrs__``)."""
    names = getattr(type(game), "__mypyc_attrs__", None)
    return tuple(names) if names is not None else tuple(vars(game))


# ------------------------------------------------------------ random numbers
#
# The game's random numbers, drawn exactly as random.Random's own shuffle() and randrange(n)
# draw them (same seed, same decks), but in compiled code: the library's versions are Python
# functions, slow next to the rest of a compiled game.

def randbelow(game: GameState, n: int) -> int:          # 0 <= result < n, for n > 0
    bits = n.bit_length()
    value = game.rng.getrandbits(bits)
    while value >= n:
        value = game.rng.getrandbits(bits)
    return value


def shuffle(game: GameState, cards: list[CardDef]) -> None:
    # randbelow inlined, with the generator's method looked up once per shuffle (not once per
    # card): the same draws, in the same order.
    getrandbits = game.rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j: int = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


# ------------------------------------------------------------ events, tasks, decisions

def event(game: GameState, kind: str, **data: Any) -> None:
    # Callers check ``game.events is not None`` first: with logging off (bulk runs) the event's
    # arguments are then never even worked out.
    if game.events is not None:
        data["t"] = kind
        game.events.append(data)


def push(game: GameState, *tasks: tuple[Any, ...]) -> None:
    """Push tasks so that they run in the order given."""
    i = len(tasks)
    while i > 0:            # a plain loop: extend(reversed(...)) costs more when compiled
        i -= 1
        push_one(game, tasks[i])


def push_list(game: GameState, tasks: list[tuple[Any, ...]]) -> None:
    """``push`` for a list of tasks already built (no argument unpacking)."""
    i = len(tasks)
    while i > 0:
        i -= 1
        push_one(game, tasks[i])


def push_one(game: GameState, task: tuple[Any, ...]) -> None:
    """Push one task: into the first spent entry of ``_stack``, or onto its end."""
    depth = game._depth
    stack = game._stack
    if depth < len(stack):
        stack[depth] = task
    else:
        stack.append(task)
    game._depth = depth + 1


def pop_task(game: GameState) -> tuple[Any, ...]:
    """The task on top of the stack, taken off it (the caller checks ``_depth > 0``)."""
    depth = game._depth - 1
    game._depth = depth
    return game._stack[depth]


def ask(game: GameState, kind: str, player: int, data: tuple[Any, ...] = (),
        resume: tuple[Any, ...] | None = None) -> None:
    game.decision = Decision(kind, player, data, resume)
    game._legal = None


# ------------------------------------------------------------ the board

def new_minion(game: GameState, card: CardDef) -> Minion:
    minion = Minion(game._next_uid, card)
    game._next_uid += 1
    return minion


def board_changed(game: GameState, card: CardDef | None = None) -> None:
    """A minion entered, left, woke or changed sides (``card``: its card; None when anything
    may have changed): what the auras give is worked out afresh when next asked, and the auras
    in force are collected again if that minion has one."""
    game._tick += 1
    game._board_version += 1
    if card is None or card.triggers & AURA_BIT:
        game._aura_sources += 1


def locate(game: GameState, uid: int) -> tuple[int, int] | None:
    for p, player in enumerate(game.players):
        for s, minion in enumerate(player.minions):
            if minion is not None and minion.uid == uid:
                return p, s
    return None


def spot(game: GameState, uid: int) -> list[int] | None:
    """[player, slot] of a minion on the board, for an event (the log's readers tell which
    minion an event is about, not only its card: a face-down one stays unknown to the other
    player, R4.1)."""
    loc = locate(game, uid)
    return None if loc is None else [loc[0], loc[1]]


def minion_by_uid(game: GameState, uid: int) -> Minion | None:
    loc = locate(game, uid)
    return None if loc is None else game.players[loc[0]].minions[loc[1]]


def sides(controller: int, side: str) -> tuple[int, ...]:
    if side == "ally":
        return (controller,)
    if side == "enemy":
        return (1 - controller,)
    return (controller, 1 - controller)


# ------------------------------------------------------------ shared moves

def draw(game: GameState, index: int, count: int) -> None:
    player = game.players[index]
    drawn = game.drawn[index]
    for _ in range(count):
        if player.deck:
            card = player.deck.pop()
            player.hand.append(card)
            drawn[card.code] = drawn.get(card.code, 0) + 1
        else:                                                   # R2.4.3
            player.hp -= 1
            if game.events is not None:
                event(game, "fatigue", player=index, hp=player.hp)
    if count > 0:
        if game.events is not None:
            event(game, "draw", player=index, count=count)


def place(game: GameState, index: int, hand_index: int, slot: int) -> Minion:
    player = game.players[index]
    card = player.hand.pop(hand_index)
    minion = new_minion(game, card)
    player.minions[slot] = minion
    played = game.played[index]
    played[card.code] = played.get(card.code, 0) + 1
    board_changed(game, card)
    if game.events is not None:
        event(game, "place", player=index, slot=slot, card=card.code)
    return minion


# ------------------------------------------------------------ R3 victory

def check_victory(game: GameState) -> None:
    if not game._started or game.result is not None:
        return
    first, second = game.players
    owed = game._owed
    # R3.1 (HP 0 or less) and R3.2 (no minion and no replenish to come), inlined: this runs
    # after every action and task. A replenish chance still owed only saves a player with a
    # minion card in hand to use it: both players are judged at the same check (R3.3), so two
    # boards emptied together with nothing to replenish are a draw, whatever the order the
    # chances would be offered in (tests/rules/test_victory.py).
    lost_first = first.hp <= 0 or (_no_minions(first) and (
        not owed[0] or not _has_minion_card(first.hand)))
    lost_second = second.hp <= 0 or (_no_minions(second) and (
        not owed[1] or not _has_minion_card(second.hand)))
    if lost_first and lost_second:                           # R3.3
        finish(game, None, "both_lost")
    elif lost_first or lost_second:
        loser = first if lost_first else second
        finish(game, 1 - loser.index, "hero_hp" if loser.hp <= 0 else "no_minions")


def finish(game: GameState, winner: int | None, reason: str) -> None:
    game.result = {"winner": winner, "reason": reason, "turns": game.turn}
    game.phase = "over"
    game.decision = None
    game._legal = None
    game._stack.clear()
    game._depth = 0
    if game.events is not None:
        event(game, "game_over", winner=winner, reason=reason)


def _no_minions(player: Player) -> bool:
    for minion in player.minions:
        if minion is not None:
            return False
    return True


def _has_minion_card(cards: list[CardDef]) -> bool:
    for card in cards:
        if card.kind == "minion":
            return True
    return False
