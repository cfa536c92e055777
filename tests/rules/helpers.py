"""Helpers for the engine's rule tests: small inline cards and scenario builders.

A scenario is a ``Game.from_snapshot`` at the active player's main phase. Every player defaults
to the plain light hero ``HERO`` (20 HP) and a deck of five ``L1``; tests state only what their
rule needs. Vanilla minions are named by attribute letter and attack: ``F3`` is a fire minion
with attack 3 (cost 1), ``W2`` a water one with attack 2, ``L0`` a light one with attack 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine import ATTRIBUTES, HERO, Action, CardDef, DeckList, Game
from rules.engine.actions import PASS, USE

TEST = load_card_set(TEST_SET)


def minion(code: str, attack: int = 1, attribute: str = "light", cost: int = 1,
           **fields: Any) -> CardDef:
    return CardDef.from_dict({"code": code, "kind": "minion", "attack": attack,
                              "attribute": attribute, "cost": cost, **fields})


def item(code: str, effects: list, cost: int = 0, **fields: Any) -> CardDef:
    """An item whose use trigger does ``effects`` (``fields`` may add an ``if``)."""
    ability = {"trigger": "use", "effects": effects, **fields.pop("ability", {})}
    return CardDef.from_dict({"code": code, "kind": "item", "cost": cost,
                              "abilities": [ability], **fields})


def hero(code: str, hp: int = 20, attribute: str = "light", **fields: Any) -> CardDef:
    return CardDef.from_dict({"code": code, "kind": "hero", "hp": hp, "attribute": attribute,
                              **fields})


def ability(trigger: str, *effects: dict, **fields: Any) -> dict:
    return {"trigger": trigger, "effects": list(effects), **fields}


BASE: dict[str, CardDef] = {
    "HERO": hero("HERO"),
    **{f"HERO-{a.upper()}": hero(f"HERO-{a.upper()}", attribute=a) for a in ATTRIBUTES},
    **{f"{a[0].upper()}{n}": minion(f"{a[0].upper()}{n}", n, a)
       for a in ATTRIBUTES for n in range(0, 10)},
}


def cards(*extra: CardDef) -> dict[str, CardDef]:
    """The test set, the vanilla cards and ``extra`` as one ``{code: CardDef}`` index."""
    out = {**TEST.cards, **BASE}
    out.update({c.code: c for c in extra})
    return out


def awake(code: str, **fields: Any) -> dict:
    """A face-up (awakened) minion entry for a scenario's ``minions`` list."""
    return {"card": code, "awake": True, **fields}


def player(spec: dict | None) -> dict:
    out: dict[str, Any] = {"hero": "HERO", "deck": ["L1"] * 5}
    out.update(spec or {})
    return out


def make(p0: dict | None = None, p1: dict | None = None, *extra: CardDef, seed: int = 0,
         **top: Any) -> Game:
    """A game built from a scenario; ``top`` holds snapshot fields (turn, active, phase...)."""
    data = {"turn": 3, "players": [player(p0), player(p1)], **top}
    return Game.from_snapshot(data, cards(*extra), seed=seed)


def deck(*codes: str, hero_code: str = "HERO") -> DeckList:
    return DeckList(hero=hero_code, cards=tuple(codes))


def act(game: Game, *actions: Action | tuple | dict) -> Game:
    """Apply each action (an Action, a tuple ``(kind, a, b)`` or the named dict form), then
    answer every replenish question whose only legal answer is "pass" (R2.4.1: the question
    comes even with no minion in hand, so that it reveals nothing) and use every awaken skill
    and last words offered (R4.4, R4.5: tests of declining apply their actions directly)."""
    for action in actions:
        game.apply(action)
        settle(game)
    return game


def settle(game: Game) -> Game:
    """Answer the questions ``act`` answers by itself (see there)."""
    while game.decision is not None:
        if game.decision.kind == "optional":
            game.apply(USE)
        elif game.decision.kind == "replenish" and game.legal_actions() == [PASS]:
            game.apply(PASS)
        else:
            break
    return game


def attack(game: Game, slot: int, target: int | str = HERO) -> Game:
    return act(game, Action("attack", slot, HERO if target == "hero" else target))


def view(game: Game, seat: int = 0) -> dict:
    return game.view(seat).to_dict()


def board(game: Game, owner: int, viewer: int | None = None) -> list[str | None]:
    """The owner's minion slots as the viewer sees them: a code, "?" (face down) or None."""
    seen = view(game, owner if viewer is None else viewer)
    side = seen["me" if seen["player"] == owner else "enemy"]["minions"]
    return [None if m is None else m.get("card", "?") for m in side]


def minion_seen(game: Game, owner: int, slot: int, viewer: int | None = None) -> dict | None:
    seen = view(game, owner if viewer is None else viewer)
    return seen["me" if seen["player"] == owner else "enemy"]["minions"][slot]


def hp(game: Game, seat: int) -> int:
    return view(game, seat)["me"]["hp"]


def hand(game: Game, seat: int) -> list[str]:
    return view(game, seat)["me"]["hand"]


def events(game: Game, *kinds: str) -> list[dict]:
    return [e for e in game.log()["events"] if not kinds or e["t"] in kinds]


def ability_sources(game: Game) -> list[str | None]:
    """The cards whose abilities resolved, in order (from the event log)."""
    return [e["source"] for e in events(game, "ability")]


def legal(game: Game, kind: str | None = None) -> list[Action]:
    return [a for a in game.legal_actions() if kind is None or a.kind == kind]


def end_turn(game: Game) -> Game:
    """End the main phase, answering nothing else (fails if the end phase asks something)."""
    return act(game, Action("end"))


def play_random(game: Game, rng, limit: int = 20000) -> Iterable[dict]:
    """Play uniformly random legal actions to the end; yields a snapshot after each action."""
    for _ in range(limit):
        if game.over:
            return
        choices = game.legal_actions()
        game.apply(choices[int(rng.random() * len(choices))], check=True)
        yield game.snapshot()
    raise AssertionError("the game did not end")
