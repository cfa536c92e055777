"""The game's words, named once in both languages: card kinds, attributes, ability triggers,
card fields, effect durations and the parts of the ability language (the vocabulary page's
sections), each with the RULES.md id that defines it where there is one.

Keywords have a registry of their own (``keywords.py``: they carry query synonyms and may be
added by a later module); agents are named by ``rules.ai.agents``. Everything that shows one of
these words — the rules text, the vocabulary page, the site — reads it here, so a word is
spelt in exactly one place.

Invariant: every code of ``basics.KINDS``, ``basics.ATTRIBUTES``, ``term_registry.TRIGGERS``
and ``term_registry.DURATIONS`` has its entry (``tests/rules/test_words.py``); the tables are
read-only views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Word:
    """A game word: its code (the data form), its English and Chinese names, its rule id.

    ``name_en`` is the word as a label or heading shows it ("Fire"); ``prose_en`` the word in the
    middle of an English sentence, when that differs from the name lower-cased ("last-words"
    for the trigger "Last words")."""

    code: str
    name_en: str
    name_zh: str
    rule: str = ""
    prose_en: str = ""
    plural_en: str = ""                   # a heading over several ("Minions"); Chinese has none


    def name(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else self.name_en

    def prose(self, lang: str) -> str:
        """The word inside a sentence: Chinese as named, English lower-cased."""
        if lang == "zh":
            return self.name_zh
        return self.prose_en or self.name_en.lower()

    def plural(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else (self.plural_en or self.name_en)


def _table(*words: Word) -> Mapping[str, Word]:
    return MappingProxyType({word.code: word for word in words})


KIND_WORDS = _table(
    Word("hero", "Hero", "英雄", "R1.4", plural_en="Heroes"),
    Word("minion", "Minion", "随从", "R1.4", plural_en="Minions"),
    Word("item", "Item", "道具", "R1.4", plural_en="Items"),
)
ATTRIBUTE_WORDS = _table(
    Word("fire", "Fire", "火", "R1.5"),
    Word("grass", "Grass", "草", "R1.5"),
    Word("water", "Water", "水", "R1.5"),
    Word("light", "Light", "光", "R1.5"),
    Word("dark", "Dark", "暗", "R1.5"),
)
# How the replay and the vocabulary name a trigger in a sentence ("its last-words ability").
TRIGGER_WORDS = _table(
    Word("awaken", "Awaken", "唤醒", "R4.4"),
    Word("last_words", "Last words", "战死技", "R4.5", prose_en="last-words"),
    Word("active", "Active", "主动技", "R4.6"),
    Word("aura", "Aura", "被动技", "R4.7"),
    Word("turn_start", "Start of turn", "回合开始", "R4.7", prose_en="start-of-turn"),
    Word("turn_end", "End of turn", "回合结束", "R4.7", prose_en="end-of-turn"),
    Word("combat_start", "Combat start", "战斗开始", "R2.3.5", prose_en="combat-start"),
    Word("after_win", "After winning", "战斗胜利后", "R2.3.9", prose_en="after-winning"),
    Word("ally_dies", "Ally destroyed", "友方被破坏时", "R2.3.9", prose_en="ally-destroyed"),
    Word("use", "Use", "使用", "R2.2.3"),
)
# A card's printed fields (RULES.md R1.4), as a patch or a query reading names them.
FIELD_WORDS = _table(
    Word("kind", "Kind", "类型", "R1.4"),
    Word("attribute", "Attribute", "属性", "R1.5"),
    Word("rarity", "Rarity", "稀有度", "R1.6"),
    Word("cost", "Cost", "费用", "R1.4"),
    Word("attack", "Attack", "攻击力", "R1.4"),
    Word("hp", "HP", "血量", "R1.4", prose_en="hp"),
    Word("keywords", "Keywords", "关键词", "R4"),
    Word("abilities", "Abilities", "技能", "R4"),
    Word("faction", "Faction", "阵营", "R1.4", plural_en="Factions"),
    Word("race", "Race", "种族", "R1.4", plural_en="Races"),
)
# How long a change lasts (an effect's ``duration``), as a sentence ends: "attack +2 this turn".
DURATION_WORDS = _table(
    Word("turn", "This turn", "本回合", prose_en="this turn"),
    Word("permanent", "Permanently", "永久"),
)
# The parts of the ability language, as the vocabulary page titles its sections.
SECTION_WORDS = _table(
    Word("trigger", "Triggers", "触发时机", "R4"),
    Word("ability_field", "Ability fields", "技能字段"),
    Word("effect", "Effects", "效果"),
    Word("target_pick", "Target picks", "目标选取"),
    Word("target_field", "Target fields", "目标字段"),
    Word("filter_field", "Filter fields", "筛选字段"),
    Word("count_field", "Count fields", "数量字段"),
    Word("amount_field", "Amount fields", "数值字段"),
    Word("condition_field", "Condition fields", "条件字段"),
    Word("keyword", "Keywords", "关键词", "R4"),
)
