"""Deck and format models.

Invariants:
- A ``Format`` is data a designer edits in the admin; ``decks.adapters.format_to_rules`` turns
  it (with its ban list and legal sets) into the engine's ``rules.decks.legality.Format``, where
  legality is decided. The ``standard`` format (RULES.md R5) is created by a data migration.
- A ``Deck`` is addressed by ``uid``, a random, unguessable token: an *unlisted* deck is
  "link only" because its address cannot be guessed; a *private* deck is its owner's alone.
- Every save of a deck's content appends a ``DeckVersion`` (a frozen copy of name, hero,
  format and cards by code); versions are never edited or deleted by an edit, so nothing a
  user saved is lost. Restoring a version appends a new version equal to it.
- Entries hold at least one copy each, and a deck has at most one entry per card (database
  constraints). Services (``decks/services.py``) are the only writers.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from cards.models import Card, CardSet, Game, Rarity
from common.language import localized_value
from decks.formats.problem_text import format_problems_text
from rules.decks.formats import rules_problems
from rules.decks.piles import MAIN_PILE

# The names of the formats created by the migrations, as translatable text.
FORMAT_NAMES = {"Standard": _("Standard")}


def new_uid() -> str:
    """A 12-character URL-safe token (72 random bits) that does not start with "-": commands
    take a deck's uid as an argument, and a leading dash would read as an option."""
    while True:
        uid = secrets.token_urlsafe(9)
        if not uid.startswith("-"):
            return uid


class Format(models.Model):
    """Deck construction rules: sizes, allowed kinds, copy limits per rarity, ban list, sets."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    hero_count = models.PositiveSmallIntegerField(_("hero count"), default=1,
                                                  help_text=_("Heroes a deck has."))
    deck_min = models.PositiveSmallIntegerField(_("smallest deck"), default=30)
    deck_max = models.PositiveSmallIntegerField(_("largest deck"), default=30)
    minions_allowed = models.BooleanField(_("minions allowed"), default=True)
    items_allowed = models.BooleanField(_("items allowed"), default=True)
    heroes_allowed_in_deck = models.BooleanField(_("heroes allowed in deck"), default=False)
    limit_n = models.PositiveSmallIntegerField(_("copies of an N card"), default=3)
    limit_r = models.PositiveSmallIntegerField(_("copies of an R card"), default=3)
    limit_sr = models.PositiveSmallIntegerField(_("copies of an SR card"), default=3)
    limit_ssr = models.PositiveSmallIntegerField(_("copies of an SSR card"), default=3)
    limit_ur = models.PositiveSmallIntegerField(_("copies of a UR card"), default=1)
    legal_sets = models.ManyToManyField(CardSet, verbose_name=_("legal sets"), blank=True,
                                        related_name="formats",
                                        help_text=_("Leave empty to allow every set."))
    is_active = models.BooleanField(_("is active"), default=True,
                                    help_text=_("Inactive formats are not offered for new decks."))
    game = models.ForeignKey(Game, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="formats", verbose_name=_("game"),
                             help_text=_("Empty: this site's own game."))
    # The name in the site's other languages, by language code ({"zh-hans": "标准"}); the
    # English one is ``name``, the format's own (the migrations' formats are found by it).
    names = models.JSONField(_("names in other languages"), default=dict, blank=True,
                             help_text=_("By the site's language code: {\"zh-hans\": \"标准\"}. "
                                         "The English name is the name above."))
    rules = models.JSONField(
        _("rules as data"), default=dict, blank=True,
        help_text=_("Piles, copy limits and rule references (docs/formats.md). When it has "
                    "piles, they replace the hero, size, kind and rarity fields above."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("format")
        verbose_name_plural = gettext_lazy("formats")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(deck_min__lte=models.F("deck_max")),
                                   name="format_deck_min_within_max"),
        ]

    def __str__(self) -> str:
        return self.display_name   # the admin's lists, breadcrumbs and choices: the reader's

    @property
    def display_name(self) -> str:
        """The name in the page's language: the formats the migrations create have a
        translation; a designer's own format is shown as named."""
        english = str(FORMAT_NAMES.get(self.name, self.name))
        return localized_value({"names": {**self.names, "en": english}}, "name")

    @property
    def has_piles(self) -> bool:
        return bool(isinstance(self.rules, dict) and self.rules.get("piles"))

    @property
    def simulated(self) -> bool:
        """Whether decks of this format can be simulated: only this site's own game."""
        game = self.game   # None without a query when the format names no game
        return game is None or game.engine

    def clean(self) -> None:
        """The rules data is checked by the engine's schema (rules/decks/formats.py); every
        problem lands on the field with its path, in the page's language."""
        super().clean()
        if not self.rules:
            return
        kinds: set[str] | None = None
        rarities: set[str] | None = None
        game = self.game
        if game is not None:
            kinds = set(game.kinds.values_list("code", flat=True))
            rarities = set(game.rarities.values_list("code", flat=True))
        problems = rules_problems(self.rules, kinds, rarities)
        if problems:
            raise ValidationError({"rules": format_problems_text(problems)})

    def copy_limits(self) -> dict[str, int]:
        return {Rarity.N: self.limit_n, Rarity.R: self.limit_r, Rarity.SR: self.limit_sr,
                Rarity.SSR: self.limit_ssr, Rarity.UR: self.limit_ur}

    def deck_kinds(self) -> tuple[str, ...]:
        kinds = (("minion", self.minions_allowed), ("item", self.items_allowed),
                 ("hero", self.heroes_allowed_in_deck))
        return tuple(kind for kind, allowed in kinds if allowed)


