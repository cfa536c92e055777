"""A game a person plays: its frozen setup and the list of actions chosen so far.

The engine is deterministic (same decks + seed + ruleset + first player + actions ⇒ same game,
event for event), so a game is stored as its start and its actions, and every request rebuilds
the state by replaying them (``play.engine_adapter``). ``version`` counts the changes: an action,
an undo or a restart is written only if the version is still the one the request read, so two
tabs cannot both advance the game (optimistic concurrency).

Invariant: ``actions`` always replays without an illegal action on ``decks``, ``cards``,
``seed``, ``ruleset`` and ``first_player``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.language import frozen_deck_name

HUMAN = "human"


def new_uid() -> str:
    return secrets.token_urlsafe(9)


class PlayStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    CONCEDED = "conceded", _("Conceded")


class PlayGame(models.Model):
    uid = models.CharField(_("uid"), max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE, related_name="play_games")
    decks = models.JSONField(_("decks"), help_text=_("The two seats' frozen deck lists."))
    cards = models.JSONField(_("cards"), help_text=_("{code: card data} of every card played"))
    seats = models.JSONField(_("seats"),
                             help_text=_('Who plays each seat: "human" or an agent\'s name.'))
    seed = models.BigIntegerField(_("seed"))
    ruleset = models.JSONField(_("ruleset"), default=dict)
    first_player = models.SmallIntegerField(_("first player"), null=True, blank=True)
    actions = models.JSONField(_("actions"), default=list)
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=PlayStatus.choices,
                              default=PlayStatus.PLAYING)
    result = models.JSONField(_("result"), null=True, blank=True)
    is_shared = models.BooleanField(_("is shared"), default=False,
                                    help_text=_("Anyone with the link may watch the replay."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("played game")
        verbose_name_plural = _("played games")

    def __str__(self) -> str:
        # The decks' names are in the page's language, and so is what joins them.
        return gettext("{deck} vs {opponent}").format(deck=self.deck_name(0),
                                                       opponent=self.deck_name(1))

    def get_absolute_url(self) -> str:
        return reverse("play:game", args=[self.uid])

    def deck_name(self, seat: int) -> str:
        """The seat's deck's name in the page's language (a starter's may be given in each)."""
        return frozen_deck_name(self.decks[seat], seat + 1)

    @property
    def deck_names(self) -> list[str]:
        return [self.deck_name(seat) for seat in range(len(self.decks))]

    @property
    def human_seats(self) -> list[int]:
        return [i for i, who in enumerate(self.seats) if who == HUMAN]

    @property
    def hot_seat(self) -> bool:
        return len(self.human_seats) == 2

    @property
    def over(self) -> bool:
        return self.status != PlayStatus.PLAYING
