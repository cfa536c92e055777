"""A game a person plays: its frozen setup and the list of actions chosen so far.

The engine is deterministic (same decks + seed + ruleset + first player + actions ⇒ same game,
event for event), so a game is stored as its start and its actions, and every request rebuilds
the state by replaying them (``play.engine.adapter``). ``version`` counts the changes: an action,
an undo or a restart is written only if the version is still the one the request read, so two
tabs cannot both advance the game (optimistic concurrency).

Invariant: ``actions`` always replays without an illegal action on ``decks``, ``cards``,
``seed``, ``ruleset`` and ``first_player``.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.language import frozen_deck_name, frozen_deck_names
from decks.models import Format

HUMAN = "human"
# A game between people that a player never opened in time: called off, counted for neither
# (play.clock.enforce), and with no replay, so neither learns the other's deck.
NO_SHOW = "no_show"


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
    # A game between two people: ``owner`` plays P1, ``guest`` P2 (both seats "human").
    guest = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("guest"), null=True,
                              blank=True, on_delete=models.CASCADE,
                              related_name="play_games_as_guest",
                              help_text=_("The person playing P2 in a game between two people."))
    # The turn clock of a game between people (``play.clock.enforce``); empty: no clock.
    clock = models.JSONField(_("clock"), default=dict, blank=True,
                             help_text=_('{"turn": s, "reserve": s, "away": s}'))
    reserve = models.JSONField(_("reserve"), default=list, blank=True,
                               help_text=_("Seconds of reserve each seat has left."))
    to_move = models.SmallIntegerField(_("seat to move"), null=True, blank=True)
    turn_began = models.DateTimeField(_("turn began"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True,
                                    help_text=_("When the seat to move runs out of time."))
    seen_p1 = models.DateTimeField(_("P1 last seen"), null=True, blank=True)
    seen_p2 = models.DateTimeField(_("P2 last seen"), null=True, blank=True)
    rematch_of = models.ForeignKey("self", verbose_name=_("rematch of"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="rematches")
    # Played on from a replay's step (``play.replays.play_on``): the game starts at ``start``, a
    # position as its player could know it (``rules.engine.play_on``), not from the decks.
    start = models.JSONField(_("start"), default=dict, blank=True,
                             help_text=_("The position a game played on from a replay starts "
                                         "at; empty: it starts from its decks."))
    played_on_from = models.ForeignKey("self", verbose_name=_("played on from"), null=True,
                                       blank=True, on_delete=models.SET_NULL,
                                       related_name="played_on")
    played_on_step = models.PositiveIntegerField(_("played on from step"), null=True,
                                                 blank=True)
    # Each player's consent to spectators (a game between people): watchable only while both
    # allow it (``play.spectators``); either may withdraw theirs during the game.
    watch_p1 = models.BooleanField(_("P1 allows spectators"), default=False)
    watch_p2 = models.BooleanField(_("P2 allows spectators"), default=False)
    # The game's turn as of its last move (``play.store``): the lobby lists it without a replay.
    turn = models.PositiveIntegerField(_("turn"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("played game")
        verbose_name_plural = _("played games")

    def __str__(self) -> str:
        if self.friendly:
            # Between people a deck stays hidden until played: the game is named by its players.
            return gettext("{p1} vs {p2}").format(p1=self.player_name(0),
                                                  p2=self.player_name(1))
        # The decks' names are in the page's language, and so is what joins them.
        names = self.deck_names
        return gettext("{deck} vs {opponent}").format(deck=names[0], opponent=names[1])

    def get_absolute_url(self) -> str:
        return reverse("play:game", args=[self.uid])

    @property
    def friendly(self) -> bool:
        """A game between two people, each on their own device."""
        return self.guest_id is not None

    def player_name(self, seat: int) -> str:
        user = self.owner if seat == 0 else self.guest
        return user.get_username() if user is not None else ""

    def seat_of(self, user: Any) -> int | None:
        """The seat ``user`` plays in a game between people (None: not a player of it, or a
        game against an agent or hot-seat, where the owner plays every human seat)."""
        if not self.friendly or user is None or not getattr(user, "is_authenticated", False):
            return None
        if user.pk == self.owner_id:
            return 0
        if user.pk == self.guest_id:
            return 1
        return None

    def is_player(self, user: Any) -> bool:
        return bool(user is not None and getattr(user, "is_authenticated", False)
                    and user.pk in (self.owner_id, self.guest_id))

    def deck_name(self, seat: int) -> str:
        """The seat's deck's name in the page's language (a starter's may be given in each)."""
        return frozen_deck_name(self.decks[seat], seat + 1)

    @property
    def deck_names(self) -> list[str]:
        """The decks' names, told apart where a player's deck is named like a starter."""
        return frozen_deck_names(self.decks)

    @property
    def human_seats(self) -> list[int]:
        return [i for i, who in enumerate(self.seats) if who == HUMAN]

    @property
    def agent(self) -> str:
        """The AI player of a game against one ("" for a game of people only)."""
        return next((who for who in self.seats if who != HUMAN), "")

    @property
    def hot_seat(self) -> bool:
        return len(self.human_seats) == 2 and not self.friendly

    @property
    def watchable(self) -> bool:
        """Spectators may watch it: a game between people whose two players both allow it."""
        return self.friendly and self.watch_p1 and self.watch_p2

    def watch_allowed_by(self, seat: int) -> bool:
        return self.watch_p1 if seat == 0 else self.watch_p2

    @property
    def over(self) -> bool:
        return self.status != PlayStatus.PLAYING

    @property
    def has_replay(self) -> bool:
        """Finished and played: a game called off before it began shows no decks."""
        return self.over and (self.result or {}).get("reason") != NO_SHOW


class ChallengeStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Withdrawn")
    EXPIRED = "expired", _("Expired")


def new_token() -> str:
    return secrets.token_urlsafe(12)


class Challenge(models.Model):
    """An invitation to a game between two people: to a named player, or (no ``opponent``) an
    open link anyone signed in may accept. The challenger's deck is frozen here and stays hidden
    from the other player until it is played; the one who accepts picks their own deck, checked
    against ``format_code``. A pending challenge past ``expires_at`` is expired."""

    uid = models.CharField(_("uid"), max_length=20, unique=True, default=new_token,
                           editable=False)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("challenger"),
                                   on_delete=models.CASCADE, related_name="challenges_made")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("opponent"),
                                 null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="challenges_received")
    format_code = models.CharField(_("format"), max_length=40)
    deck = models.JSONField(_("deck"), help_text=_("The challenger's frozen deck (hidden)."))
    seat = models.SmallIntegerField(_("challenger's seat"), default=0)
    first = models.CharField(_("who goes first"), max_length=12, default="random")
    spectators = models.BooleanField(_("challenger allows spectators"), default=False)
    clock = models.JSONField(_("clock"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=ChallengeStatus.choices,
                              default=ChallengeStatus.PENDING)
    expires_at = models.DateTimeField(_("expires at"))
    game = models.OneToOneField(PlayGame, verbose_name=_("game"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="challenge")
    rematch_of = models.ForeignKey(PlayGame, verbose_name=_("rematch of"), null=True,
                                   blank=True, on_delete=models.SET_NULL,
                                   related_name="rematch_challenges")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        if self.opponent is None:
            return gettext("{who}'s open challenge").format(who=self.challenger.get_username())
        return gettext("{who} challenges {whom}").format(
            who=self.challenger.get_username(), whom=self.opponent.get_username())

    def get_absolute_url(self) -> str:
        return reverse("play:challenge", args=[self.uid])

    @property
    def format_label(self) -> str:
        """The format's name in the reader's language (its code if it was deleted since)."""
        found = Format.objects.filter(code=self.format_code).first()
        return found.display_name if found is not None else self.format_code

    @property
    def deck_name(self) -> str:
        """The challenger's deck's name in the page's language (theirs to see only)."""
        return frozen_deck_name(self.deck, 1)


