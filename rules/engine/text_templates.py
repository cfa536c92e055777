"""Rules text written from a language's catalogue: the grammar of every language but English.

A language writes its rules text by the templates of its catalogue (``rules/locale/<code>.json``,
keys ``text.*``): a template with named slots per clause — a trigger's label, an effect, a target
("{quantifier}{other}{minions}"), an amount's note, a condition — and the words the slots are
made of (sides, heroes, zones, the list separator), all data. This module only decides which
template a piece of normalised ability data takes and fills its slots, the same decisions for
every language; a language whose catalogue has the ``text.ability`` template reads its rules
text this way (``rules.engine.text``), so a language is added with its catalogue alone. English,
the source, has a grammar of its own (``text_en``: plurals and verb agreement).

Invariants: clause functions take one normalised effect and return a clause without final
punctuation; only ``ability`` and ``sentence`` make sentences. A counted amount is printed as X
with its definition right after the clause (the ``text.amount.note`` template). The clause of
each effect term is defined with the term (``effect_definitions.py``: its ``templated``
function, using the pieces here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.engine.keywords import keyword_names
from rules.engine.term_registry import EFFECTS, HEROES, PICKS, SIDES, SOURCES, WHOSE, ZONES
from rules.engine.term_registry import TRIGGERS as TRIGGER_NAMES
from rules.engine.text_base import MSG_NO_TEXT, SELECTED_PICKS, Ctx, Data, split_amount
from rules.engine.words import ATTRIBUTE_WORDS, DURATION_WORDS
from rules.localized import catalogue_text

# Every template a language's catalogue gives to write rules text, with what it is and its
# slots (a translator's reference; ``tests/rules/test_words.py`` holds a catalogue to it).
TEMPLATES: dict[str, str] = {
    # sentences
    "text.ability": "an ability: {label} (its trigger), {effects}",
    "text.ability.sleeping": "after the label: the ability works while asleep too",
    "text.ability.if": "effects under a condition: {condition}, {effects}",
    "text.ability.while": "an aura's effects while a condition holds: {condition}, {effects}",
    "text.sentence": "a clause made a sentence: {clause}",
    "text.keyword": "one keyword of the keyword line: {keyword}",
    "text.keywords_separator": "between the keywords of the keyword line",
    # lists and ranges
    "text.or": "between alternatives (fire or water)",
    "text.list_separator": "between a filter's qualities",
    "text.adjective_separator": "between the words put beside a noun",
    "text.span.at_most": "a number or less: {hi}",
    "text.span.at_least": "a number or more: {lo}",
    "text.span.between": "from a number to another: {lo}, {hi}",
    # filters and targets
    "text.filter.awake": "a quality: awake",
    "text.filter.asleep": "a quality: asleep",
    "text.filter.keyword": "a quality: having {keywords}",
    "text.filter.attack": "a quality: attack in {span}",
    "text.filter.cost": "a quality: cost in {span}",
    "text.filter.modifiers": "the qualities of a filter joined: {modifiers}",
    "text.filter.attribute": "an attribute beside a noun: {attributes}",
    **{f"text.card.{kind}": f"the noun of a card filter: a {kind} card"
       for kind in ("minion", "item", "any")},
    **{f"text.side.{side}": f"the side of a minion: {side}" for side in SIDES},
    **{f"text.hero.{hero}": f"a hero: {hero}" for hero in HEROES},
    **{f"text.player.{side}": f"whose zone a count looks in: {side}" for side in SIDES},
    **{f"text.zone.{zone}": f"a zone a count looks in: {zone}" for zone in ZONES[1:]},
    **{f"text.source.{source}": f"where a summon takes minions from: {source}"
       for source in SOURCES},
    "text.target.self": "the minion itself",
    "text.target.combat_enemy": "the minion it fights",
    "text.target.minions": "minions: {modifiers} {side} {adjectives}",
    "text.target.other": "other (not the minion itself)",
    "text.target.phrase": "a target: {quantifier} {other} {minions}",
    **{f"text.quantifier.{pick}": f"how a target picks: {pick} ({{count}} for random)"
       for pick in PICKS if pick not in ("self", "combat_enemy")},
    "text.quantifier.all_aura": "how an aura's target picks all minions",
    # counts and amounts
    **{f"text.location.minions.{side}": f"the minions on the board: {side}" for side in SIDES},
    "text.location.zone": "a zone of a player: {player} {zone}",
    "text.counted": "what a count counts: {location} {modifiers} {adjectives} {head}",
    "text.counted.minion": "the noun of a count of minions",
    "text.counted.no_modifiers": "{modifiers} of a count without qualities",
    "text.amount.formula": "what X counts: {counted}",
    "text.amount.times": "X's factor: {times}",
    "text.amount.max": "X's cap: {max}",
    "text.amount.note": "the note after a clause defining X: {formula}",
    "text.condition.hero_hp": "a condition on a hero's HP: {hero} {span}",
    "text.condition.none": "a condition that there is none: {location} {modifiers} "
                           "{adjectives} {head}",
    "text.condition.count": "a condition on a count: {counted} {span}",
    # effects
    "text.give": "before a target someone picks",
    "text.for_minions": "an effect on minions: {give} {target} {duration} {what}",
    "text.effects.join": "between effects done in order (then)",
    "text.effects.join_aura": "between an aura's effects",
    **{f"text.whose.{whose}": f"whose turn: {whose}" for whose in WHOSE},
    **{f"text.trigger.{trigger}": f"the label of a {trigger} ability"
       for trigger in TRIGGER_NAMES},
    "text.trigger.active_cost": "the label of an active ability that costs {cost} energy",
    "text.trigger.ally_dies_hero": "the label of a hero's ally_dies ability",
    "text.trigger.turn_start": "the label of a turn_start ability: {whose}",
    "text.trigger.turn_end": "the label of a turn_end ability: {whose}",
    "text.effect.damage_hero": "deal {n} damage to {hero}, then {note}",
    "text.effect.damage_hero.both": "deal {n} damage to each of {hero}, then {note}",
    "text.effect.heal_hero": "restore {n} HP to {hero}, then {note}",
    "text.effect.heal_hero.both": "restore {n} HP to each of {hero}, then {note}",
    "text.effect.destroy": "destroy {target}",
    "text.effect.attack": "attack changed by {n}",
    "text.effect.grant_keyword": "gain {keyword}",
    "text.effect.grant_keyword.aura": "have {keyword} (an aura)",
    "text.effect.remove_keyword": "lose {keyword}",
    "text.effect.draw.own": "draw {n} cards, then {note}",
    "text.effect.draw.enemy": "the opponent draws {n} cards, then {note}",
    "text.effect.discard": "{who} {how} discards {n} cards from hand, then {note}",
    "text.discard.who.own": "the controller discards",
    "text.discard.who.enemy": "the opponent discards",
    "text.discard.how.random": "at random",
    "text.discard.how.chosen": "of their choice",
    "text.effect.display": "{how} put {what} into the display zone, then {note}",
    "text.display.what": "{n} cards from hand",
    "text.display.what.filtered": "{n} {modifiers} {adjectives} {head} from hand",
    "text.display.how.random": "at random",
    "text.display.how.chosen": "of the controller's choice",
    "text.effect.skip_draw.own": "skip your next draw phase",
    "text.effect.skip_draw.enemy": "the opponent skips their next draw phase",
    "text.effect.return_to_hand": "return {target} to hand",
    "text.effect.summon": "put {n} {modifiers} {adjectives} minion cards from {source} into "
                          "empty slots, {state}, then {note}",
    "text.summon.state.awake": "awake",
    "text.summon.state.asleep": "asleep",
    "text.effect.awaken": "awaken {target}",
    "text.effect.energy.gain": "gain {n} energy this turn, then {note}",
    "text.effect.energy.lose": "lose {n} energy this turn, then {note}",
    "text.effect.mind_control": "take control of {target}",
    "text.effect.skip_combat": "skip the combat and instead {effects}",
    "text.effect.choose": "choose one: {options}, or {last}",
    "text.choose.separator": "between the options to choose from",
    "text.choose.bracketed": "an option that has options of its own: {option}",
}
# The template that marks a catalogue as one that writes rules text.
REQUIRED = "text.ability"


def writes_rules_text(lang: str) -> bool:
    """Whether ``lang``'s catalogue writes rules text: it has every template (a catalogue
    half-way through its translation reads the English text until it is complete)."""
    return all(catalogue_text(lang, key) is not None for key in TEMPLATES)


def fill(ctx: Ctx, key: str, **slots: Any) -> str:
    """The catalogue's template ``text.<key>`` in ``ctx.lang``, its slots filled."""
    template = catalogue_text(ctx.lang, f"text.{key}")
    if template is None:
        raise NotImplementedError(MSG_NO_TEXT.format(lang=ctx.lang, what="template",
                                                     name=f"text.{key}"))
    return template.format(**slots) if slots else template


