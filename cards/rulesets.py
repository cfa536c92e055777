"""A run's ruleset in sentences, for the pages (the engine's ``Ruleset`` holds the options).

Each option of ``rules.engine.cards.Ruleset`` has a sentence for either value (booleans) or a
sentence with the number in it; the page says "Standard rules" when nothing differs from the
defaults and lists only the differences otherwise, with every option readable on demand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.cards import Ruleset

# option → (sentence when on, sentence when off) for switches, or a sentence with {n}.
SWITCHES = {
    "hero_advantage": (gettext_lazy("attribute advantage counts when attacking a hero (R2.3.10)"),
                       gettext_lazy("attribute advantage does not count against heroes "
                                    "(R2.3.10)")),
    "attack_or_skill": (gettext_lazy("a minion either attacks or uses its skill in a turn, "
                                     "not both (R2.2.3 e)"),
                        gettext_lazy("a minion may attack and use its skill in the same turn "
                                     "(R2.2.3 e)")),
    "react_ignores_awaken_turn": (gettext_lazy("re-act may hit the enemy hero on the turn the "
                                               "minion awakened (R4.9)"),
                                  gettext_lazy("re-act may not hit the enemy hero on the turn "
                                               "the minion awakened (R4.9)")),
    "always_use_optional_skills": (gettext_lazy("awaken skills and last words always resolve, "
                                                "unasked (R6.1)"),
                                   gettext_lazy("a player may decline an awaken skill or last "
                                                "words (R6.1)")),
    "face_down_last_words": (gettext_lazy("a face-down minion's last words resolve (R6.2)"),
                             gettext_lazy("a face-down minion's last words do not resolve "
                                          "(R6.2)")),
    "sleeping_keywords": (gettext_lazy("shield and regenerate work while a minion sleeps "
                                       "(R6.3)"),
                          gettext_lazy("a sleeping minion's keywords do not work (R6.3)")),
    "summoned_awake_is_awakened": (gettext_lazy("a minion summoned awake counts as awakened: "
                                                "its awaken skill triggers (R6.4)"),
                                   gettext_lazy("a minion summoned awake is not awakened: no "
                                                "awaken skill (R6.4)")),
    "mind_controlled_may_attack": (gettext_lazy("a minion taken by mind control may attack on "
                                                "the turn it changes sides (R6.5)"),
                                   gettext_lazy("a minion taken by mind control cannot attack "
                                                "on the turn it changes sides (R6.5)")),
}
RULESET_NAMES = {"standard": gettext_lazy("Standard")}
NUMBERS = {
    "turn_limit": gettext_lazy("a draw after {n} turns per player (R2.2.6)"),
    "action_limit": gettext_lazy("at most {n} main-phase actions per turn"),
    "slots": gettext_lazy("{n} minion slots per side (R1.1)"),
    "opening_hand": gettext_lazy("an opening hand of {n} cards (R2.1.3)"),
    "energy_cap": gettext_lazy("energy grows to at most {n} (R2.2.2)"),
    "first_turn_energy": gettext_lazy("{n} energy on the first turn (R2.2.2)"),
    "hand_limit": gettext_lazy("a hand of at most {n} cards at the end of a turn (R2.2.4)"),
    "display_limit": gettext_lazy("at most {n} cards on display (R2.2.4)"),
}


def option_sentence(key: str, value: Any) -> str:
    if key in SWITCHES:
        on, off = SWITCHES[key]
        return str(on if value else off)
    if key in NUMBERS:
        return str(NUMBERS[key]).format(n=value)
    return f"{key.replace('_', ' ')}: {value}"


@dataclass
class RulesetWords:
    name: str
    changes: list[str]     # sentences for the options that differ from the standard rules
    every: list[str]       # a sentence for every option

    @property
    def title(self) -> str:
        return str(RULESET_NAMES.get(self.name, self.name.capitalize()))

    @property
    def summary(self) -> str:
        if not self.changes:
            return _("{name} rules, as in the rule book.").format(name=self.title)
        return _("{name} rules: {changes}.").format(name=self.title,
                                                   changes=_("; ").join(self.changes))


def ruleset_words(ruleset: Mapping[str, Any] | None) -> RulesetWords:
    """The sentences for a run's frozen ruleset (missing options take the standard value)."""
    standard = Ruleset().to_dict()
    data = {**standard, **dict(ruleset or {})}
    options = [key for key in data if key != "name"]
    return RulesetWords(
        name=str(data.get("name") or "standard"),
        changes=[option_sentence(k, data[k]) for k in options if data[k] != standard.get(k)],
        every=[option_sentence(k, data[k]) for k in options])
