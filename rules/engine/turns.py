"""Setup (R2.1) and the turn cycle (R2.2): mulligan, placing, draw, energy, main and end phases.

Invariants: each step is a task on the game's stack, so setup and turns interleave with
triggered abilities exactly as the rules order them; "this turn" effects end when the turn
finishes; per-turn flags (attacks, skills, re-act) reset on both sides at each turn's start.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import TURN_END_BIT, TURN_START_BIT, CardDef
from rules.engine.combat import do_attack
from rules.engine.core import (
    HERO_UID,
    Decision,
    GameState,
    ask,
    check_victory,
    draw,
    event,
    finish,
    place,
    push,
    push_list,
    randbelow,
    shuffle,
)
from rules.engine.effects import do_awaken, do_hero_skill, do_item, do_place, do_skill
from rules.engine.state import NO_KEYWORDS

# ------------------------------------------------------------ R2.1 setup

def setup(game: GameState, libraries: list[list[CardDef]], first_player: int | None) -> None:
    for player, library in zip(game.players, libraries, strict=True):
        player.deck = list(library)
        shuffle(game, player.deck)                                        # R2.1.3
    # R2.1.2 [ruling]: uniformly at random from the seed unless the caller fixes it.
    first = randbelow(game, 2) if first_player is None else first_player
    game.first_player = game.active = first
    if game.events is not None:
        event(game, "setup", first_player=first, heroes=[p.hero.code for p in game.players])
    for player in game.players:
        draw(game, player.index, game.ruleset.opening_hand)            # R2.1.3
    second = 1 - first
    push(game, ("mulligan", first), ("mulligan", second),                 # R2.1.4
         ("setup_place", first), ("setup_place", second),                 # R2.1.5
         ("setup_end",))                                                  # R2.1.6


def t_mulligan(game: GameState, player: int) -> None:
    game.phase = "mulligan"
    ask(game, "mulligan", player)


def answer_mulligan(game: GameState, decision: Decision, action: Action) -> None:
    player = game.players[decision.player]
    if action.kind == "mulligan":
        player.marked.append(action.a)
        ask(game, "mulligan", decision.player)
        return
    chosen = [player.hand[i] for i in sorted(player.marked)]
    marked = set(player.marked)
    player.hand = [c for i, c in enumerate(player.hand) if i not in marked]
    player.deck[:0] = chosen                                   # bottom of the deck
    player.marked = []
    draw(game, player.index, game.ruleset.opening_hand - len(player.hand))
    shuffle(game, player.deck)
    opening = game.opening[player.index]
    for card in player.hand:
        opening[card.code] = opening.get(card.code, 0) + 1
    if game.events is not None:
        event(game, "mulligan", player=player.index, count=len(chosen))


def t_setup_place(game: GameState, player: int) -> None:
    game.phase = "setup"
    ask(game, "setup", player)


def answer_setup(game: GameState, decision: Decision, action: Action) -> None:
    if action.kind == "place":
        place(game, decision.player, action.a, action.b)
        ask(game, "setup", decision.player)


def t_setup_end(game: GameState) -> None:
    game._started = True
    if game.events is not None:
        event(game, "setup_end")
    check_victory(game)
    if game.result is None:
        push(game, ("turn_begin", game.first_player))


# ------------------------------------------------------------ R2.2 turns

def t_turn_begin(game: GameState, index: int) -> None:
    game.turn += 1
    game.active = index
    game.phase = "draw"
    player = game.players[index]
    first_turn = index == game.first_player and player.turns_taken == 0
    player.turns_taken += 1
    player.hero_skill_used = False
    game.main_actions = 0
    # "This turn" flags start afresh on both sides: a minion taken by mind control later
    # this turn must not bring along what it did on its old controller's turn (R4.6).
    for side in game.players:
        for minion in side.minions:
            if minion is not None:
                minion.attacks_left = 1 if minion.awake and side is player else 0
                minion.attacked = minion.reacted = minion.skill_used = False
    if game.events is not None:
        event(game, "turn", turn=game.turn, player=index)
    if player.skip_draw:                                   # R1.2: a skipped draw phase
        player.skip_draw = False
        player.graveyard.extend(player.display)
        if game.events is not None:
            event(game, "draw_skipped", player=index, discarded=len(player.display))
        player.display = []
    else:
        if not first_turn:                                 # R2.2.1
            draw(game, index, 1)
        if player.display:                                 # R1.2
            if game.events is not None:
                event(game, "display_returned", player=index, count=len(player.display))
            player.hand.extend(player.display)
            player.display = []
    rules = game.ruleset                                   # R2.2.2
    player.energy = rules.first_turn_energy if first_turn else rules.energy_cap
    game.phase = "main"
    tasks = _turn_triggers(game, "turn_start", TURN_START_BIT, index)
    tasks.append(("main",))
    push_list(game, tasks)


def t_main(game: GameState) -> None:
    game.phase = "main"
    ask(game, "main", game.active)


def answer_main(game: GameState, decision: Decision, action: Action) -> None:
    player = decision.player
    if action.kind == "end":
        tasks = _turn_triggers(game, "turn_end", TURN_END_BIT, player)
        tasks.append(("end_phase", player))
        push_list(game, tasks)
        return
    game.main_actions += 1
    push(game, ("main",))
    kind: str = action.kind
    if kind == "attack":
        do_attack(game, player, action)
    elif kind == "place":
        do_place(game, player, action)
    elif kind == "awaken":
        do_awaken(game, player, action)
    elif kind == "skill":
        do_skill(game, player, action)
    elif kind == "item":
        do_item(game, player, action)
    elif kind == "hero_skill":
        do_hero_skill(game, player, action)
    else:
        raise ValueError(f"unknown main-phase action {kind!r}")


def t_end_phase(game: GameState, index: int) -> None:
    game.phase = "end"
    player = game.players[index]
    if len(player.hand) > game.ruleset.hand_limit:            # R2.2.4
        ask(game, "discard", index, resume=("end_phase", index))
    elif len(player.display) > game.ruleset.display_limit:    # R2.2.4
        ask(game, "discard_display", index, resume=("end_phase", index))
    else:
        push(game, ("turn_finish", index))


def answer_discard(game: GameState, decision: Decision, action: Action) -> None:
    player = game.players[decision.player]
    zone = player.hand if action.kind == "discard" else player.display
    card = zone.pop(action.a)
    player.graveyard.append(card)
    if game.events is not None:
        event(game, "discard", player=player.index, card=card.code)
    assert decision.resume is not None, "a discard decision says where the turn goes on"
    push(game, decision.resume)


def t_turn_finish(game: GameState, index: int) -> None:
    for player in game.players:                 # "this turn" effects end with the turn
        for minion in player.minions:
            if minion is not None:
                minion.turn_attack = 0
                minion.turn_granted = NO_KEYWORDS
                minion.turn_removed = NO_KEYWORDS
    limit = game.ruleset.turn_limit                              # R2.2.6
    if all(p.turns_taken >= limit for p in game.players):
        finish(game, None, "turn_limit")
        return
    push(game, ("turn_begin", 1 - index))


def _turn_triggers(game: GameState, trigger: str, bit: int, active: int
                   ) -> list[tuple[Any, ...]]:
    """The turn-start or turn-end passives (``bit``: the trigger's ``TRIGGER_BIT``) to run, the
    active player's first, each side in ``passive_sources``' order (minions left to right,
    then the hero). Plain loops over the board: this runs twice a turn, mostly to find none."""
    tasks: list[tuple[Any, ...]] = []
    for k in range(2):
        index = active if k == 0 else 1 - active
        player = game.players[index]
        for minion in player.minions:
            if minion is not None and minion.card.triggers & bit:
                for ability in minion.card.by_trigger[trigger]:
                    if (minion.awake or ability["sleeping"]) \
                            and _whose_turn(ability, k == 0):                 # R4.7, R4.1
                        tasks.append(("ability", index, minion.uid, ability, -1))
        if player.hero.triggers & bit:
            for ability in player.hero.by_trigger[trigger]:
                if _whose_turn(ability, k == 0):
                    tasks.append(("ability", index, HERO_UID, ability, -1))
    return tasks


def _whose_turn(ability: dict[str, Any], own_turn: bool) -> bool:
    """Does a turn passive fire on this turn: its controller's (``own_turn``) or the enemy's?"""
    whose: str = ability["whose"]
    return whose == "each" or whose == ("own" if own_turn else "enemy")
