"""What each effect term does in a game: one handler per term (``e_<term>``), and
``do_effect``, which runs the one an effect names (a direct call per term; a term registered
with a ``handler`` of its own runs through that). The rest of a term — schema, description,
example, rule id, English and Chinese text — is in ``effect_definitions.py``.

Invariants: a handler receives the game, the controller, the source uid, the normalised
effect, the uid of the other minion of the current combat (or -1) and, for targeted terms, the
target uids already selected. Handlers change state only through the shared moves of the game
(draw, place, dying, awaken), so every rule those moves enforce applies to effects too; an
effect that runs more effects pushes them as a task.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import CardDef
from rules.engine.core import (
    Decision,
    GameState,
    ask,
    board_changed,
    draw,
    event,
    locate,
    minion_by_uid,
    new_minion,
    push,
    spot,
)
from rules.engine.filters import card_matches
from rules.engine.moves import after_deaths, awaken, death_key, dying
from rules.engine.state import with_keyword, without_keyword
from rules.engine.term_registry import EFFECTS
from rules.engine.values import amount

# ------------------------------------------------------------ heroes and energy

def _heroes(game: GameState, controller: int, which: str) -> tuple[int, ...]:
    if which == "own":
        return (controller,)
    if which == "enemy":
        return (1 - controller,)
    return (1 - controller, controller)


def e_damage_hero(game: GameState, controller: int, source: int, effect: dict[str, Any],
                  other: int, targets: list[int] | None) -> None:
    value = max(0, amount(game, controller, effect["amount"]))
    for index in _heroes(game, controller, effect["hero"]):
        game.players[index].hp -= value
        if game.events is not None:
            event(game, "hero_damage", player=index, amount=value, hp=game.players[index].hp)


def e_heal_hero(game: GameState, controller: int, source: int, effect: dict[str, Any],
                other: int, targets: list[int] | None) -> None:
    value = max(0, amount(game, controller, effect["amount"]))
    for index in _heroes(game, controller, effect["hero"]):
        player = game.players[index]
        player.hp = max(player.hp, min(player.hero.hp, player.hp + value))
        if game.events is not None:
            event(game, "hero_heal", player=index, amount=value, hp=player.hp)


def e_energy(game: GameState, controller: int, source: int, effect: dict[str, Any],
             other: int, targets: list[int] | None) -> None:
    player = game.players[controller]
    player.energy = max(0, player.energy + amount(game, controller, effect["amount"]))
    if game.events is not None:
        event(game, "energy", player=controller, energy=player.energy)


# ------------------------------------------------------------ minions

def e_destroy(game: GameState, controller: int, source: int, effect: dict[str, Any],
              other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    spots = sorted((s for s in (locate(game, uid) for uid in targets) if s is not None),
                   key=lambda spot: death_key(game, spot))
    dead = [d for d in (dying(game, p, s) for p, s in spots) if d is not None]
    after_deaths(game, dead, dead)


def e_attack(game: GameState, controller: int, source: int, effect: dict[str, Any],
             other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    value = amount(game, controller, effect["amount"])
    for uid in targets:
        minion = minion_by_uid(game, uid)
        if minion is None:
            continue
        if effect["duration"] == "turn":
            minion.turn_attack += value
        else:
            minion.perm_attack += value
        if game.events is not None:
            event(game, "attack_change", card=minion.card.code, at=spot(game, uid),
                  amount=value, duration=effect["duration"])


def e_grant_keyword(game: GameState, controller: int, source: int, effect: dict[str, Any],
                    other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    keyword = effect["keyword"]
    for uid in targets:
        minion = minion_by_uid(game, uid)
        if minion is None:
            continue
        if effect["duration"] == "turn":
            minion.turn_granted = with_keyword(minion.turn_granted, keyword)
        else:
            minion.keywords = with_keyword(minion.keywords, keyword)
        minion.turn_removed = without_keyword(minion.turn_removed, keyword)
        if game.events is not None:
            event(game, "keyword_granted", card=minion.card.code, at=spot(game, uid),
                  keyword=keyword)


def e_remove_keyword(game: GameState, controller: int, source: int, effect: dict[str, Any],
                     other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    keyword = effect["keyword"]
    for uid in targets:
        minion = minion_by_uid(game, uid)
        if minion is None:
            continue
        minion.turn_granted = without_keyword(minion.turn_granted, keyword)
        if effect["duration"] == "turn":
            minion.turn_removed = with_keyword(minion.turn_removed, keyword)
        else:
            minion.keywords = without_keyword(minion.keywords, keyword)
        if game.events is not None:
            event(game, "keyword_removed", card=minion.card.code, at=spot(game, uid),
                  keyword=keyword)


def e_return_to_hand(game: GameState, controller: int, source: int, effect: dict[str, Any],
                     other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    for uid in targets:
        spot = locate(game, uid)
        if spot is None:
            continue
        p, s = spot
        minion = game.players[p].minions[s]
        assert minion is not None                  # locate found it there
        game.players[p].minions[s] = None
        game.players[p].hand.append(minion.card)       # R2.4.2: to its controller's hand
        board_changed(game, minion.card)
        if game.events is not None:
            event(game, "returned", player=p, slot=s, card=minion.card.code)


def e_awaken(game: GameState, controller: int, source: int, effect: dict[str, Any],
             other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    for uid in targets:
        spot = locate(game, uid)
        if spot is None:
            continue
        minion = game.players[spot[0]].minions[spot[1]]
        assert minion is not None                  # locate found it there
        if not minion.awake:
            awaken(game, spot[0], minion)


def e_mind_control(game: GameState, controller: int, source: int, effect: dict[str, Any],
                   other: int, targets: list[int] | None) -> None:
    assert targets is not None                     # a targeted term is given its targets
    for uid in targets:
        spot = locate(game, uid)
        empties = game.players[controller].empty_slots()
        if spot is None or spot[0] == controller or not empties:
            continue                           # [ruling] no empty slot: nothing happens
        p, s = spot
        minion = game.players[p].minions[s]
        assert minion is not None                  # locate found it there
        game.players[p].minions[s] = None
        game.players[controller].minions[empties[0]] = minion    # R2.4.2, leftmost
        minion.public = True
        # [ruling R6.5] it cannot attack this turn (option mind_controlled_may_attack: an awake
        # one may, on its new controller's turn)
        minion.attacks_left = 1 if game.ruleset.mind_controlled_may_attack \
            and minion.awake and game.active == controller else 0
        minion.controlled_turn = game.turn
        board_changed(game, minion.card)
        if game.events is not None:
            event(game, "mind_control", player=controller, slot=empties[0],
                  card=minion.card.code)


def e_summon(game: GameState, controller: int, source: int, effect: dict[str, Any],
             other: int, targets: list[int] | None) -> None:
    count = amount(game, controller, effect["count"])
    player = game.players[controller]
    if effect["from"] == "hand":
        _pick_next(game, "summon", controller, controller, source, effect, other, count)
        return
    flt = effect["filter"]                    # read once, not once per card of the deck
    for _ in range(count):
        choices = [i for i, c in enumerate(player.deck)
                   if c.kind == "minion" and (flt is None or card_matches(c, flt))]
        empties = player.empty_slots()
        if not choices or not empties:
            return
        card = player.deck.pop(game.rng.choice(choices))
        _summon_card(game, controller, card, empties[0], effect["awake"])


def _summon_card(game: GameState, controller: int, card: CardDef, slot: int,
                 awake: bool) -> None:
    """[ruling] Summoned (and mind-controlled) minions take their controller's leftmost
    empty slot: the rule book does not say who picks the slot, so nobody is asked."""
    minion = new_minion(game, card)
    game.players[controller].minions[slot] = minion
    game.played[controller][card.code] = game.played[controller].get(card.code, 0) + 1
    if awake:          # [ruling R6.4] put into play awake: not "awakened", so no awaken
        minion.awake = minion.public = True           # skill (R4.4) unless the ruleset's
        minion.awake_turn = game.turn                 # summoned_awake_is_awakened says so
        minion.attacks_left = 1
    board_changed(game, card)
    if game.events is not None:
        event(game, "summon", player=controller, slot=slot, card=card.code, awake=awake)
    if awake and game.ruleset.summoned_awake_is_awakened:
        awakened = game.awakened[controller]
        awakened[card.code] = awakened.get(card.code, 0) + 1
        push(game, *(("offer", controller, minion.uid, a)
                     for a in card.by_trigger.get("awaken", ())))          # R4.4


# ------------------------------------------------------------ cards in hand

def e_draw(game: GameState, controller: int, source: int, effect: dict[str, Any],
           other: int, targets: list[int] | None) -> None:
    who = controller if effect["player"] == "own" else 1 - controller
    draw(game, who, max(0, amount(game, controller, effect["count"])))


def e_discard(game: GameState, controller: int, source: int, effect: dict[str, Any],
              other: int, targets: list[int] | None) -> None:
    who = controller if effect["player"] == "own" else 1 - controller
    count = amount(game, controller, effect["count"])
    if effect["pick"] == "chosen":
        _pick_next(game, "discard", who, controller, source, effect, other, count)
        return
    hand = game.players[who].hand
    for _ in range(min(count, len(hand))):
        _move_from_hand(game, "discard", who, game.rng.randrange(len(hand)))


def e_display(game: GameState, controller: int, source: int, effect: dict[str, Any],
              other: int, targets: list[int] | None) -> None:
    count = amount(game, controller, effect["count"])
    if effect["pick"] == "chosen":
        _pick_next(game, "display", controller, controller, source, effect, other, count)
        return
    hand = game.players[controller].hand
    for _ in range(count):
        choices = [i for i, c in enumerate(hand) if card_matches(c, effect["filter"])]
        if not choices:
            return
        _move_from_hand(game, "display", controller, game.rng.choice(choices))


def e_skip_draw(game: GameState, controller: int, source: int, effect: dict[str, Any],
                other: int, targets: list[int] | None) -> None:
    who = controller if effect["player"] == "own" else 1 - controller
    game.players[who].skip_draw = True
    if game.events is not None:
        event(game, "skip_draw", player=who)


def _pick_next(game: GameState, purpose: str, chooser: int, controller: int, source: int,
               effect: dict[str, Any], other: int, left: int) -> None:
    """Ask ``chooser`` for one more hand card (of ``left``) for a chosen-card effect."""
    if left <= 0:
        return
    player = game.players[chooser]
    flt = effect.get("filter")
    choices = tuple(i for i, c in enumerate(player.hand) if card_matches(c, flt)
                    and (purpose != "summon" or c.kind == "minion"))
    if not choices or (purpose == "summon" and not player.empty_slots()):
        return
    ask(game, "pick", chooser, choices,
        resume=("picked", purpose, chooser, controller, source, effect, other, left))


def answer_pick(game: GameState, decision: Decision, action: Action) -> None:
    assert decision.resume is not None             # a pick resumes its effect
    push(game, decision.resume + (action.a,))


def t_picked(game: GameState, purpose: str, chooser: int, controller: int, source: int,
             effect: dict[str, Any], other: int, left: int, position: int) -> None:
    if purpose == "summon":
        card = game.players[chooser].hand.pop(position)
        _summon_card(game, chooser, card, game.players[chooser].empty_slots()[0],
                     effect["awake"])
    else:
        _move_from_hand(game, purpose, chooser, position)
    _pick_next(game, purpose, chooser, controller, source, effect, other, left - 1)


def _move_from_hand(game: GameState, purpose: str, index: int, position: int) -> None:
    player = game.players[index]
    card = player.hand.pop(position)
    (player.graveyard if purpose == "discard" else player.display).append(card)
    if game.events is not None:
        event(game, purpose, player=index, card=card.code)


# ------------------------------------------------------------ structure

def e_skip_combat(game: GameState, controller: int, source: int, effect: dict[str, Any],
                  other: int, targets: list[int] | None) -> None:
    if game.combat is not None:                                           # R2.3.6
        game.combat.skipped = True
        if game.events is not None:
            event(game, "combat_skipped", player=controller)
    push(game, ("effects", controller, source, effect["effects"], 0, other))


def e_choose(game: GameState, controller: int, source: int, effect: dict[str, Any],
             other: int, targets: list[int] | None) -> None:
    ask(game, "choose", controller, tuple(range(len(effect["options"]))),  # R4.11
        resume=("chose", controller, source, effect, other))


def answer_choose(game: GameState, decision: Decision, action: Action) -> None:
    assert decision.resume is not None             # a choice resumes its effect
    push(game, decision.resume + (action.a,))


def t_chose(game: GameState, controller: int, source: int, effect: dict[str, Any], other: int,
            option: int) -> None:
    if game.events is not None:
        event(game, "chose", player=controller, option=option)
    push(game, ("effects", controller, source, effect["options"][option], 0, other))


# ------------------------------------------------------------ dispatch

def do_effect(game: GameState, do: str, controller: int, source: int, effect: dict[str, Any],
              other: int,
              targets: list[int] | None) -> None:
    """Run one effect term: a direct call per term, most used first (compiled, each is a native
    call instead of a function looked up by its name)."""
    if do == "attack":
        e_attack(game, controller, source, effect, other, targets)
    elif do == "draw":
        e_draw(game, controller, source, effect, other, targets)
    elif do == "damage_hero":
        e_damage_hero(game, controller, source, effect, other, targets)
    elif do == "heal_hero":
        e_heal_hero(game, controller, source, effect, other, targets)
    elif do == "grant_keyword":
        e_grant_keyword(game, controller, source, effect, other, targets)
    elif do == "summon":
        e_summon(game, controller, source, effect, other, targets)
    elif do == "destroy":
        e_destroy(game, controller, source, effect, other, targets)
    elif do == "discard":
        e_discard(game, controller, source, effect, other, targets)
    elif do == "choose":
        e_choose(game, controller, source, effect, other, targets)
    elif do == "return_to_hand":
        e_return_to_hand(game, controller, source, effect, other, targets)
    elif do == "energy":
        e_energy(game, controller, source, effect, other, targets)
    elif do == "skip_draw":
        e_skip_draw(game, controller, source, effect, other, targets)
    elif do == "remove_keyword":
        e_remove_keyword(game, controller, source, effect, other, targets)
    elif do == "mind_control":
        e_mind_control(game, controller, source, effect, other, targets)
    elif do == "awaken":
        e_awaken(game, controller, source, effect, other, targets)
    elif do == "display":
        e_display(game, controller, source, effect, other, targets)
    elif do == "skip_combat":
        e_skip_combat(game, controller, source, effect, other, targets)
    else:
        term = EFFECTS.get(do)            # a term registered with a handler of its own
        if term is None or term.handler is None:
            raise ValueError(f"unknown effect term {do!r}")
        term.handler(game, controller, source, effect, other, targets)
