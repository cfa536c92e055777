"""A game in progress: setup, the turn cycle, legal actions and ``apply``.

How it runs: everything that happens is a *task* — a plain tuple ``(name, *args)`` on a LIFO
stack, run by ``_run`` until the stack is empty or someone must decide. A task that needs a
decision sets ``self.decision`` and returns; ``apply`` answers it and resumes the stack. Tasks
hold only plain data (numbers, codes, ability dicts), so a game can be copied mid-resolution.

Invariants: every random choice comes from ``self.rng`` (one ``random.Random(seed)`` per game);
victory (R3) is checked after every action and every task; ``legal_actions()`` is exactly the
set of actions ``apply`` accepts; minion slots hold at most ``ruleset.slots`` cards per side;
energy never goes below 0. Nothing here imports Django.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.actions import ARGUMENTS, HERO, KEEP, PASS, READY, Action
from rules.engine.cards import STANDARD, CardDataError, CardDef, DeckList, Ruleset
from rules.engine.core import STATE_ATTRIBUTES, Decision
from rules.engine.state import Minion, Player
from rules.engine.turns import TurnsMixin


class IllegalAction(ValueError):
    """An action that is not among ``legal_actions()`` right now."""


# 2: awaken skills and last words are asked (R6.1). A version-1 log was played with every one
# used unasked, as the ruleset option always_use_optional_skills now plays (rules.engine.replay).
LOG_VERSION = 2
MSG_GAME_OVER = "the game is over; no action is legal"
MSG_ILLEGAL = "{action} is not legal now; legal actions: {legal}"
MSG_UNKNOWN_CARD = "unknown card code {code!r} in deck {deck}"
MSG_NOT_HERO = "deck {deck}: {code!r} is not a hero card"
MSG_HERO_IN_DECK = "deck {deck}: hero card {code!r} cannot be in the deck"


class Game(TurnsMixin):
    """One game between two seats (players 0 and 1). See the module docstring."""

    def __init__(self, cards: Mapping[str, CardDef] | None, decks: Sequence[DeckList] = (),
                 seed: int = 0, ruleset: Ruleset = STANDARD, log: bool = True,
                 first_player: int | None = None):
        if cards is None:
            # A blank shell for copy() and from_snapshot(), which set every attribute: the
            # compiled engine's classes cannot be made with __new__ alone.
            return
        self._init_common(cards, seed, ruleset, log)
        heroes, libraries = self._resolve_decks(decks)
        self.players = [Player(i, heroes[i], ruleset.slots) for i in range(2)]
        self._auras = any("aura" in c.by_trigger for c in [*heroes, *libraries[0],
                                                            *libraries[1]])
        self.start = {"decks": [d.to_dict() for d in decks], "seed": seed,
                      "ruleset": ruleset.to_dict(), "first_player": first_player}
        self._setup(libraries, first_player)
        self._run()

    def _init_common(self, cards: Mapping[str, CardDef], seed: int, ruleset: Ruleset,
                     log: bool) -> None:
        self.cards = cards
        self.ruleset = ruleset
        self.seed = seed
        self.rng = random.Random(seed)
        self.events = [] if log else None
        self.actions = []
        self.turn = 0                 # game turns so far; the first player's first turn is 1
        self.active = 0
        self.first_player = 0
        self.phase = "setup"
        self.decision = None
        self.result = None
        self.combat = None
        self._stack = []
        self._legal = None
        self._next_uid = 1
        self._owed = [0, 0]           # replenish chances still to come, per player (R3.2)
        self._started = False         # victory is checked once setup has ended (R2.1.6)
        self._auras = False           # set once the cards in play are known (speed only)
        self._aura_busy = False
        self._tick = 0                # moves with every state step; keys the aura memo
        self.main_actions = 0         # main-phase actions this turn (Ruleset.action_limit)
        self._board_version = 0       # moves whenever a minion enters, leaves, wakes or moves
        self._aura_sources = 0        # moves when a minion with an aura enters, leaves or wakes
        self._sources_key = -1        # the _aura_sources the aura lists were collected at
        self._aura_key = -1           # the board version the board part is for
        self._static_auras = []       # (controller, source uid, ability) of the auras in force
        self._dynamic_auras = []      # that depend on the board alone, and of the others
        self._board_attack = {}       # what the first give, by minion uid
        self._board_keywords = {}
        self._aura_tick = -1          # the state step the others' part is for
        self._step_attack = {}
        self._step_keywords = {}
        # Per seat, how often each card code was played (into a slot, or an item used),
        # awakened and drawn, and the opening hand kept after the mulligan: the simulator's
        # per-card figures come from here, with logging off.
        self.played = ({}, {})
        self.awakened = ({}, {})
        self.drawn = ({}, {})
        self.opening = ({}, {})
        self._fallen = {}   # destroyed minions by uid, to name last words

    def _resolve_decks(self, decks: Sequence[DeckList]) -> tuple[list, list]:
        if len(decks) != 2:
            raise CardDataError(["a game needs exactly two decks"])
        problems, heroes, libraries = [], [], []
        for i, deck in enumerate(decks):
            label = deck.name or str(i)
            hero = self.cards.get(deck.hero)
            if hero is None:
                problems.append(MSG_UNKNOWN_CARD.format(code=deck.hero, deck=label))
            elif hero.kind != "hero":
                problems.append(MSG_NOT_HERO.format(code=deck.hero, deck=label))
            library = []
            for code in deck.cards:
                card = self.cards.get(code)
                if card is None:
                    problems.append(MSG_UNKNOWN_CARD.format(code=code, deck=label))
                elif card.kind == "hero":
                    problems.append(MSG_HERO_IN_DECK.format(code=code, deck=label))
                else:
                    library.append(card)
            heroes.append(hero)
            libraries.append(library)
        if problems:
            raise CardDataError(sorted(set(problems)))
        return heroes, libraries

    # ------------------------------------------------------------ public API

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result["winner"]

    @property
    def to_move(self) -> int | None:
        """The player who must decide now (None when the game is over)."""
        return None if self.decision is None else self.decision.player

    def legal_actions(self) -> list[Action]:
        if self.decision is None:
            return []
        if self._legal is None:
            self._legal = self._legal_for(self.decision)
        return self._legal

    def apply(self, action: Action | Mapping | Sequence, check: bool = True) -> None:
        """Play one action of the player to move, then resolve until the next decision."""
        if not isinstance(action, Action):
            action = Action.from_dict(action)
        decision = self.decision
        if decision is None:
            raise IllegalAction(MSG_GAME_OVER)
        if check and action not in self.legal_actions():
            legal = ", ".join(str(a) for a in self.legal_actions())
            raise IllegalAction(MSG_ILLEGAL.format(action=action, legal=legal))
        self._play(decision, action)

    def _play(self, decision: Decision, action: Action) -> None:
        """``apply`` past its checks: the action answers ``decision``."""
        self.actions.append(action)
        self._tick += 1
        if self.events is not None:
            self.events.append({"t": "action", "player": decision.player, **action.to_dict()})
        self.decision = None
        self._legal = None
        self._answer(decision, action)
        self._check_victory()
        self._run()

    def play_out(self, agents: tuple, rngs: tuple, limit: int) -> int:
        """Let ``agents`` (one per seat, each with its own ``rngs`` entry) play until the game
        ends or ``limit`` actions have been played; returns the number of actions played.
        The simulator's inner loop, here so that it runs compiled."""
        views = (agents[0].needs_view, agents[1].needs_view)
        count = 0
        decision = self.decision
        while decision is not None and count < limit:
            seat = decision.player
            legal = self.legal_actions()
            view = self.view(seat) if views[seat] else None
            self._play(decision, agents[seat].choose(view, legal, rngs[seat]))
            decision = self.decision
            count += 1
        return count

    def view(self, player: int):
        """What ``player`` can see (R1.1 zones minus hidden information)."""
        from rules.engine.view import PlayerView

        return PlayerView(self, player)

    def snapshot(self) -> dict[str, Any]:
        from rules.engine.snapshot import snapshot

        return snapshot(self)

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any], cards: Mapping[str, CardDef],
                      seed: int = 0, log: bool = True) -> Game:
        from rules.engine.snapshot import from_snapshot

        return from_snapshot(cls, data, cards, seed=seed, log=log)

    def copy(self) -> Game:
        """An independent copy sharing only immutable card data (for search agents)."""
        clone = Game(None)
        for name in STATE_ATTRIBUTES:
            setattr(clone, name, getattr(self, name))
        clone.players = [p.copy() for p in self.players]
        clone.rng = random.Random()
        clone.rng.setstate(self.rng.getstate())
        clone.events = None
        clone.actions = list(self.actions)
        clone._stack = list(self._stack)
        clone._owed = list(self._owed)
        clone._fallen = dict(self._fallen)
        clone._aura_key = -1          # memoised aura answers are worked out afresh
        clone._sources_key = -1
        clone._aura_tick = -1
        clone.played = (dict(self.played[0]), dict(self.played[1]))
        clone.awakened = (dict(self.awakened[0]), dict(self.awakened[1]))
        clone.drawn = (dict(self.drawn[0]), dict(self.drawn[1]))
        clone.opening = (dict(self.opening[0]), dict(self.opening[1]))
        clone._legal = None
        clone.combat = dict(self.combat) if self.combat is not None else None
        return clone

    def log(self) -> dict[str, Any]:
        """The event log: how the game started, every action, and what happened (JSON)."""
        return {"version": LOG_VERSION, "start": self.start,
                "actions": [a.to_dict() for a in self.actions],
                "events": list(self.events or []), "result": self.result}

    # ------------------------------------------------------------ the loop

    def _run(self) -> None:
        stack = self._stack
        while stack and self.decision is None and self.result is None:
            task = stack.pop()
            self._tick += 1
            self._run_task(task)
            self._check_victory()
        if self.result is None and self.decision is None and self.phase == "main":
            self.decision = Decision("main", self.active)

    def _run_task(self, task: tuple) -> None:
        """Run one task. A direct call per task name, most frequent first: the compiled engine
        then calls each handler natively instead of through a table of Python callables."""
        name: str = task[0]
        if name == "main":
            self._t_main()
        elif name == "effects":
            self._t_effects(task[1], task[2], task[3], task[4], task[5])
        elif name == "ability":
            self._t_ability(task[1], task[2], task[3], task[4])
        elif name == "combat":
            self._t_combat(task[1], task[2])
        elif name == "combat_resolve":
            self._t_combat_resolve()
        elif name == "turn_begin":
            self._t_turn_begin(task[1])
        elif name == "end_phase":
            self._t_end_phase(task[1])
        elif name == "turn_finish":
            self._t_turn_finish(task[1])
        elif name == "replenish":
            self._t_replenish(task[1], task[2])
        elif name == "effect":
            self._t_effect(task[1], task[2], task[3], task[4], task[5])
        elif name == "offer":
            self._t_offer(task[1], task[2], task[3])
        elif name == "to_graveyard":
            self._t_to_graveyard(task[1], task[2])
        elif name == "picked":
            self._t_picked(task[1], task[2], task[3], task[4], task[5], task[6], task[7],
                           task[8])
        elif name == "chose":
            self._t_chose(task[1], task[2], task[3], task[4], task[5])
        elif name == "mulligan":
            self._t_mulligan(task[1])
        elif name == "setup_place":
            self._t_setup_place(task[1])
        elif name == "setup_end":
            self._t_setup_end()
        else:
            raise ValueError(f"unknown task {name!r}")

    def _answer(self, decision: Decision, action: Action) -> None:
        """Hand an action to the handler of the decision it answers."""
        kind = decision.kind
        if kind == "main":
            self._answer_main(decision, action)
        elif kind == "target":
            self._answer_target(decision, action)
        elif kind == "replenish":
            self._answer_replenish(decision, action)
        elif kind == "mulligan":
            self._answer_mulligan(decision, action)
        elif kind == "setup":
            self._answer_setup(decision, action)
        elif kind == "discard" or kind == "discard_display":
            self._answer_discard(decision, action)
        elif kind == "choose":
            self._answer_choose(decision, action)
        elif kind == "pick":
            self._answer_pick(decision, action)
        elif kind == "optional":
            self._answer_optional(decision, action)
        else:
            raise ValueError(f"unknown decision {kind!r}")

    def _push(self, *tasks: tuple) -> None:
        """Push tasks so that they run in the order given."""
        stack = self._stack
        i = len(tasks)
        while i > 0:            # a plain loop: extend(reversed(...)) costs more when compiled
            i -= 1
            stack.append(tasks[i])

    def _push_list(self, tasks: list[tuple]) -> None:
        """``_push`` for a list of tasks already built (no argument unpacking)."""
        stack = self._stack
        i = len(tasks)
        while i > 0:
            i -= 1
            stack.append(tasks[i])

    def _ask(self, kind: str, player: int, data: tuple = (), resume: tuple | None = None):
        self.decision = Decision(kind, player, data, resume)
        self._legal = None

    def _event(self, kind: str, **data: Any) -> None:
        # Callers check ``self.events is not None`` first: with logging off (bulk runs) the
        # event's arguments are then never even worked out.
        if self.events is not None:
            data["t"] = kind
            self.events.append(data)

    def _new_minion(self, card: CardDef) -> Minion:
        minion = Minion(self._next_uid, card)
        self._next_uid += 1
        return minion

    # ------------------------------------------------------------ shared moves

    def _draw(self, index: int, count: int) -> None:
        player = self.players[index]
        drawn = self.drawn[index]
        for _ in range(count):
            if player.deck:
                card = player.deck.pop()
                player.hand.append(card)
                drawn[card.code] = drawn.get(card.code, 0) + 1
            else:                                                   # R2.4.3
                player.hp -= 1
                if self.events is not None:
                    self._event("fatigue", player=index, hp=player.hp)
        if count > 0:
            if self.events is not None:
                self._event("draw", player=index, count=count)

    def _place(self, index: int, hand_index: int, slot: int) -> Minion:
        player = self.players[index]
        card = player.hand.pop(hand_index)
        minion = self._new_minion(card)
        player.minions[slot] = minion
        played = self.played[index]
        played[card.code] = played.get(card.code, 0) + 1
        self._board_changed(card)
        if self.events is not None:
            self._event("place", player=index, slot=slot, card=card.code)
        return minion

    # ------------------------------------------------------------ R3 victory

    def _check_victory(self) -> None:
        if not self._started or self.result is not None:
            return
        first, second = self.players
        owed = self._owed
        # R3.1 (HP 0 or less) and R3.2 (no minion and no replenish to come), inlined: this runs
        # after every action and task. A replenish chance still owed only saves a player with a
        # minion card in hand to use it: both players are judged at the same check (R3.3), so
        # two boards emptied together with nothing to replenish are a draw, whatever the order
        # the chances would be offered in (tests/rules/test_victory.py).
        lost_first = first.hp <= 0 or (_no_minions(first) and (
            not owed[0] or not _has_minion_card(first.hand)))
        lost_second = second.hp <= 0 or (_no_minions(second) and (
            not owed[1] or not _has_minion_card(second.hand)))
        if lost_first and lost_second:                           # R3.3
            self._finish(None, "both_lost")
        elif lost_first or lost_second:
            loser = first if lost_first else second
            self._finish(1 - loser.index, "hero_hp" if loser.hp <= 0 else "no_minions")

    def _finish(self, winner: int | None, reason: str) -> None:
        self.result = {"winner": winner, "reason": reason, "turns": self.turn}
        self.phase = "over"
        self.decision = None
        self._legal = None
        self._stack.clear()
        if self.events is not None:
            self._event("game_over", winner=winner, reason=reason)


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


__all__ = ["ARGUMENTS", "HERO", "KEEP", "PASS", "READY", "Decision", "Game", "IllegalAction"]