# ---------------------------------------------------------------- words


def either(ctx: Ctx, words: Iterable[str]) -> str:
    return fill(ctx, "or").join(words)


def span(ctx: Ctx, lo: int | None, hi: int | None) -> str:
    """A range as printed on cards ("3 or less", "2 to 4", "3")."""
    if lo is None:
        return fill(ctx, "span.at_most", hi=hi)
    if hi is None:
        return fill(ctx, "span.at_least", lo=lo)
    return str(lo) if lo == hi else fill(ctx, "span.between", lo=lo, hi=hi)


def modifiers(ctx: Ctx, flt: Data | None) -> str:
    """A filter's qualities as one phrase ("with Shield, attack 3 or less"); "" when none."""
    flt = flt or {}
    names = keyword_names(ctx.lang)
    mods = []
    if "awake" in flt:
        mods.append(fill(ctx, "filter.awake" if flt["awake"] else "filter.asleep"))
    if "keyword" in flt:
        mods.append(fill(ctx, "filter.keyword", keywords=either(ctx, (names[k] for k in
                                                                   flt["keyword"]))))
    if "attack_min" in flt or "attack_max" in flt:
        mods.append(fill(ctx, "filter.attack", span=span(ctx, flt.get("attack_min"),
                                                      flt.get("attack_max"))))
    if "cost_min" in flt or "cost_max" in flt:
        mods.append(fill(ctx, "filter.cost", span=span(ctx, flt.get("cost_min"),
                                                    flt.get("cost_max"))))
    return fill(ctx, "filter.modifiers", modifiers=fill(ctx, "list_separator").join(mods)) \
        if mods else ""


