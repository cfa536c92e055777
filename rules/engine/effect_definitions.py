"""Every effect term of the vocabulary, each in one place: its schema (fields, defaults,
choices), description, example and rule id, and its rules text: in English, and from every
other language's catalogue templates.

``effect(...)`` registers a term (``term_registry.register_effect``): the validator, the normaliser,
the rules text and the vocabulary reference read the registry, so a term defined here is known
everywhere. What the term does in a game is its handler, ``e_<term>`` in
``rules/engine/effect_handlers.py`` (compiled, called directly by ``do_effect``); a term registered
with a ``handler`` of its own (a test's toy term) is run through that instead. How to add a term:
docs/adding-terms.md.

Invariants: a text function takes one normalised effect and returns a clause without final
punctuation (``text_en`` and ``text_templates`` give the pieces they share and make the
sentences; a ``templated`` function fills a catalogue's ``text.effect.<term>`` template);
English clauses start in lower case unless they start with a display name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import text_en as en
from rules.engine import text_templates as tt
from rules.engine.basics import KEYWORDS
from rules.engine.keywords import keyword_names
from rules.engine.term_registry import (
    DURATIONS,
    EFFECTS,
    HEROES,
    PLAYERS,
    SOURCES,
    Field,
    Term,
    register_effect,
)
from rules.engine.text_base import Ctx, Data, capitalise, split_amount, target_is_plural

__all__ = ["EFFECTS", "effect"]


def effect(name: str, doc: str, example: dict[str, Any],
           templates: Mapping[str, Mapping[str, str]] | None = None, **parts: Any) -> Term:
    """Register the effect term ``name`` (``parts``: the other fields of ``Term``;
    ``templates``: its rules-text templates a catalogue does not have yet, by language)."""
    return register_effect(Term(name, doc, example, **parts), templates)


# ---------------------------------------------------------------- damage_hero

def _damage_hero_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["amount"], ctx)
    return f"deal {n} damage to {en.HEROES[e['hero']]}{tail}"


def _damage_hero_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["amount"])
    key = "effect.damage_hero.both" if e["hero"] == "both" else "effect.damage_hero"
    return tt.fill(ctx, key, hero=tt.fill(ctx, f"hero.{e['hero']}"), n=n, note=note)

effect("damage_hero", "A hero loses HP.",
       {"do": "damage_hero", "amount": 2},
       fields={"amount": Field("amount", required=True),
               "hero": Field("enum", default="enemy", choices=HEROES)}, rule="R3.1",
       non_negative=True, en=_damage_hero_en, templated=_damage_hero_t)


# ---------------------------------------------------------------- heal_hero

def _heal_hero_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["amount"], ctx)
    return f"restore {n} HP to {en.HEROES[e['hero']]}{tail}"


def _heal_hero_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["amount"])
    key = "effect.heal_hero.both" if e["hero"] == "both" else "effect.heal_hero"
    return tt.fill(ctx, key, hero=tt.fill(ctx, f"hero.{e['hero']}"), n=n, note=note)

effect("heal_hero", "A hero gains HP, never above its card's HP.",
       {"do": "heal_hero", "amount": 3},
       fields={"amount": Field("amount", required=True),
               "hero": Field("enum", default="own", choices=HEROES)},
       non_negative=True, en=_heal_hero_en, templated=_heal_hero_t)


# ---------------------------------------------------------------- destroy

def _destroy_en(e: Data, ctx: Ctx) -> str:
    return f"destroy {en.target(e['target'], ctx)}"


def _destroy_t(e: Data, ctx: Ctx) -> str:
    return tt.fill(ctx, "effect.destroy", target=tt.target(ctx, e["target"]))

effect("destroy", "Minions enter dying; regenerate still saves them.",
       {"do": "destroy", "target": {"pick": "chosen", "side": "enemy",
                                    "filter": {"attack_max": 3}}},
       fields={"target": Field("target", required=True)}, rule="R4.3",
       en=_destroy_en, templated=_destroy_t)


# ---------------------------------------------------------------- attack

def _attack_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["amount"], ctx, step=en.signed)
    verbs = ("have", "has") if ctx.aura else ("get", "gets")
    return en.for_minions(e, ctx, "give {np} {what}", verbs, f"{n:+d} attack") + tail


def _attack_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["amount"], signed=True)
    return tt.for_minions(ctx, e, tt.fill(ctx, "effect.attack", n=n)) + note

effect("attack", "Change attack by `amount` (negative for a debuff), this turn or "
       "permanently; in an aura, while the aura holds.",
       {"do": "attack", "amount": -2, "target": "chosen", "duration": "turn"},
       fields={"amount": Field("amount", required=True),
               "target": Field("target", required=True),
               "duration": Field("enum", default="permanent", choices=DURATIONS)},
       rule="R2.3.4",
       en=_attack_en, templated=_attack_t)


# ---------------------------------------------------------------- grant_keyword

def _grant_keyword_en(e: Data, ctx: Ctx) -> str:
    verbs = ("have", "has") if ctx.aura else ("gain", "gains")
    return en.for_minions(e, ctx, "give {np} {what}", verbs, en.KEYWORD_NAMES[e["keyword"]])


def _grant_keyword_t(e: Data, ctx: Ctx) -> str:
    key = "effect.grant_keyword.aura" if ctx.aura else "effect.grant_keyword"
    return tt.for_minions(ctx, e, tt.fill(ctx, key, keyword=keyword_names(ctx.lang)[e["keyword"]]))

effect("grant_keyword", "Give minions a keyword (any keyword of the registry).",
       {"do": "grant_keyword", "keyword": "shield", "target": "self"},
       fields={"keyword": Field("enum", required=True, choices=KEYWORDS),
               "target": Field("target", required=True),
               "duration": Field("enum", default="permanent", choices=DURATIONS)},
       en=_grant_keyword_en, templated=_grant_keyword_t)


# ---------------------------------------------------------------- remove_keyword

def _remove_keyword_en(e: Data, ctx: Ctx) -> str:
    return en.for_minions(e, ctx, "remove {what} from {np}", ("lose", "loses"),
                          en.KEYWORD_NAMES[e["keyword"]])


def _remove_keyword_t(e: Data, ctx: Ctx) -> str:
    return tt.for_minions(ctx, e, tt.fill(ctx, "effect.remove_keyword",
                                       keyword=keyword_names(ctx.lang)[e["keyword"]]))

effect("remove_keyword", "Take a keyword away from minions (printed or granted).",
       {"do": "remove_keyword", "keyword": "regenerate", "target": "chosen"},
       fields={"keyword": Field("enum", required=True, choices=KEYWORDS),
               "target": Field("target", required=True),
               "duration": Field("enum", default="permanent", choices=DURATIONS)},
       en=_remove_keyword_en, templated=_remove_keyword_t)


# ---------------------------------------------------------------- draw

def _draw_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["count"], ctx)
    who = "draw" if e["player"] == "own" else "your opponent draws"
    return f"{who} {en.quantity(n, ('card', 'cards'))}{tail}"


def _draw_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["count"])
    player = "own" if e["player"] == "own" else "enemy"
    return tt.fill(ctx, f"effect.draw.{player}", n=n, note=note)

effect("draw", "A player draws cards (an empty deck costs 1 HP per card, R2.4.3).",
       {"do": "draw", "count": 2},
       fields={"count": Field("amount", required=True),
               "player": Field("enum", default="own", choices=PLAYERS)}, rule="R2.4.3",
       non_negative=True, en=_draw_en, templated=_draw_t)


# ---------------------------------------------------------------- discard

def _discard_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["count"], ctx)
    random = e["pick"] == "random"
    what = en.quantity(n, ("random card", "random cards") if random else ("card", "cards"))
    if e["player"] == "own":
        return f"discard {what}{tail}"
    return f"your opponent discards {what}{'' if random else ' of their choice'}{tail}"


def _discard_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["count"])
    who = tt.fill(ctx, "discard.who.own" if e["player"] == "own" else "discard.who.enemy")
    how = tt.fill(ctx, "discard.how.random" if e["pick"] == "random" else "discard.how.chosen")
    return tt.fill(ctx, "effect.discard", who=who, how=how, n=n, note=note)

effect("discard", "A player discards cards from hand, at random or of their choice.",
       {"do": "discard", "count": 1, "player": "enemy"},
       fields={"count": Field("amount", required=True),
               "player": Field("enum", default="enemy", choices=PLAYERS),
               "pick": Field("enum", default="random", choices=("random", "chosen"))},
       non_negative=True, en=_discard_en, templated=_discard_t)


# ---------------------------------------------------------------- display

def _display_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["count"], ctx)
    sg, pl = en.cards(e["filter"], ctx)
    if e["pick"] == "random":
        sg, pl = f"random {sg}", f"random {pl}"
    return f"put {en.quantity(n, (sg, pl))} from your hand into your display zone{tail}"


def _display_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["count"])
    flt = e["filter"]
    what = tt.fill(ctx, "display.what.filtered", n=n, modifiers=tt.modifiers(ctx, flt),
                adjectives=tt.adjectives(ctx, flt), head=tt.card_head(ctx, flt)) if flt \
        else tt.fill(ctx, "display.what", n=n)
    how = tt.fill(ctx, "display.how.random" if e["pick"] == "random" else "display.how.chosen")
    return tt.fill(ctx, "effect.display", how=how, what=what, note=note)

effect("display", "Its controller puts hand cards matching `filter` into the display zone; "
       "they come back after the next draw phase.",
       {"do": "display", "count": 2, "filter": {"kind": "minion"}},
       fields={"count": Field("amount", required=True),
               "filter": Field("filter", default=None),
               "pick": Field("enum", default="chosen", choices=("random", "chosen"))},
       rule="R1.2",
       non_negative=True, en=_display_en, templated=_display_t)


# ---------------------------------------------------------------- skip_draw

def _skip_draw_en(e: Data, ctx: Ctx) -> str:
    if e["player"] == "own":
        return "skip your next draw phase"
    return "your opponent skips their next draw phase"


def _skip_draw_t(e: Data, ctx: Ctx) -> str:
    player = "own" if e["player"] == "own" else "enemy"
    return tt.fill(ctx, f"effect.skip_draw.{player}")

effect("skip_draw", "A player's next draw phase is skipped (display cards are discarded).",
       {"do": "skip_draw", "player": "enemy"},
       fields={"player": Field("enum", default="enemy", choices=PLAYERS)}, rule="R1.2",
       en=_skip_draw_en, templated=_skip_draw_t)


# ---------------------------------------------------------------- return_to_hand

def _return_to_hand_en(e: Data, ctx: Ctx) -> str:
    if e["target"]["pick"] == "self":
        return "return this minion to your hand"
    where = "their owners' hands" if target_is_plural(e["target"]) else "its owner's hand"
    return f"return {en.target(e['target'], ctx)} to {where}"


def _return_to_hand_t(e: Data, ctx: Ctx) -> str:
    return tt.fill(ctx, "effect.return_to_hand", target=tt.target(ctx, e["target"]))

effect("return_to_hand", "Minions go back to their controller's hand.",
       {"do": "return_to_hand", "target": {"pick": "chosen", "side": "enemy"}},
       fields={"target": Field("target", required=True)},
       en=_return_to_hand_en, templated=_return_to_hand_t)


# ---------------------------------------------------------------- summon

def _summon_en(e: Data, ctx: Ctx) -> str:
    n, tail = en.amount(e["count"], ctx)
    flt = e["filter"]
    minions = en.noun(flt, en.MINION, False, ctx), en.noun(flt, en.MINION, True, ctx)
    awake = ", awakened" if e["awake"] else ""   # sleeping is how every minion enters (R2.1.5)
    return f"summon {en.quantity(n, minions)} from your {e['from']}{awake}{tail}"


def _summon_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["count"])
    flt = e["filter"]
    # R2.1.5: placed minions sleep unless told
    state = tt.fill(ctx, "summon.state.awake" if e["awake"] else "summon.state.asleep")
    return tt.fill(ctx, "effect.summon", source=tt.fill(ctx, f"source.{e['from']}"), n=n,
                modifiers=tt.modifiers(ctx, flt), adjectives=tt.adjectives(ctx, flt),
                state=state, note=note)

effect("summon", "Put minion cards from hand or deck into empty slots of its controller, "
       "sleeping unless `awake`.",
       {"do": "summon", "from": "deck", "filter": {"race": "dragon"}, "count": 1},
       fields={"from": Field("enum", required=True, choices=SOURCES),
               "filter": Field("filter", default=None),
               "count": Field("amount", default=1),
               "awake": Field("bool", default=False)},
       non_negative=True, en=_summon_en, templated=_summon_t)


# ---------------------------------------------------------------- awaken

def _awaken_en(e: Data, ctx: Ctx) -> str:
    return f"awaken {en.target(e['target'], ctx)}"


def _awaken_t(e: Data, ctx: Ctx) -> str:
    return tt.fill(ctx, "effect.awaken", target=tt.target(ctx, e["target"]))

effect("awaken", "Awaken sleeping allied minions for free; their awaken skills trigger.",
       {"do": "awaken", "target": {"pick": "chosen", "side": "ally"}},
       fields={"target": Field("target", required=True)}, rule="R4.4",
       en=_awaken_en, templated=_awaken_t)


# ---------------------------------------------------------------- energy

def _energy_en(e: Data, ctx: Ctx) -> str:
    lose = split_amount(e["amount"]).sign < 0
    # "lose 1 energy, and 1 more for each ..." unless the step goes the other way.
    n, tail = en.amount(e["amount"], ctx, step=lambda s: str(abs(s)) if (s < 0) == lose
                        else en.signed(s))
    return f"{'lose' if n < 0 else 'gain'} {abs(n)} energy this turn{tail}"


def _energy_t(e: Data, ctx: Ctx) -> str:
    n, note = tt.amount(ctx, e["amount"], signed=True)
    key = "effect.energy.lose" if n.startswith("-") else "effect.energy.gain"
    return tt.fill(ctx, key, n=n[1:], note=note)

effect("energy", "Its controller's energy changes this turn (never below 0).",
       {"do": "energy", "amount": 2},
       fields={"amount": Field("amount", required=True)}, rule="R2.2.2",
       en=_energy_en, templated=_energy_t)


# ---------------------------------------------------------------- mind_control

def _mind_control_en(e: Data, ctx: Ctx) -> str:
    return f"take control of {en.target(e['target'], ctx)}"


def _mind_control_t(e: Data, ctx: Ctx) -> str:
    return tt.fill(ctx, "effect.mind_control", target=tt.target(ctx, e["target"]))

effect("mind_control", "Take enemy minions into empty slots of your own for the rest of "
       "the game.",
       {"do": "mind_control", "target": {"pick": "chosen", "side": "enemy",
                                         "filter": {"attack_max": 2}}},
       fields={"target": Field("target", required=True)}, rule="R2.4.2",
       en=_mind_control_en, templated=_mind_control_t)


# ---------------------------------------------------------------- skip_combat

def _skip_combat_en(e: Data, ctx: Ctx) -> str:
    return f"skip the combat resolution; instead, {en.effects(e['effects'], ctx)}"


def _skip_combat_t(e: Data, ctx: Ctx) -> str:
    return tt.fill(ctx, "effect.skip_combat", effects=tt.effects(e["effects"], ctx))

effect("skip_combat", "Only in combat_start: the combat is not resolved; these effects "
       "resolve instead.",
       {"do": "skip_combat", "effects": [{"do": "return_to_hand", "target": "combat_enemy"}]},
       fields={"effects": Field("effects", required=True)}, rule="R2.3.6",
       en=_skip_combat_en, templated=_skip_combat_t)


# ---------------------------------------------------------------- choose

def _choose_en(e: Data, ctx: Ctx) -> str:
    # An option that has options of its own is bracketed, so its ';' cannot be misread.
    options = [en.effects(option, ctx) for option in e["options"]]
    options[0] = capitalise(options[0])
    options = [f"({option})" if ";" in option else option for option in options]
    return f"choose one — {'; '.join(options[:-1])}; or {options[-1]}"


def _choose_t(e: Data, ctx: Ctx) -> str:
    # An option that has options of its own is bracketed, so its separator cannot be misread.
    separator = tt.fill(ctx, "choose.separator")
    options = [tt.effects(option, ctx) for option in e["options"]]
    options = [tt.fill(ctx, "choose.bracketed", option=option) if separator in option else option
               for option in options]
    return tt.fill(ctx, "effect.choose", options=separator.join(options[:-1]), last=options[-1])

effect("choose", "Its controller picks one of the options and resolves it.",
       {"do": "choose", "options": [[{"do": "draw", "count": 1}],
                                    [{"do": "energy", "amount": 1}]]},
       fields={"options": Field("options", required=True)}, rule="R4.11",
       en=_choose_en, templated=_choose_t)
