"""Chinese rules text, generated from normalised ability data (``text.py`` normalises first).

Invariants: clause functions take one normalised effect and return a clause without final
punctuation; only ``ability`` adds the full stop. Punctuation is full-width (，。：；（）), and
the words are the rule book's own (唤醒技, 战死技, 主动技, 被动技, 展示区, 墓地, 濒死 ...). A
counted amount is printed as X with its definition right after the clause: （X为…）.

The clause of each effect term is defined with the term (``effect_definitions.py``,
using the words here); this module joins them and makes the sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.engine.keywords import keyword_names
from rules.engine.term_registry import EFFECTS
from rules.engine.text_base import MSG_NO_TEXT, SELECTED_PICKS, Ctx, Data, split_amount
from rules.engine.words import ATTRIBUTE_WORDS, DURATION_WORDS

LANGUAGE = "zh-hans"                 # the catalogue this grammar names game words from
KEYWORD_NAMES = keyword_names(LANGUAGE)   # the keyword registry's Chinese names (live)
SIDES = {"ally": "友方", "enemy": "敌方", "any": ""}
HEROES = {"own": "己方英雄", "enemy": "敌方英雄", "both": "双方英雄"}
PLAYERS = {"ally": "己方", "enemy": "对方", "any": "双方"}
ZONES = {"hand": "手牌中", "graveyard": "墓地中", "display": "展示区中",
         "deck": "卡组中"}
SOURCES = {"hand": "手牌", "deck": "卡组"}


# ---------------------------------------------------------------- words


def either(words: Iterable[str]) -> str:
    return "或".join(words)


def span(lo: int | None, hi: int | None) -> str:
    """A range as printed on cards: 3或以下, 3或以上, 2至4, 3."""
    if lo is None:
        return f"{hi}或以下"
    if hi is None:
        return f"{lo}或以上"
    return f"{lo}" if lo == hi else f"{lo}至{hi}"


def modifiers(flt: Data | None) -> str:
    """The 的-phrase of a filter: 拥有护盾、攻击力3或以下的 (empty when there is none)."""
    flt = flt or {}
    mods = []
    if "awake" in flt:
        mods.append("已唤醒" if flt["awake"] else "沉睡状态")
    if "keyword" in flt:
        mods.append("拥有" + either(KEYWORD_NAMES[k] for k in flt["keyword"]))
    if "attack_min" in flt or "attack_max" in flt:
        mods.append("攻击力" + span(flt.get("attack_min"), flt.get("attack_max")))
    if "cost_min" in flt or "cost_max" in flt:
        mods.append("费用" + span(flt.get("cost_min"), flt.get("cost_max")))
    return "、".join(mods) + "的" if mods else ""


def adjectives(flt: Data | None, ctx: Ctx) -> str:
    """The words put straight before the noun: 火属性, SSR, 龙族."""
    flt = flt or {}
    words = []
    if "attribute" in flt:
        words.append(either(ATTRIBUTE_WORDS[a].name(LANGUAGE) for a in flt["attribute"]) + "属性")
    if "rarity" in flt:
        words.append(either(flt["rarity"]))
    for key in ("faction", "race"):
        if key in flt:
            words.append(either(ctx.name(v) for v in flt[key]))
    return "".join(words)


def card_head(flt: Data | None) -> str:
    kinds = (flt or {}).get("kind", ())
    return {"minion": "随从卡", "item": "道具卡"}[kinds[0]] if len(kinds) == 1 else "卡牌"


def target(t: Data, ctx: Ctx) -> str:
    pick = t["pick"]
    if pick == "self":
        return "该随从"
    if pick == "combat_enemy":
        return "与其交战的随从"
    flt = t["filter"]
    core = f"{modifiers(flt)}{SIDES[t['side']]}{adjectives(flt, ctx)}随从"
    other = "其他" if t["other"] and pick != "adjacent" else ""   # adjacent is never self
    quantifier = {"chosen": "1个", "random": f"随机{t['count']}个",
                  "all": "" if ctx.aura else "所有", "leftmost": "最左侧的",
                  "rightmost": "最右侧的", "adjacent": "相邻的"}[pick]
    return f"{quantifier}{other}{core}"


# ---------------------------------------------------------------- counts and amounts


def location(count: Data) -> str:
    """Where a count looks: 己方场上, 敌方场上, 场上, 对方手牌中, 双方墓地中 ..."""
    if count["zone"] == "minions":
        return {"ally": "己方场上", "enemy": "敌方场上", "any": "场上"}[count["side"]]
    return PLAYERS[count["side"]] + ZONES[count["zone"]]


def counted(count: Data, ctx: Ctx) -> str:
    """What a count counts: 己方场上的火属性随从, 对方手牌中攻击力3或以下的随从卡."""
    flt = count["filter"]
    head = "随从" if count["zone"] == "minions" else card_head(flt)
    return f"{location(count)}{modifiers(flt) or '的'}{adjectives(flt, ctx)}{head}"


def amount(value: Any, ctx: Ctx, signed: bool = False) -> tuple[str, str]:
    """The amount as printed in the clause and a note to put after the clause.

    ``2`` -> ("2", ""); ``-2`` signed -> ("-2", ""); a count -> ("X", "（X为…数量×2+1，最多为5）").
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
    formula = f"X为{counted(a.count, ctx)}数量"
    if times != 1:
        formula += f"×{times}"
    if plus:
        formula += f"{plus:+d}"
    if a.max is not None:
        formula += f"，最多为{a.max}"
    return f"{sign}X", f"（{formula}）"


