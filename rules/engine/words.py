"""The game's words, named once (in English here, in other languages by the catalogues of
``rules/locale``): card kinds, attributes, ability triggers,
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
from dataclasses import dataclass, replace
from types import MappingProxyType

from rules.localized import LocalizedText


@dataclass(frozen=True)
class Word:
    """A game word: its code (the data form), its English name, its rule id; its other
    languages are in the catalogues (``rules/locale``), under its table's key
    (``attribute.fire``).

    ``name_en`` is the word as a label or heading shows it ("Fire"); ``prose_en`` the word in the
    middle of an English sentence, when that differs from the name lower-cased ("last-words"
    for the trigger "Last words"); ``plural_en`` a heading over several ("Minions"). A language
    whose catalogue gives no prose or plural form of a word says its name there."""

    code: str
    name_en: str
    rule: str = ""
    prose_en: str = ""
    plural_en: str = ""
    table: str = ""                       # the catalogue key's prefix: set by its table

    @property
    def key(self) -> str:
        return f"{self.table}.{self.code}"

    @property
    def localized(self) -> LocalizedText:
        return LocalizedText(self.key, self.name_en)

    def name(self, lang: str) -> str:
        return self.localized.text(lang)

    def prose(self, lang: str) -> str:
        """The word inside a sentence (English: lower-cased unless ``prose_en`` says)."""
        english = self.prose_en or self.name_en.lower()
        return LocalizedText(f"{self.key}.prose", english, self.localized).text(lang)

    def plural(self, lang: str) -> str:
        return self._localized_plural.text(lang)

    def plural_prose(self, lang: str) -> str:
        """The plural inside a sentence ("factions")."""
        english = (self.plural_en or self.name_en).lower()
        return LocalizedText(f"{self.key}.plural_prose", english,
                             self._localized_plural).text(lang)

    @property
    def _localized_plural(self) -> LocalizedText:
        return LocalizedText(f"{self.key}.plural", self.plural_en or self.name_en, self.localized)


def _table(table: str, *words: Word) -> Mapping[str, Word]:
    return MappingProxyType({word.code: replace(word, table=table) for word in words})


KIND_WORDS = _table(
    "kind",
    Word("hero", "Hero", "R1.4", plural_en="Heroes"),
    Word("minion", "Minion", "R1.4", plural_en="Minions"),
    Word("item", "Item", "R1.4", plural_en="Items"),
)
ATTRIBUTE_WORDS = _table(
    "attribute",
    Word("fire", "Fire", "R1.5"),
    Word("grass", "Grass", "R1.5"),
    Word("water", "Water", "R1.5"),
    Word("light", "Light", "R1.5"),
    Word("dark", "Dark", "R1.5"),
)
# How the replay and the vocabulary name a trigger in a sentence ("its last-words ability").
TRIGGER_WORDS = _table(
    "trigger",
    Word("awaken", "Awaken", "R4.4"),
    Word("last_words", "Last words", "R4.5", prose_en="last-words"),
    Word("active", "Active", "R4.6"),
    Word("aura", "Aura", "R4.7"),
    Word("turn_start", "Start of turn", "R4.7", prose_en="start-of-turn"),
    Word("turn_end", "End of turn", "R4.7", prose_en="end-of-turn"),
    Word("combat_start", "Combat start", "R2.3.5", prose_en="combat-start"),
    Word("after_win", "After winning", "R2.3.9", prose_en="after-winning"),
    Word("ally_dies", "Ally destroyed", "R2.3.9", prose_en="ally-destroyed"),
    Word("use", "Use", "R2.2.3"),
)
# A card's printed fields (RULES.md R1.4), as a patch or a query reading names them.
FIELD_WORDS = _table(
    "field",
    Word("kind", "Kind", "R1.4"),
    Word("attribute", "Attribute", "R1.5"),
    Word("rarity", "Rarity", "R1.6"),
    Word("cost", "Cost", "R1.4"),
    Word("attack", "Attack", "R1.4"),
    Word("hp", "HP", "R1.4", prose_en="hp"),
    Word("keywords", "Keywords", "R4"),
    Word("abilities", "Abilities", "R4"),
    Word("faction", "Faction", "R1.4", plural_en="Factions"),
    Word("race", "Race", "R1.4", plural_en="Races"),
)
# How long a change lasts (an effect's ``duration``), as a sentence ends: "attack +2 this turn".
DURATION_WORDS = _table(
    "duration",
    Word("turn", "This turn", prose_en="this turn"),
    Word("permanent", "Permanently"),
)
# The parts of the ability language, as the vocabulary page titles its sections.
SECTION_WORDS = _table(
    "section",
    Word("trigger", "Triggers", "R4"),
    Word("ability_field", "Ability fields"),
    Word("effect", "Effects"),
    Word("target_pick", "Target picks"),
    Word("target_field", "Target fields"),
    Word("filter_field", "Filter fields"),
    Word("count_field", "Count fields"),
    Word("amount_field", "Amount fields"),
    Word("condition_field", "Condition fields"),
    Word("keyword", "Keywords", "R4"),
)
