"""The Chinese of the format schema's messages (rules/decks/formats.py): one entry per ``MSG_``
constant there, with the same ``{fields}``. The engine imports no Django, so it keeps this
small catalogue itself, as rules/decks/legality_zh.py does; the admin asks for ``lang="zh"``
when its
page is Chinese. ``tests/rules/test_rule_books.py`` checks that every English message has a
Chinese one with the same fields."""

from __future__ import annotations

MESSAGES = {
    "MSG_MAPPING": "必须是映射(键: 值)",
    "MSG_UNKNOWN_KEY": "未知的键(已知:{known})",
    "MSG_LIST": "必须是列表",
    "MSG_REQUIRED": "必填",
    "MSG_TEXT": "必须是文本",
    "MSG_EMPTY": "不能为空",
    "MSG_CODE": "必须是符合 {pattern} 的代码(实际为 {value!r})",
    "MSG_NUMBER": "必须是 {low} 到 9999 之间的整数(实际为 {value!r})",
    "MSG_FLAG": "必须是 true 或 false",
    "MSG_TWICE": "{code!r} 重复列出",
    "MSG_NO_KINDS": "游戏至少要声明一种卡牌种类",
    "MSG_NOT_KNOWN_KIND": "{value!r} 不是本游戏的卡牌种类(已知:{known})",
    "MSG_NOT_KNOWN_RARITY": "{value!r} 不是本游戏的稀有度等级(已知:{known})",
    "MSG_NO_PILES": "赛制至少要有一个牌堆",
    "MSG_TWO_HERO_PILES": "最多只能有一个牌堆是英雄位(hero: true)",
    "MSG_ONLY_HERO_PILE": "赛制需要至少一个不是英雄位的牌堆",
    "MSG_MAX_BELOW_MIN": "小于最小值({high} < {low})",
    "MSG_COMPOSITION_SIZE": "共 {total} 张卡,超出牌堆的张数范围({low} 到 {high})",
    "MSG_BAN_VALUE": "只能是 0(禁止)、1(限制)或 2(准限制)",
    "MSG_OTHER_GAME": "本文件的游戏是 {game!r}",
    "MSG_NO_FORMAT": "本文件中没有赛制 {format!r}",
    "MSG_NONE": "无",
    "MSG_ANY": "不限",
}
