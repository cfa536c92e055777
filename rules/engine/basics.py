"""The game's fixed words (card kinds, attributes, rarities; keywords come from their registry,
``keywords.py``) and the error every refused card, deck, ruleset or snapshot raises.

Among the lowest modules of the engine (it imports only the keyword registry), so the card
definitions, the vocabulary's registries and its validator can all read it without importing
each other in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.keywords import KEYWORDS as KEYWORDS  # the registry's live codes, re-exported
from rules.localized import Sentence

KINDS = ("hero", "minion", "item")
ATTRIBUTES = ("fire", "grass", "water", "light", "dark")
RARITIES = ("N", "R", "SR", "SSR", "UR")


class CardDataError(ValueError):
    """A card, deck or ruleset definition that the engine refuses, with every problem listed."""

    def __init__(self, problems: Sequence[Sentence]):
        """``problems``: each a ``Sentence`` (its path, English template and parameters), which
        the site says in the reader's language and ``str()`` in English."""
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))