def condition(cond: Data, ctx: Ctx) -> str:
    """An ``if`` condition as a clause: 己方场上的随从数量为3或以上."""
    lo, hi = cond.get("min"), cond.get("max")
    if cond.get("hero_hp"):
        who = "己方英雄" if cond["hero_hp"] == "own" else "敌方英雄"
        return f"{who}的生命值为{span(lo, hi)}"
    count = cond["count"]
    if hi == 0 and not lo:
        flt = count["filter"]
        head = "随从" if count["zone"] == "minions" else card_head(flt)
        return f"{location(count)}没有{modifiers(flt)}{adjectives(flt, ctx)}{head}"
    return f"{counted(cond['count'], ctx)}数量为{span(lo, hi)}"


# ---------------------------------------------------------------- effects


def for_minions(e: Data, ctx: Ctx, what: str) -> str:
    """'使X…' for selected minions (someone picks them), 'X…' for fixed ones."""
    t = e["target"]
    this_turn = e.get("duration") == "turn" and not ctx.aura
    duration = DURATION_WORDS["turn"].name(LANGUAGE) if this_turn else ""
    give = "使" if t["pick"] in SELECTED_PICKS and not ctx.aura else ""
    return f"{give}{target(t, ctx)}{duration}{what}"


def effects(items: Iterable[Data], ctx: Ctx) -> str:
    """Effects in order, joined with 然后; an aura's hold together, so they join with a comma."""
    clauses = []
    for e in items:
        term = EFFECTS.get(e["do"])
        if term is None or term.zh is None:
            raise NotImplementedError(MSG_NO_TEXT.format(lang=LANGUAGE, what="effect",
                                                         name=e["do"]))
        clauses.append(term.zh(e, ctx))
    return "，".join(clauses) if ctx.aura else "，然后".join(clauses)


# ---------------------------------------------------------------- abilities

_WHOSE = {"own": "己方回合", "enemy": "对方回合", "each": "每个回合"}

TRIGGERS: dict[str, Callable[[Data, Ctx], str]] = {
    "awaken": lambda ab, ctx: "唤醒技",
    "last_words": lambda ab, ctx: "战死技",
    "active": lambda ab, ctx: f"主动技（{ab['cost']}点能量）" if ab["cost"] else "主动技",
    "aura": lambda ab, ctx: "被动技",
    "turn_start": lambda ab, ctx: f"{_WHOSE[ab['whose']]}开始时",
    "turn_end": lambda ab, ctx: f"{_WHOSE[ab['whose']]}结束时",
    "combat_start": lambda ab, ctx: "战斗开始时",
    "after_win": lambda ab, ctx: "战斗胜利后",
    # A hero has no minion of its own, so for it every allied minion counts.
    "ally_dies": lambda ab, ctx: ("友方随从被破坏时" if ctx.kind == "hero"
                                  else "其他友方随从被破坏时"),
    "use": lambda ab, ctx: "使用",
}


def sentence(clause: str) -> str:
    return f"{clause}。"


def ability(ab: Data, ctx: Ctx) -> str:
    if ab["trigger"] not in TRIGGERS:
        raise NotImplementedError(MSG_NO_TEXT.format(lang=LANGUAGE, what="trigger",
                                                     name=ab["trigger"]))
    label = TRIGGERS[ab["trigger"]](ab, ctx)
    if ab["sleeping"]:
        label += "（沉睡时也生效）"
    body = effects(ab["effects"], ctx)
    if ab["if"]:
        pred = condition(ab["if"], ctx)
        body = f"当{pred}时，{body}" if ctx.aura else f"若{pred}，{body}"
    return f"{label}：{body}。"


def keywords(codes: Iterable[str]) -> str:
    return "".join(f"{KEYWORD_NAMES[k]}。" for k in codes)
