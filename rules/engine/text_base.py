"""Pieces shared by the English grammar (``text_en``) and the catalogues' templates
(``text_templates``) that write rules text.

Invariants: nothing here produces words of a language; it only reshapes normalised vocabulary
data so that both languages make the same decisions (which targets are plural, which amounts
are dynamic, how an already-normalised ability is turned back into its data form).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Data = Mapping[str, Any]   # one piece of normalised vocabulary data (an ability, an effect ...)

# Picks that always name several minions (random depends on its count).
PLURAL_PICKS = ("all", "adjacent")
# Picks whose minion is selected rather than fixed: their effects read "give X ..." rather than
# "X gets ...", because "an enemy minion gets -2 attack" would not say who chooses it.
SELECTED_PICKS = ("chosen", "random")

MSG_NO_TEXT = ("no {lang} text for {what} {name!r}: give it its text where it is defined "
               "(an effect term: rules/engine/effect_definitions.py; a trigger: "
               "rules/engine/text_en.py and text_templates.py; a template: "
               "rules/locale/{lang}.json)")


@dataclass(frozen=True)
class Ctx:
    """What a clause needs besides its own data: the display names and the ability around it."""

    trigger: str
    kind: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    lang: str = "en"      # the language the text is written in (a catalogue's code)

    @property
    def aura(self) -> bool:
        # Effects of an aura hold *while* the aura holds: no "this turn", "have" not "get".
        return self.trigger == "aura"

    def name(self, code: str) -> str:
        """A designer's data value (faction, race) as its display name, else the code."""
        return self.names.get(code, code)


@dataclass(frozen=True)
class Amount:
    """An amount field, static (``count is None``) or ``plus + times × count``, capped at max."""

    plus: int
    times: int = 0
    count: Data | None = None
    max: int | None = None

    @property
    def dynamic(self) -> bool:
        return self.count is not None

    @property
    def sign(self) -> int:
        """-1 when the amount reads as a decrease (a debuff, lost energy), else 1."""
        lead = self.times if self.dynamic and self.plus == 0 else self.plus
        return -1 if lead < 0 else 1


def split_amount(value: Any) -> Amount:
    """A normalised amount (int or ``{"count", "times", "plus", "max"}``) as an Amount."""
    if isinstance(value, Mapping):
        if value["times"] == 0:   # nothing is counted: the amount is plus, capped at max
            plus = value["plus"] if value["max"] is None else min(value["plus"], value["max"])
            return Amount(plus)
        return Amount(value["plus"], value["times"], value["count"], value["max"])
    return Amount(int(value))


def target_is_plural(target: Data) -> bool:
    return target["pick"] in PLURAL_PICKS or (target["pick"] == "random" and target["count"] > 1)


def as_data(value: Any) -> Any:
    """Turn normalised data back into its data form, so it can be normalised again.

    ``normalise_abilities`` is not idempotent (it turns a filter's tuple into a tuple of a
    tuple, and the validator rejects tuples and ``None``), so the text generator accepts both
    forms by going back to lists and dropping ``None`` values, which always mean "default".
    """
    if isinstance(value, Mapping):
        return {k: as_data(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [as_data(v) for v in value]
    return value


def capitalise(text: str) -> str:
    """Upper-case the first letter only (``str.capitalize`` would lower-case display names)."""
    return text[:1].upper() + text[1:]
