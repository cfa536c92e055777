"""Template filters of the play pages: the players of a game between people (each name a link
to their public page), and how a finished one ended for a reader."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from play.friends.records import outcome_for
from play.models import Challenge, PlayGame

register = template.Library()


@register.filter
def player_link(name: str) -> SafeString:
    """A player's name as a link to their public page (their record; a challenge button)."""
    return format_html('<a href="{}" class="names-user">{}</a>', reverse("player", args=[name]),
                       name)


@register.filter
def player_names(game: PlayGame) -> list[str]:
    """The names of the people playing P1 and P2."""
    return [game.player_name(0), game.player_name(1)]


@register.filter
def player_other(game: PlayGame, seat: int) -> str:
    """The name of the person playing the seat other than ``seat``."""
    return game.player_name(1 - int(seat or 0))


OUTCOME_WORDS = {"won": gettext_lazy("won"), "lost": gettext_lazy("lost"),
                 "drawn": gettext_lazy("a draw"),
                 "called_off": gettext_lazy("called off")}


@register.filter
def outcome_word(game: PlayGame, user: Any) -> str:
    """How a finished game between people ended for ``user``: won, lost, a draw, or called off
    (a player never opened it; it counts for neither). Empty when ``user`` did not play it."""
    seat = game.seat_of(user)
    return "" if seat is None else str(OUTCOME_WORDS[outcome_for(game, seat)])


FIRST_MOVER = gettext_lazy("{first} (P{p}) moves first, {second} (P{q}) second.")
FIRST_RANDOM = gettext_lazy("Drawn at random when the game starts: {challenger} plays P{p}, "
                            "{other} P{q}, and either may move first.")
WHO_ACCEPTS = gettext_lazy("the one who accepts")


@register.filter
def who_first(challenge: Challenge) -> SafeString:
    """Who moves first in a challenge, in words with each player's seat (each name a link to
    their page): seats and turn order are separate choices, and "alice plays P1" beside
    "Random" read as if P1 moved first."""
    mine = int(challenge.seat)
    challenger = player_link(challenge.challenger.get_username())
    other: Any = (player_link(challenge.opponent.get_username()) if challenge.opponent
                  else str(WHO_ACCEPTS))
    if challenge.first == "me":
        return format_html(str(FIRST_MOVER), first=challenger, p=mine + 1, second=other,
                           q=2 - mine)
    if challenge.first == "them":
        return format_html(str(FIRST_MOVER), first=other, p=2 - mine, second=challenger,
                           q=mine + 1)
    return format_html(str(FIRST_RANDOM), challenger=challenger, p=mine + 1, other=other,
                       q=2 - mine)


@register.filter
def allows_spectators(game: PlayGame, seat: int) -> bool:
    """Whether the player of ``seat`` allows spectators of ``game``."""
    return seat in (0, 1) and game.watch_allowed_by(int(seat))


@register.filter
def other_allows_spectators(game: PlayGame, seat: int) -> bool:
    """Whether the other player than ``seat``'s allows spectators of ``game``."""
    return seat in (0, 1) and game.watch_allowed_by(1 - int(seat))
