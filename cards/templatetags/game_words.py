"""The game's codes as words in the page's language, through the one reader of game words
(``cards.game_words``): ``{{ card.kind|game_word:"kind" }}``, ``{{ "shield"|game_word:"keyword"
}}``. Built into every template (``config/settings.py``: ``TEMPLATES`` ``builtins``): every
app's pages name the game's words."""

from __future__ import annotations

from django import template

from cards import game_words

register = template.Library()


@register.filter
def game_word(code: str | None, kind: str) -> str:
    """``{{ "react"|game_word:"keyword" }}`` → "Re-act" / "再动"; an unknown code as it is."""
    return game_words.game_word(kind, code)
