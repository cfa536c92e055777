"""The ruleset's options in sentences (English here, other languages in the catalogues of
``rules/locale``): what each option of
``rules.engine.cards.Ruleset`` means when on or off (a switch) or with its number (``{n}``),
with the rule it adjusts. The run pages read them (``cards.rulesets``); a new option is one entry
here beside its field in ``Ruleset`` (a test fails while an option has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.localized import LocalizedText


@dataclass(frozen=True)
class OptionWords:
    """An option's sentences in English: ``on``/``off`` for a switch, ``on`` with ``{n}`` for a
    number; other languages in the catalogues (``ruleset_option.<option>.on`` / ``.off``)."""

    option: str
    rule: str                     # the rule it adjusts ("" for the engine's own [ruling])
    on_en: str
    off_en: str = ""

    def sentence(self, value: object, lang: str) -> str:
        key = f"ruleset_option.{self.option}"
        if self.off_en:
            if value:
                return LocalizedText(f"{key}.on", self.on_en).text(lang)
            return LocalizedText(f"{key}.off", self.off_en).text(lang)
        return LocalizedText(f"{key}.on", self.on_en).text(lang).format(n=value)


RULESET_OPTIONS: dict[str, OptionWords] = {o.option: o for o in (
    OptionWords("hero_advantage", "R2.3.10",
                "attribute advantage counts when attacking a hero (R2.3.10)",
                "attribute advantage does not count against heroes (R2.3.10)"),
    OptionWords("attack_or_skill", "R2.2.3",
                "a minion either attacks or uses its skill in a turn, not both (R2.2.3 e)",
                "a minion may attack and use its skill in the same turn (R2.2.3 e)"),
    OptionWords("react_ignores_awaken_turn", "R4.9",
                "re-act may hit the enemy hero on the turn the minion awakened (R4.9)",
                "re-act may not hit the enemy hero on the turn the minion awakened (R4.9)"),
    OptionWords("always_use_optional_skills", "R6.1",
                "awaken skills and last words always resolve, unasked (R6.1)",
                "a player may decline an awaken skill or last words (R6.1)"),
    OptionWords("face_down_last_words", "R6.2",
                "a face-down minion's last words resolve (R6.2)",
                "a face-down minion's last words do not resolve (R6.2)"),
    OptionWords("sleeping_keywords", "R6.3",
                "shield and regenerate work while a minion sleeps (R6.3)",
                "a sleeping minion's keywords do not work (R6.3)"),
    OptionWords("summoned_awake_is_awakened", "R6.4",
                "a minion summoned awake counts as awakened: its awaken skill triggers (R6.4)",
                "a minion summoned awake is not awakened: no awaken skill (R6.4)"),
    OptionWords("mind_controlled_may_attack", "R6.5",
                "a minion taken by mind control may attack on the turn it changes sides (R6.5)",
                "a minion taken by mind control cannot attack on the turn it changes sides (R6.5)"),
    OptionWords("turn_limit", "R2.2.6",
                "a draw after {n} turns per player (R2.2.6)"),
    OptionWords("action_limit", "",
                "at most {n} main-phase actions per turn"),
    OptionWords("slots", "R1.1",
                "{n} minion slots per side (R1.1)"),
    OptionWords("opening_hand", "R2.1.3",
                "an opening hand of {n} cards (R2.1.3)"),
    OptionWords("energy_cap", "R2.2.2",
                "energy grows to at most {n} (R2.2.2)"),
    OptionWords("first_turn_energy", "R2.2.2",
                "{n} energy on the first turn (R2.2.2)"),
    OptionWords("hand_limit", "R2.2.4",
                "a hand of at most {n} cards at the end of a turn (R2.2.4)"),
    OptionWords("display_limit", "R2.2.4",
                "at most {n} cards on display (R2.2.4)"),
)}
# The rulesets the engine names, in English (``ruleset.<name>`` in the catalogues); another
# ruleset shows its own name.
RULESET_NAMES = {"standard": "Standard"}


def ruleset_name(name: str, lang: str) -> str:
    """A ruleset's name in ``lang``: the engine's for its own, else the name capitalised."""
    if name in RULESET_NAMES:
        return LocalizedText(f"ruleset.{name}", RULESET_NAMES[name]).text(lang)
    return name.capitalize()
