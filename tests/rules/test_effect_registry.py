"""An effect term is defined in one place: registering one (here a toy term, for this test only,
with its schema, description, example, rule id, English and Chinese text and its handler) makes
it valid in abilities, normalised with its defaults, played by the engine, written in both
languages' rules text and listed on the vocabulary page — with no other file touched.

The engine's own terms are defined the same way in ``rules/engine/effect_definitions.py``, with
their handlers in ``rules/engine/effect_handlers.py`` (docs/adding-terms.md)."""

from __future__ import annotations

import pytest

from rules.engine import Action, text_templates
from rules.engine.ability_language import normalise_abilities, validate_abilities
from rules.engine.core import GameState, event
from rules.engine.effect_definitions import EFFECTS, effect
from rules.engine.reference import reference_entries
from rules.engine.term_registry import DUPLICATE_EFFECT, PLAYERS, Field, unregister_effect
from rules.engine.text import ability_text
from rules.engine.validation import MSG_NEGATIVE, MSG_UNKNOWN_EFFECT
from tests.rules.helpers import act, awake, events, item, make

MILL = {"trigger": "use", "effects": [{"do": "mill", "count": 2}]}


def _mill(game: GameState, controller, source, effect, other, targets) -> None:
    """The toy term's handler: the top cards of a deck go to its graveyard."""
    who = controller if effect["player"] == "own" else 1 - controller
    player = game.players[who]
    for _ in range(min(effect["count"], len(player.deck))):
        player.graveyard.append(player.deck.pop())
    if game.events is not None:
        event(game, "mill", player=who, count=effect["count"])


def _mill_en(e, ctx) -> str:
    who = "you mill" if e["player"] == "own" else "your opponent mills"
    return f"{who} {e['count']} cards"


def _mill_templated(e, ctx) -> str:
    return text_templates.fill(ctx, f"effect.mill.{e['player']}", n=e["count"])


# The toy term's rules text in a language that writes it from its catalogue's templates.
MILL_TEMPLATES = {"text.effect.mill.own": "将卡组顶的{n}张卡置入墓地",
                  "text.effect.mill.enemy": "对方将卡组顶的{n}张卡置入墓地"}


@pytest.fixture
def toy_term():
    term = effect("mill", "A player's top deck cards go to their graveyard.",
                  {"do": "mill", "count": 2},
                  fields={"count": Field("amount", required=True),
                          "player": Field("enum", default="enemy", choices=PLAYERS)},
                  rule="R9.99", non_negative=True, en=_mill_en, templated=_mill_templated,
                  handler=_mill,
                  templates={"zh-hans": MILL_TEMPLATES})
    yield term
    unregister_effect("mill")


def test_an_unregistered_term_is_refused():
    problems = validate_abilities([MILL], "item")
    assert [p.message for p in problems] == [
        MSG_UNKNOWN_EFFECT.format(value="mill", known=", ".join(EFFECTS))]


def test_a_registered_term_validates_with_its_schema(toy_term):
    assert validate_abilities([MILL], "item") == []
    negative = {"trigger": "use", "effects": [{"do": "mill", "count": -1}]}
    assert [p.message for p in validate_abilities([negative], "item")] == [MSG_NEGATIVE]
    assert normalise_abilities([MILL])[0]["effects"][0]["player"] == "enemy"
    with pytest.raises(ValueError, match=DUPLICATE_EFFECT.format(name="mill")):
        effect("mill", "again", {"do": "mill", "count": 1})


def test_a_registered_term_plays(toy_term):
    thing = item("MILLER", MILL["effects"])
    game = make({"hand": ["MILLER"], "minions": [awake("L1")]},
                {"deck": ["L1"] * 5, "minions": [awake("L1")]}, thing)
    act(game, Action("item", 0))
    foe = game.snapshot()["players"][1]
    assert len(foe["deck"]) == 3 and foe["graveyard"] == ["L1", "L1"]
    assert events(game, "mill") == [{"t": "mill", "player": 1, "count": 2}]


def test_a_registered_term_has_text_in_both_languages_and_a_reference_entry(toy_term):
    assert ability_text(MILL, "en") == "Use: Your opponent mills 2 cards."
    assert ability_text(MILL, "zh") == "使用：对方将卡组顶的2张卡置入墓地。"
    entry = next(e for e in reference_entries() if e["section"] == "effect"
                 and e["name"] == "mill")
    assert entry["rule"] == "R9.99"
    assert entry["texts"]["en"] and entry["texts"]["zh-hans"]
