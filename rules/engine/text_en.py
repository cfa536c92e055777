"""English rules text, generated from normalised ability data (``text.py`` normalises first).

Invariants: every clause function takes one normalised effect and returns a clause that starts
in lower case (unless it starts with a display name) and has no final full stop; only
``ability`` and ``sentence`` make sentences. Counts are pluralised by number ("a card",
"2 cards"), attack changes always carry a sign ("+2", "-2").

The clause of each effect term is defined with the term (``effect_definitions.py``,
using the words here); this module joins them and makes the sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.engine.keywords import keyword_names
from rules.engine.term_registry import EFFECTS
from rules.engine.text_base import (
    MSG_NO_TEXT,
    SELECTED_PICKS,
    Ctx,
    Data,
    capitalise,
    split_amount,
    target_is_plural,
)
from rules.engine.words import DURATION_WORDS

LANGUAGE = "en"                       # the language this grammar writes (the catalogues' code)
KEYWORD_NAMES = keyword_names(LANGUAGE)   # the keyword registry's English names (live)
SIDES = {"ally": "allied", "enemy": "enemy", "any": ""}
HEROES = {"own": "your hero", "enemy": "the enemy hero", "both": "each hero"}
ZONES = {"hand": ("hand", "hands"), "graveyard": ("graveyard", "graveyards"),
         "display": ("display zone", "display zones"), "deck": ("deck", "decks")}
MINION = ("minion", "minions")
_AN_LETTERS = set("AEFHILMNORSX")   # letters whose English name starts with a vowel sound


# ---------------------------------------------------------------- words


def article(phrase: str) -> str:
    """'a' or 'an' before a phrase, by sound: an SR minion, a UR minion, an enemy minion."""
    word = phrase.split(" ", 1)[0]
    if word.isupper() and word.isalpha():
        vowel = word[0] in _AN_LETTERS
    else:
        vowel = word[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {phrase}"


def join(words: Iterable[str], last: str) -> str:
    items = [w for w in words if w]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def quantity(n: int, noun: tuple[str, str]) -> str:
    """'a card' for 1, else '2 cards'; works for a whole noun phrase (singular, plural)."""
    return article(noun[0]) if n == 1 else f"{n} {noun[1]}"


def span(lo: int | None, hi: int | None) -> str:
    """A stat range as printed on cards: '3 or less', '3 or more', '2 to 4', '3'."""
    if lo is None:
        return f"{hi} or less"
    if hi is None:
        return f"{lo} or more"
    return f"{lo}" if lo == hi else f"{lo} to {hi}"


def noun(flt: Data | None, head: tuple[str, str], plural: bool, ctx: Ctx,
         side: str = "") -> str:
    """A noun phrase for the things a filter matches: 'sleeping enemy fire minions with Shield'."""
    flt = flt or {}
    words = []
    if "awake" in flt:
        words.append("awakened" if flt["awake"] else "sleeping")
    words.append(side)
    words += [join(flt.get(key, ()), "or") for key in ("attribute", "rarity")]
    words += [join((ctx.name(v) for v in flt.get(key, ())), "or") for key in ("faction", "race")]
    words.append(head[1] if plural else head[0])
    withs = [join((KEYWORD_NAMES[k] for k in flt.get("keyword", ())), "or")]
    if "attack_min" in flt or "attack_max" in flt:
        withs.append(f"{span(flt.get('attack_min'), flt.get('attack_max'))} attack")
    if "cost_min" in flt or "cost_max" in flt:
        withs.append(f"cost {span(flt.get('cost_min'), flt.get('cost_max'))}")
    text = " ".join(w for w in words if w)
    withs = [w for w in withs if w]
    return f"{text} with {join(withs, 'and')}" if withs else text


def card_head(flt: Data | None) -> tuple[str, str]:
    kinds = (flt or {}).get("kind", ())
    if len(kinds) == 1:
        return f"{kinds[0]} card", f"{kinds[0]} cards"
    return "card", "cards"


def cards(flt: Data | None, ctx: Ctx) -> tuple[str, str]:
    """Singular and plural noun phrases for cards in a zone matching a filter."""
    head = card_head(flt)
    return noun(flt, head, False, ctx), noun(flt, head, True, ctx)


def target(t: Data, ctx: Ctx) -> str:
    pick = t["pick"]
    if pick == "self":
        return "this minion"
    if pick == "combat_enemy":
        return "the opposing minion"
    core = noun(t["filter"], MINION, target_is_plural(t), ctx, side=SIDES[t["side"]])
    other = "other " if t["other"] and pick != "adjacent" else ""   # adjacent is never self
    if pick == "chosen":
        return f"another {core}" if other else article(core)
    if pick == "random":
        many = "a" if t["count"] == 1 else t["count"]
        return f"{many} random {other}{core}"
    if pick == "all":
        return f"{other}{core}" if ctx.aura else f"all {other}{core}"
    if pick in ("leftmost", "rightmost"):
        return f"the {pick} {other}{core}"
    return f"adjacent {core}"


# ---------------------------------------------------------------- counts and amounts


def counted(count: Data, plural: bool, ctx: Ctx) -> str:
    """What a count counts, as a noun phrase: 'fire minion you control', 'cards in your deck'."""
    zone, side = count["zone"], count["side"]
    if zone == "minions":
        where = {"ally": "you control", "enemy": "your opponent controls",
                 "any": "on the board"}[side]
        return f"{noun(count['filter'], MINION, plural, ctx)} {where}"
    sg, pl = ZONES[zone]
    where = {"ally": f"in your {sg}", "enemy": f"in your opponent's {sg}",
             "any": f"in both players' {pl}"}[side]
    return f"{cards(count['filter'], ctx)[plural]} {where}"


def amount(value: Any, ctx: Ctx, step: Callable[[int], str] = str) -> tuple[int, str]:
    """The number to print in the clause and the tail to end the clause with.

    ``2`` -> (2, ""); ``{"count": C, "times": 2}`` -> (2, " for each C");
    ``{"count": C, "plus": 1}`` -> (1, ", and 1 more for each C"), with " (up to N)" for a max.
    """
    a = split_amount(value)
    if a.count is None:   # static
        return a.plus, ""
    each = f" for each {counted(a.count, False, ctx)}"
    cap = "" if a.max is None else f" (up to {a.max})"
    if a.plus == 0:
        return a.times, each + cap
    return a.plus, f", and {step(a.times)} more{each}{cap}"


def condition(cond: Data, ctx: Ctx) -> str:
    """An ``if`` condition as a clause: 'you control 3 or more minions'."""
    lo, hi = cond.get("min"), cond.get("max")
    if cond.get("hero_hp"):
        who = "your hero" if cond["hero_hp"] == "own" else "the enemy hero"
        return f"{who} has {span(lo, hi)} HP"
    if hi == 0 and not lo:
        many, q = True, "no"
    elif lo is None:
        many, q = True, f"{hi} or fewer"
    elif hi is None:
        many, q = True, f"{lo} or more"
    elif lo == hi:
        many, q = lo != 1, f"exactly {lo}"
    else:
        many, q = True, f"between {lo} and {hi}"
    count = cond["count"]
    if count["zone"] == "minions" and count["side"] != "any":
        who = "you control" if count["side"] == "ally" else "your opponent controls"
        return f"{who} {q} {noun(count['filter'], MINION, many, ctx)}"
    return f"there {'are' if many else 'is'} {q} {counted(count, many, ctx)}"


# ---------------------------------------------------------------- effects


def signed(n: int) -> str:
    return f"{n:+d}"


def for_minions(e: Data, ctx: Ctx, give: str, verbs: tuple[str, str], what: str) -> str:
    """'give X what' for selected minions, else 'X gets what' (or 'has' in an aura)."""
    t = e["target"]
    duration = ("" if ctx.aura or e.get("duration") != "turn"
                else " " + DURATION_WORDS["turn"].prose("en"))
    np = target(t, ctx)
    if t["pick"] in SELECTED_PICKS and not ctx.aura:
        return give.format(np=np, what=what) + duration
    verb = verbs[0] if target_is_plural(t) else verbs[1]
    return f"{np} {verb} {what}{duration}"


def effects(items: Iterable[Data], ctx: Ctx) -> str:
    """Effects in order, joined with 'then'; an aura's hold together, so they join with 'and'."""
    clauses = []
    for e in items:
        term = EFFECTS.get(e["do"])
        if term is None or term.en is None:
            raise NotImplementedError(MSG_NO_TEXT.format(lang="en", what="effect", name=e["do"]))
        clauses.append(term.en(e, ctx))
    return join(clauses, "and") if ctx.aura else ", then ".join(clauses)


