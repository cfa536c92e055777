"""A run's ruleset in sentences, for the pages (the engine's ``Ruleset`` holds the options).

Each option of ``rules.engine.cards.Ruleset`` has a sentence for either value (booleans) or a
sentence with the number in it, in both languages (``rules.engine.ruleset_words``, read through
``cards.game_words``); the page says "Standard rules" when nothing differs from the defaults and
lists only the differences otherwise, with every option readable on demand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from cards.game_words import game_word
from rules.engine.cards import Ruleset


def option_sentence(key: str, value: Any) -> str:
    """An option and its value in a sentence, in the page's language (the engine's words)."""
    return game_word("ruleset_option", key, value=value)


@dataclass
class RulesetWords:
    name: str
    changes: list[str]     # sentences for the options that differ from the standard rules
    every: list[str]       # a sentence for every option

    @property
    def title(self) -> str:
        return game_word("ruleset", self.name)

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