class PlayerSettings(models.Model):
    """A player's choices about games between people."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE, related_name="play_settings")
    email_challenges = models.BooleanField(
        _("e-mail me challenges"), default=False,
        help_text=_("Send an e-mail to your address when someone challenges you."))
    # The language the player read the site in when they last saved these settings: a
    # challenge's e-mail is written in it, whoever sends the challenge.
    language = models.CharField(_("language of e-mails"), max_length=16, blank=True, default="")
    allow_spectators = models.BooleanField(
        _("allow spectators"), default=False,
        help_text=_("Let anyone signed in watch your games against people, unless you choose "
                    "otherwise for a game (neither hand is shown)."))

    class Meta:
        verbose_name = _("player settings")
        verbose_name_plural = _("player settings")

    def __str__(self) -> str:
        return self.user.get_username()


class PlaySpectator(models.Model):
    """Someone watching a game between people: a short-lived presence (``seen_at``, written at
    most every few seconds per spectator), counted for the players' boards and the lobby."""

    game = models.ForeignKey(PlayGame, verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="watchers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="games_watched")
    seen_at = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("spectator")
        verbose_name_plural = _("spectators")
        constraints = [models.UniqueConstraint(fields=["game", "user"],
                                               name="play_spectator_once")]
        indexes = [models.Index(fields=["game", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.game_id}"
