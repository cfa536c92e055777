"""The Chinese sentences of deck legality (rules/decks/legality.py): one entry per English
constant there, with the same ``{fields}``, in the rule book's own terms (稀有度, 同名卡). The
card kinds' names are not written here: they are the registry's (``rules.engine.words``).

The engine imports no Django, so it keeps this small catalogue itself; the site asks
``check_deck(..., lang="zh")`` when the page is Chinese. ``tests/rules/test_legality.py`` checks
that every English message has a Chinese one with the same fields."""

from __future__ import annotations

MESSAGES = {
    "HERO_MISSING": "卡组没有英雄;{format}赛制需要恰好 {want}。",
    "HERO_MISSING_FIX": "选择一张英雄卡",
    "HERO_COUNT": "卡组有 {count} 张英雄卡;{format}赛制只允许恰好 {want} 张。",
    "HERO_COUNT_FIX": "只保留一张英雄卡,移除{names}",
    "HERO_NOT_HERO": "「{name}」是{a_kind},不是英雄卡,不能作为卡组的英雄。",
    "HERO_NOT_HERO_FIX": "改选一张英雄卡作为英雄,替换「{name}」",
    "UNKNOWN_CARD": "没有代码为 {code!r} 的卡。",
    "UNKNOWN_CARD_FIX": "移除 {code}",
    "BAD_COUNT": "「{name}」:{count} 张不是有效的数量;数量必须是不小于 1 的整数。",
    "BAD_COUNT_FIX": "把「{name}」设为 1 张或更多,或将其移除",
    "KIND_NOT_ALLOWED": "「{name}」是{a_kind};{format}赛制的卡组只能包含{kinds}。",
    "KIND_NOT_ALLOWED_HERO_FIX": "移除 {count} 张「{name}」(改为把它设为卡组的英雄)",
    "KIND_NOT_ALLOWED_FIX": "移除 {count} 张「{name}」",
    "DECK_TOO_SMALL": "卡组有 {count} 张卡;{format}赛制需要{want}。",
    "DECK_TOO_SMALL_FIX": "再加入 {missing} 张卡{s}",
    "DECK_TOO_LARGE": "卡组有 {count} 张卡;{format}赛制只允许{want}。",
    "DECK_TOO_LARGE_FIX": "移除 {extra} 张卡{s}",
    "COPY_LIMIT": "「{name}」:{count} 张——稀有度为 {rarity} 的同名卡最多只能携带 {limit} 张。",
    "COPY_LIMIT_FIX": "移除 {extra} 张「{name}」",
    "BANNED": "「{name}」在{format}赛制中被禁止使用。",
    "BANNED_FIX": "移除 {count} 张「{name}」",
    "RESTRICTED": "「{name}」:{count} 张——在{format}赛制中它被{label}为最多 {limit} 张。",
    "RESTRICTED_FIX": "移除 {extra} 张「{name}」",
    "SET_NOT_LEGAL": "「{name}」来自系列 {set},该系列在{format}赛制中不可使用。",
    "SET_NOT_LEGAL_FIX": "移除 {count} 张「{name}」",
    "PILE_UNKNOWN": "{format}赛制没有名为 {pile!r} 的牌堆;它的牌堆是:{piles}。",
    "PILE_UNKNOWN_FIX": "把 {pile!r} 中的卡移到以下牌堆之一:{piles}",
    "PILE_TOO_SMALL": "{pile}:{count} 张卡;{format}赛制需要{want}。",
    "PILE_TOO_SMALL_FIX": "向{pile}再加入 {missing} 张卡{s}",
    "PILE_TOO_LARGE": "{pile}:{count} 张卡;{format}赛制只允许{want}。",
    "PILE_TOO_LARGE_FIX": "从{pile}移除 {extra} 张卡{s}",
    "NOT_IN_PILE": "「{name}」是{a_kind};{pile}只能包含{kinds}。",
    "NOT_IN_PILE_FIX": "从{pile}移除 {count} 张「{name}」",
    "NOT_IN_PILE_MOVE_FIX": "把 {count} 张「{name}」从{pile}移到{target}",
    "KIND_TOO_FEW": "{pile}有 {count} 张{kind};{format}赛制需要{want}。",
    "KIND_TOO_FEW_FIX": "向{pile}加入 {missing} 张{kind}",
    "KIND_TOO_MANY": "{pile}有 {count} 张{kind};{format}赛制只允许{want}。",
    "KIND_TOO_MANY_FIX": "从{pile}移除 {extra} 张{kind}",
    "COMPOSITION_MISSING": "{pile}的构成是固定的:需要 {want} 张「{name}」,现有 {count} 张。",
    "COMPOSITION_MISSING_FIX": "向{pile}加入 {missing} 张「{name}」",
    "COMPOSITION_EXTRA": "{pile}的构成是固定的:现有 {count} 张「{name}」,固定构成为 {want} 张。",
    "COMPOSITION_EXTRA_FIX": "从{pile}移除 {extra} 张「{name}」",
    "CARD_COPY_LIMIT": "「{name}」:{count} 张——{format}赛制最多允许携带 {limit} 张。",
    "CARD_COPY_LIMIT_FIX": "移除 {extra} 张「{name}」",
    "OTHER_GAME": "「{name}」不是{game}的卡;{format}卡组只能包含{game}的卡。",
    "OTHER_GAME_FIX": "移除 {count} 张「{name}」",
    "NO_COPY_TIER": "「{name}」没有稀有度,而{format}赛制按稀有度限制同名卡张数({tiers})。",
    "NO_COPY_TIER_FIX": "在卡牌目录中为「{name}」设定稀有度,或将其移除",
}

BAN_LABELS = {0: "禁止", 1: "限制", 2: "准限制"}
NO_CARDS = "任何卡"
AND = "和"
LIST_SEPARATOR = "、"


def kind_card(kind_name: str) -> str:
    """A card of a kind, as the rule book says it: the kind's name (``rules.engine.words``)
    and 卡 (随从 → 随从卡)."""
    return f"{kind_name}卡"


def hero_want(count: int, hero_name: str) -> str:
    return f"{count} 张{kind_card(hero_name)}"


def range_want(low: int, high: int | None) -> str:
    if high is None:
        return f"至少 {low} 张"
    if low == high:
        return f"恰好 {low} 张"
    return f"最多 {high} 张" if low == 0 else f"{low} 到 {high} 张"


def size_want(low: int, high: int) -> str:
    return f"恰好 {low} 张" if low == high else f"{low} 到 {high} 张"