class FormatCardLimit(models.Model):
    """One line of a format's ban/limited list."""

    class Limit(models.IntegerChoices):
        BANNED = 0, _("Banned (0)")
        LIMITED = 1, _("Limited (1)")
        SEMI_LIMITED = 2, _("Semi-limited (2)")

    format = models.ForeignKey(Format, verbose_name=_("format"), on_delete=models.CASCADE,
                               related_name="card_limits")
    card = models.ForeignKey(Card, verbose_name=_("card"), on_delete=models.CASCADE,
                             related_name="format_limits")
    limit = models.PositiveSmallIntegerField(_("limit"), choices=Limit.choices,
                                             default=Limit.BANNED)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = gettext_lazy("ban / limited list entry")
        verbose_name_plural = gettext_lazy("ban / limited list entries")
        ordering = ["format", "card__code"]
        constraints = [
            models.UniqueConstraint(fields=["format", "card"], name="format_card_limit_unique"),
            models.CheckConstraint(condition=Q(limit__lte=2), name="format_card_limit_range"),
        ]

    def __str__(self) -> str:
        return f"{self.card_id}: {self.get_limit_display()} in {self.format_id}"


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private — only you")
    UNLISTED = "unlisted", _("Unlisted — anyone with the link")
    PUBLIC = "public", _("Public — listed and searchable")


class Deck(models.Model):
    """A player's deck: a hero, entries (card, count), a format and a visibility."""

    uid = models.CharField(_("uid"), max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE,
                              related_name="decks")
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    hero = models.ForeignKey(Card, verbose_name=_("hero"), on_delete=models.PROTECT, null=True,
                             blank=True,
                             related_name="+", limit_choices_to={"kind": "hero"})
    format = models.ForeignKey(Format, verbose_name=_("format"), on_delete=models.PROTECT,
                               related_name="decks")
    visibility = models.CharField(_("visibility"), max_length=10, choices=Visibility.choices,
                                  default=Visibility.PRIVATE)
    forked_from = models.ForeignKey("self", verbose_name=_("forked from"),
                                    on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="forks")
    # An active deck is one its owner plays now: the collection page checks that the active
    # decks together fit the cards owned.
    active = models.BooleanField(pgettext_lazy("a deck its owner plays now", "active"),
                                 default=False)
    # The through model is the one Django makes; the plugin cannot name it from the string.
    tags: models.ManyToManyField[DeckTag, Any] = models.ManyToManyField(
        "DeckTag", blank=True, related_name="decks", verbose_name=_("tags"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("deck")
        verbose_name_plural = gettext_lazy("decks")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "-updated_at"]),
                   models.Index(fields=["owner", "-updated_at"])]

    # Set on the decks of a list by decks.sharing.services.decks_mark_buildable (not a column).
    buildable: bool

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.uid])


class DeckEntry(models.Model):
    """``count`` copies of a card in one pile of a deck (``deck``: the main list; a format in
    piles names the others, e.g. ``atlas``)."""

    deck = models.ForeignKey(Deck, verbose_name=_("deck"), on_delete=models.CASCADE,
                             related_name="entries")
    card = models.ForeignKey(Card, verbose_name=_("card"), on_delete=models.PROTECT,
                             related_name="deck_entries")
    count = models.PositiveSmallIntegerField(_("count"))
    pile = models.SlugField(_("pile"), max_length=40, default=MAIN_PILE)

    class Meta:
        verbose_name = gettext_lazy("deck entry")
        verbose_name_plural = gettext_lazy("deck entries")
        ordering = ["pile", "card__code"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "pile", "card"],
                                    name="deck_entry_unique_card"),
            models.CheckConstraint(condition=Q(count__gte=1), name="deck_entry_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.count}x {self.card_id}"


class DeckVersion(models.Model):
    """A saved state of a deck, by card code (so it outlives any later edit)."""

    deck = models.ForeignKey(Deck, verbose_name=_("deck"), on_delete=models.CASCADE,
                             related_name="versions")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    hero_code = models.CharField(_("hero code"), max_length=32, blank=True)
    format_code = models.CharField(_("format code"), max_length=40)
    cards = models.JSONField(_("cards"), default=dict, help_text=_("{card code: count}"))
    piles = models.JSONField(_("piles"), default=dict, blank=True,
                             help_text=_("{pile: {card code: count}}: piles besides the main list"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("deck version")
        verbose_name_plural = gettext_lazy("deck versions")
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deck_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"

    @property
    def size(self) -> int:
        return sum(self.cards.values())


class DeckTag(models.Model):
    """A word players file decks under ("aggro", "budget", "新手"): the slug is the tag."""

    slug = models.SlugField(max_length=30, unique=True, allow_unicode=True)

    class Meta:
        verbose_name = gettext_lazy("deck tag")
        verbose_name_plural = gettext_lazy("deck tags")
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class DeckFavourite(models.Model):
    """A user's favourite deck (one row per user and deck); ``created_at`` dates it for the
    week's most favoured list."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="deck_favourites")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="favourites")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = gettext_lazy("favourite deck")
        verbose_name_plural = gettext_lazy("favourite decks")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "deck"], name="deck_favourite_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ♥ {self.deck_id}"