def adjectives(ctx: Ctx, flt: Data | None) -> str:
    """The words put straight beside the noun: an attribute, a rarity, a faction or race."""
    flt = flt or {}
    words = []
    if "attribute" in flt:
        words.append(fill(ctx, "filter.attribute", attributes=either(
            ctx, (ATTRIBUTE_WORDS[a].name(ctx.lang) for a in flt["attribute"]))))
    if "rarity" in flt:
        words.append(either(ctx, flt["rarity"]))
    for key in ("faction", "race"):
        if key in flt:
            words.append(either(ctx, (ctx.name(v) for v in flt[key])))
    return fill(ctx, "adjective_separator").join(words)


def card_head(ctx: Ctx, flt: Data | None) -> str:
    """The noun of a card filter: a minion card, an item card, or any card."""
    kinds = (flt or {}).get("kind", ())
    return fill(ctx, f"card.{kinds[0]}") if len(kinds) == 1 else fill(ctx, "card.any")


def target(ctx: Ctx, target_data: Data) -> str:
    pick = target_data["pick"]
    if pick in ("self", "combat_enemy"):
        return fill(ctx, f"target.{pick}")
    flt = target_data["filter"]
    minions = fill(ctx, "target.minions", modifiers=modifiers(ctx, flt),
                side=fill(ctx, f"side.{target_data['side']}"), adjectives=adjectives(ctx, flt))
    # adjacent is never the minion itself
    other = fill(ctx, "target.other") if target_data["other"] and pick != "adjacent" else ""
    quantifier = fill(ctx, "quantifier.all_aura") if pick == "all" and ctx.aura else \
        fill(ctx, f"quantifier.{pick}", count=target_data.get("count"))
    return fill(ctx, "target.phrase", quantifier=quantifier, other=other, minions=minions)


# ---------------------------------------------------------------- counts and amounts


def location(ctx: Ctx, count: Data) -> str:
    """Where a count looks: on the allied board, in the opponent's hand, in both graveyards."""
    if count["zone"] == "minions":
        return fill(ctx, f"location.minions.{count['side']}")
    return fill(ctx, "location.zone", player=fill(ctx, f"player.{count['side']}"),
             zone=fill(ctx, f"zone.{count['zone']}"))


def counted(ctx: Ctx, count: Data) -> str:
    """What a count counts: the allied fire minions, the opponent's cards in hand."""
    flt = count["filter"]
    head = fill(ctx, "counted.minion") if count["zone"] == "minions" else card_head(ctx, flt)
    return fill(ctx, "counted", location=location(ctx, count),
             modifiers=modifiers(ctx, flt) or fill(ctx, "counted.no_modifiers"),
             adjectives=adjectives(ctx, flt), head=head)


def amount(ctx: Ctx, value: Any, signed: bool = False) -> tuple[str, str]:
    """The amount as printed in the clause and a note to put after the clause.

    ``2`` -> ("2", ""); ``-2`` signed -> ("-2", ""); a count -> ("X", the note defining X).
    Signed amounts that decrease print as -X with X counted positively.
    """
    a = split_amount(value)
    if a.count is None:   # static
        return (f"{a.plus:+d}" if signed else str(a.plus)), ""
    times, plus, sign = a.times, a.plus, ""
    if signed:
        sign = "-" if a.sign < 0 else "+"
        if a.sign < 0:
            times, plus = -times, -plus
    formula = fill(ctx, "amount.formula", counted=counted(ctx, a.count))
    if times != 1:
        formula += fill(ctx, "amount.times", times=times)
    if plus:
        formula += f"{plus:+d}"
    if a.max is not None:
        formula += fill(ctx, "amount.max", max=a.max)
    return f"{sign}X", fill(ctx, "amount.note", formula=formula)


