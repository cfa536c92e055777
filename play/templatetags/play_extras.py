"""Template filters of the play pages: the players of a game between people."""

from __future__ import annotations

from django import template

from play.models import PlayGame

register = template.Library()


@register.filter
def player_names(game: PlayGame) -> list[str]:
    """The names of the people playing P1 and P2."""
    return [game.player_name(0), game.player_name(1)]


@register.filter
def player_other(game: PlayGame, seat: int) -> str:
    """The name of the person playing the seat other than ``seat``."""
    return game.player_name(1 - int(seat or 0))
