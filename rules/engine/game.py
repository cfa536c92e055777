"""A game in progress: setup, the turn cycle, legal actions and ``apply``.

How it runs: everything that happens is a *task* — a plain tuple ``(name, *args)`` on a LIFO
stack, run by ``_run`` until the stack is empty or someone must decide. A task that needs a
decision sets ``self.decision`` and returns; ``apply`` answers it and resumes the stack. Tasks
hold only plain data (numbers, codes, ability dicts), so a game can be copied mid-resolution.

``Game`` is the state of ``core.GameState`` plus this public API; the rules are the functions of
the modules below it (see ``core``'s docstring for their order). This is the top of the engine:
the only module that runs tasks and answers decisions, so the only one that names them all.

Invariants: every random choice comes from ``self.rng`` (one ``random.Random(seed)`` per game);
victory (R3) is checked after every action and every task; ``legal_actions()`` is exactly the
set of actions ``apply`` accepts; minion slots hold at most ``ruleset.slots`` cards per side;
energy never goes below 0. Nothing here imports Django.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.engine.actions import ARGUMENTS, HERO, KEEP, PASS, READY, Action
from rules.engine.cards import STANDARD, CardDataError, CardDef, DeckList, Ruleset
from rules.engine.combat import t_combat, t_combat_resolve
from rules.engine.core import Decision, GameState, check_victory, pop_task
from rules.engine.effect_handlers import answer_choose, answer_pick, t_chose, t_picked
from rules.engine.effects import (
    answer_optional,
    t_ability,
    t_effect,
    t_effects,
    t_offer,
    t_to_graveyard,
)
from rules.engine.legal import legal_actions
from rules.engine.moves import answer_replenish, t_replenish
from rules.engine.state import Player
from rules.engine.targets import answer_target
from rules.engine.turns import (
    answer_discard,
    answer_main,
    answer_mulligan,
    answer_setup,
    setup,
    t_end_phase,
    t_main,
    t_mulligan,
    t_setup_end,
    t_setup_place,
    t_turn_begin,
    t_turn_finish,
)
from rules.engine.view import PlayerView
from rules.localized import Sentence, gettext_noop

if TYPE_CHECKING:
    from rules.engine.agent import Agent
    from rules.engine.view import PlayerView


class IllegalAction(ValueError):
    """An action that is not among ``legal_actions()`` right now."""


# 2: awaken skills and last words are asked (R6.1). A version-1 log was played with every one
# used unasked, as the ruleset option always_use_optional_skills now plays (rules.engine.replay).
LOG_VERSION = 2
MSG_GAME_OVER = "the game is over; no action is legal"
MSG_ILLEGAL = "{action} is not legal now; legal actions: {legal}"
# A game refused for its decks: sentences the site translates (rules.localized.Sentence).
MSG_TWO_DECKS = gettext_noop("a game needs exactly two decks")
MSG_UNKNOWN_CARD = gettext_noop("unknown card code {code!r} in deck {deck}")
MSG_NOT_HERO = gettext_noop("deck {deck}: {code!r} is not a hero card")
MSG_HERO_IN_DECK = gettext_noop("deck {deck}: hero card {code!r} cannot be in the deck")


def rng_from_state(state: tuple[Any, ...]) -> random.Random:
    """A new ``random.Random`` in ``state`` (from ``getstate()``): allocated without the seeding
    from the OS that ``random.Random()`` does first, which the state would overwrite anyway."""
    rng: random.Random = random.Random.__new__(random.Random)
    rng.setstate(state)
    return rng


class Game(GameState):
    """One game between two seats (players 0 and 1). See the module docstring."""

    def __init__(self, cards: Mapping[str, CardDef] | None, decks: Sequence[DeckList] = (),
                 seed: int = 0, ruleset: Ruleset = STANDARD, log: bool = True,
                 first_player: int | None = None):
        if cards is None:
            # A blank shell for copy() and from_snapshot(), which set every attribute: the
            # compiled engine's classes cannot be made with __new__ alone.
            return
        self._init_state(cards, seed, ruleset, log)
        heroes, libraries = self._resolve_decks(decks)
        self.players = [Player(i, heroes[i], ruleset.slots) for i in range(2)]
        self._auras = any("aura" in c.by_trigger for c in [*heroes, *libraries[0],
                                                            *libraries[1]])
        # The deck lists and ruleset stay objects here; ``log()`` writes them out as JSON (most
        # games of a run are never logged, and writing them out cost more than a turn).
        self.start = {"decks": tuple(decks), "seed": seed, "ruleset": ruleset,
                      "first_player": first_player}
        setup(self, libraries, first_player)
        self._run()

    def _resolve_decks(self, decks: Sequence[DeckList]
                       ) -> tuple[list[CardDef], list[list[CardDef]]]:
        if len(decks) != 2:
            raise CardDataError([Sentence(MSG_TWO_DECKS)])
        problems: list[Sentence] = []
        heroes: list[CardDef] = []
        libraries: list[list[CardDef]] = []
        for i, deck in enumerate(decks):
            label = deck.name or str(i)
            hero = self.cards.get(deck.hero)
            if hero is None:
                problems.append(Sentence(MSG_UNKNOWN_CARD, {"code": deck.hero, "deck": label}))
            elif hero.kind != "hero":
                problems.append(Sentence(MSG_NOT_HERO, {"code": deck.hero, "deck": label}))
            library: list[CardDef] = []
            for code in deck.cards:
                card = self.cards.get(code)
                if card is None:
                    problems.append(Sentence(MSG_UNKNOWN_CARD, {"code": code, "deck": label}))
                elif card.kind == "hero":
                    problems.append(Sentence(MSG_HERO_IN_DECK, {"code": code, "deck": label}))
                else:
                    library.append(card)
            if hero is not None:          # else a problem: the game is refused below
                heroes.append(hero)
            libraries.append(library)
        if problems:
            raise CardDataError(sorted(set(problems), key=str))
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
        return legal_actions(self)

    def apply(self, action: Action | Mapping[str, Any] | list[Any] | tuple[Any, ...],
              check: bool = True) -> None:
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
        check_victory(self)
        self._run()

    def play_out(self, agents: tuple[Agent, ...], rngs: tuple[random.Random, ...],
                 limit: int) -> int:
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

    def view(self, player: int) -> PlayerView:
        """What ``player`` can see (R1.1 zones minus hidden information)."""
        return PlayerView(self, player)

    def snapshot(self) -> dict[str, Any]:
        from rules.engine.snapshot import snapshot

        return snapshot(self)

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any], cards: Mapping[str, CardDef],
                      seed: int = 0, log: bool = True) -> Game:
        from rules.engine.snapshot import from_snapshot

        game = from_snapshot(cls, data, cards, seed=seed, log=log)
        game._run()
        return game

    def copy(self, rng: random.Random | None = None) -> Game:
        """An independent copy sharing only immutable card data (for search agents). Its RNG is
        ``rng`` when given — a search that copies one position many times makes the RNGs
        itself (see ``rules.ai.planner``), since reading a Mersenne Twister's state costs more
        than copying the rest of the game — else a copy of this game's.

        Every attribute is named here (a native field copied natively: by name, through
        ``getattr``, the copy cost a search a twentieth of its time); tests/rules check that
        none of ``state_attributes`` is left out."""
        clone = Game(None)
        clone.cards = self.cards
        clone.ruleset = self.ruleset
        clone.seed = self.seed
        clone.rng = rng_from_state(self.rng.getstate()) if rng is None else rng
        clone.events = None
        clone.actions = list(self.actions)
        clone.turn = self.turn
        clone.active = self.active
        clone.first_player = self.first_player
        clone.phase = self.phase
        clone.decision = self.decision
        clone.result = self.result
        clone.combat = self.combat.copy() if self.combat is not None else None
        clone.start = self.start
        clone.players = [p.copy() for p in self.players]
        clone.main_actions = self.main_actions
        clone.played = (dict(self.played[0]), dict(self.played[1]))
        clone.awakened = (dict(self.awakened[0]), dict(self.awakened[1]))
        clone.drawn = (dict(self.drawn[0]), dict(self.drawn[1]))
        clone.opening = (dict(self.opening[0]), dict(self.opening[1]))
        clone._stack = self._stack[:self._depth]
        clone._depth = self._depth
        clone._legal = None
        clone._next_uid = self._next_uid
        clone._owed = list(self._owed)
        clone._started = self._started
        clone._auras = self._auras
        clone._aura_busy = self._aura_busy
        clone._tick = self._tick
        # What the auras give, as far as it is worked out, holds for the copy's board too: the
        # lists and tables are replaced, never changed, once made, so they are shared.
        clone._aura_key = self._aura_key
        clone._board_version = self._board_version
        clone._aura_sources = self._aura_sources
        clone._sources_key = self._sources_key
        clone._static_auras = self._static_auras
        clone._dynamic_auras = self._dynamic_auras
        clone._simple_auras = self._simple_auras
        clone._aura_grants = self._aura_grants
        clone._aura_attacks = self._aura_attacks
        clone._aura_kinds = self._aura_kinds
        clone._board_attack = self._board_attack
        clone._board_keywords = self._board_keywords
        clone._aura_tick = self._aura_tick
        clone._step_attack = self._step_attack
        clone._step_keywords = self._step_keywords
        clone._fallen = dict(self._fallen)
        return clone

    def log(self) -> dict[str, Any]:
        """The event log: how the game started, every action, and what happened (JSON)."""
        start = self.start
        if "decks" in start:                 # a game started from deck lists (see __init__)
            start = {"decks": [d.to_dict() for d in start["decks"]], "seed": start["seed"],
                     "ruleset": start["ruleset"].to_dict(),
                     "first_player": start["first_player"]}
        return {"version": LOG_VERSION, "start": start,
                "actions": [a.to_dict() for a in self.actions],
                "events": list(self.events or []), "result": self.result}

    # ------------------------------------------------------------ the loop

    def _run(self) -> None:
        while self._depth > 0 and self.decision is None and self.result is None:
            task = pop_task(self)
            self._tick += 1
            self._run_task(task)
            check_victory(self)
        if self.result is None and self.decision is None and self.phase == "main":
            self.decision = Decision("main", self.active)

    def _run_task(self, task: tuple[Any, ...]) -> None:
        """Run one task. A direct call per task name, most frequent first: the compiled engine
        then calls each handler natively instead of through a table of Python callables."""
        name: str = task[0]
        if name == "main":
            t_main(self)
        elif name == "effects":
            t_effects(self, task[1], task[2], task[3], task[4], task[5])
        elif name == "ability":
            t_ability(self, task[1], task[2], task[3], task[4])
        elif name == "combat":
            t_combat(self, task[1], task[2])
        elif name == "combat_resolve":
            t_combat_resolve(self)
        elif name == "turn_begin":
            t_turn_begin(self, task[1])
        elif name == "end_phase":
            t_end_phase(self, task[1])
        elif name == "turn_finish":
            t_turn_finish(self, task[1])
        elif name == "replenish":
            t_replenish(self, task[1], task[2])
        elif name == "effect":
            t_effect(self, task[1], task[2], task[3], task[4], task[5])
        elif name == "offer":
            t_offer(self, task[1], task[2], task[3])
        elif name == "to_graveyard":
            t_to_graveyard(self, task[1], task[2])
        elif name == "picked":
            t_picked(self, task[1], task[2], task[3], task[4], task[5], task[6], task[7],
                     task[8])
        elif name == "chose":
            t_chose(self, task[1], task[2], task[3], task[4], task[5])
        elif name == "mulligan":
            t_mulligan(self, task[1])
        elif name == "setup_place":
            t_setup_place(self, task[1])
        elif name == "setup_end":
            t_setup_end(self)
        else:
            raise ValueError(f"unknown task {name!r}")

    def _answer(self, decision: Decision, action: Action) -> None:
        """Hand an action to the handler of the decision it answers."""
        kind = decision.kind
        if kind == "main":
            answer_main(self, decision, action)
        elif kind == "target":
            answer_target(self, decision, action)
        elif kind == "replenish":
            answer_replenish(self, decision, action)
        elif kind == "mulligan":
            answer_mulligan(self, decision, action)
        elif kind == "setup":
            answer_setup(self, decision, action)
        elif kind == "discard" or kind == "discard_display":
            answer_discard(self, decision, action)
        elif kind == "choose":
            answer_choose(self, decision, action)
        elif kind == "pick":
            answer_pick(self, decision, action)
        elif kind == "optional":
            answer_optional(self, decision, action)
        else:
            raise ValueError(f"unknown decision {kind!r}")


__all__ = ["ARGUMENTS", "HERO", "KEEP", "PASS", "READY", "Decision", "Game", "IllegalAction"]