# ---------------------------------------------------------------- abilities


def _turn(when: str) -> Callable[[Data, Ctx], str]:
    whose = {"own": "your turn", "enemy": "your opponent's turn", "each": "each turn"}
    return lambda ab, ctx: f"At the {when} of {whose[ab['whose']]}"


TRIGGERS: dict[str, Callable[[Data, Ctx], str]] = {
    "awaken": lambda ab, ctx: "Awaken",
    "last_words": lambda ab, ctx: "Last words",
    "active": lambda ab, ctx: f"Active ({ab['cost']} energy)" if ab["cost"] else "Active",
    "aura": lambda ab, ctx: "Aura",
    "turn_start": _turn("start"),
    "turn_end": _turn("end"),
    "combat_start": lambda ab, ctx: "Combat start",
    "after_win": lambda ab, ctx: "After winning a combat",
    # A hero has no minion of its own, so for it every allied minion is "another".
    "ally_dies": lambda ab, ctx: ("When an allied minion is destroyed" if ctx.kind == "hero"
                                  else "When another ally is destroyed"),
    "use": lambda ab, ctx: "Use",
}


def sentence(clause: str, ctx: Ctx | None = None) -> str:
    return f"{capitalise(clause)}."


def ability(ab: Data, ctx: Ctx) -> str:
    if ab["trigger"] not in TRIGGERS:
        raise NotImplementedError(MSG_NO_TEXT.format(lang="en", what="trigger",
                                                     name=ab["trigger"]))
    label = TRIGGERS[ab["trigger"]](ab, ctx)
    if ab["sleeping"]:
        label += " (also while sleeping)"
    body = effects(ab["effects"], ctx)
    if ab["if"]:
        body = f"{'while' if ctx.aura else 'if'} {condition(ab['if'], ctx)}, {body}"
    return f"{label}: {sentence(body)}"


def keywords(codes: Iterable[str], ctx: Ctx | None = None) -> str:
    return " ".join(f"{KEYWORD_NAMES[k]}." for k in codes)