def condition(ctx: Ctx, cond: Data) -> str:
    """An ``if`` condition as a clause: there are 3 or more allied minions."""
    lo, hi = cond.get("min"), cond.get("max")
    if cond.get("hero_hp"):
        hero = "own" if cond["hero_hp"] == "own" else "enemy"
        return fill(ctx, "condition.hero_hp", hero=fill(ctx, f"hero.{hero}"),
                    span=span(ctx, lo, hi))
    count = cond["count"]
    if hi == 0 and not lo:
        flt = count["filter"]
        head = fill(ctx, "counted.minion") if count["zone"] == "minions" else card_head(ctx, flt)
        return fill(ctx, "condition.none", location=location(ctx, count),
                 modifiers=modifiers(ctx, flt), adjectives=adjectives(ctx, flt), head=head)
    return fill(ctx, "condition.count", counted=counted(ctx, cond["count"]), span=span(ctx, lo, hi))


# ---------------------------------------------------------------- effects


def for_minions(ctx: Ctx, e: Data, what: str) -> str:
    """An effect on minions: "give X …" for selected minions (someone picks them), "X …" for
    fixed ones."""
    target_data = e["target"]
    this_turn = e.get("duration") == "turn" and not ctx.aura
    duration = DURATION_WORDS["turn"].name(ctx.lang) if this_turn else ""
    give = fill(ctx, "give") if target_data["pick"] in SELECTED_PICKS and not ctx.aura else ""
    return fill(ctx, "for_minions", give=give, target=target(ctx, target_data), duration=duration,
             what=what)


def effects(items: Iterable[Data], ctx: Ctx) -> str:
    """Effects in order, joined by "then"; an aura's hold together, so they join plainly."""
    clauses = []
    for e in items:
        term = EFFECTS.get(e["do"])
        if term is None or term.templated is None:
            raise NotImplementedError(MSG_NO_TEXT.format(lang=ctx.lang, what="effect",
                                                         name=e["do"]))
        clauses.append(term.templated(e, ctx))
    return fill(ctx, "effects.join_aura" if ctx.aura else "effects.join").join(clauses)


# ---------------------------------------------------------------- abilities


TRIGGERS: dict[str, Callable[[Data, Ctx], str]] = {
    "awaken": lambda ab, ctx: fill(ctx, "trigger.awaken"),
    "last_words": lambda ab, ctx: fill(ctx, "trigger.last_words"),
    "active": lambda ab, ctx: (fill(ctx, "trigger.active_cost", cost=ab["cost"]) if ab["cost"]
                               else fill(ctx, "trigger.active")),
    "aura": lambda ab, ctx: fill(ctx, "trigger.aura"),
    "turn_start": lambda ab, ctx: fill(ctx, "trigger.turn_start",
                                    whose=fill(ctx, f"whose.{ab['whose']}")),
    "turn_end": lambda ab, ctx: fill(ctx, "trigger.turn_end",
                                     whose=fill(ctx, f"whose.{ab['whose']}")),
    "combat_start": lambda ab, ctx: fill(ctx, "trigger.combat_start"),
    "after_win": lambda ab, ctx: fill(ctx, "trigger.after_win"),
    # A hero has no minion of its own, so for it every allied minion counts.
    "ally_dies": lambda ab, ctx: fill(ctx, "trigger.ally_dies_hero" if ctx.kind == "hero"
                                   else "trigger.ally_dies"),
    "use": lambda ab, ctx: fill(ctx, "trigger.use"),
}


def sentence(clause: str, ctx: Ctx) -> str:
    return fill(ctx, "sentence", clause=clause)


def ability(ab: Data, ctx: Ctx) -> str:
    if ab["trigger"] not in TRIGGERS:
        raise NotImplementedError(MSG_NO_TEXT.format(lang=ctx.lang, what="trigger",
                                                     name=ab["trigger"]))
    label = TRIGGERS[ab["trigger"]](ab, ctx)
    if ab["sleeping"]:
        label += fill(ctx, "ability.sleeping")
    body = effects(ab["effects"], ctx)
    if ab["if"]:
        pred = condition(ctx, ab["if"])
        body = fill(ctx, "ability.while" if ctx.aura else "ability.if", condition=pred,
                 effects=body)
    return fill(ctx, "ability", label=label, effects=body)


def keywords(codes: Iterable[str], ctx: Ctx) -> str:
    names = keyword_names(ctx.lang)
    return fill(ctx, "keywords_separator").join(fill(ctx, "keyword", keyword=names[code])
                                             for code in codes)
