"""Catalogue models: card sets, factions, races, cards (abilities as data) and per-card
simulated stats.

Invariants:
- ``Card.code`` is unique and stable: decks, simulation runs and URLs refer to cards by it.
- What each kind must and must not have (RULES.md R1.4) is enforced twice: by database check
  constraints (no row can break it, whatever writes it) and by ``clean()``, which runs the
  engine's own validator so a form shows the engine's message on the field.
- ``texts`` (the generated rules text, ``{language code: text}`` in every language with a
  rules-text grammar) and ``keyword_tags`` are derived from the data; ``save()`` refreshes
  them, so rules-text search is a plain database query.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from cards.adapters import card_problems, card_to_data, card_to_def, refresh_derived
from cards.game_words import game_word, game_word_lazy
from common.language import (
    SOURCE_LANGUAGE,
    data_form_names,
    html_lang,
    localized_value,
    other_language,
    other_value,
    source_value,
)
from rules.engine.cards import ATTRIBUTES, KINDS, RARITIES
from rules.engine.keywords import KEYWORDS
from rules.engine.text import written_languages

if TYPE_CHECKING:
    from django.utils.safestring import SafeString

    from rules.engine.cards import CardDef


# Labels are the engine's words (rules.engine.words), in the page's language when read.
class Kind(models.TextChoices):
    HERO = "hero", game_word_lazy("kind", "hero")
    MINION = "minion", game_word_lazy("kind", "minion")
    ITEM = "item", game_word_lazy("kind", "item")


class Attribute(models.TextChoices):
    FIRE = "fire", game_word_lazy("attribute", "fire")
    GRASS = "grass", game_word_lazy("attribute", "grass")
    WATER = "water", game_word_lazy("attribute", "water")
    LIGHT = "light", game_word_lazy("attribute", "light")
    DARK = "dark", game_word_lazy("attribute", "dark")


class Rarity(models.TextChoices):
    N = "N", "N"
    R = "R", "R"
    SR = "SR", "SR"
    SSR = "SSR", "SSR"
    UR = "UR", "UR"




def keyword_choices() -> list[tuple[str, str]]:
    """(code, name in the page's language) of every keyword in the engine's registry, read
    when asked (forms and filters take it as a callable), so a new keyword needs no change
    here."""
    return [(code, game_word("keyword", code)) for code in KEYWORDS]


# The model's choices are the engine's vocabulary; a mismatch would be a silent drift.
assert tuple(Kind.values) == KINDS
assert tuple(Attribute.values) == ATTRIBUTES
assert tuple(Rarity.values) == RARITIES

RARITY_RANK = {code: rank for rank, code in enumerate(RARITIES)}


NAMES_HELP = _("The name in each language, by the site's language code: "
               '{"en": "Ember Pup", "zh-hans": "余烬幼犬"}. English is required.')


NAMES_NEED_ENGLISH = _("Give the name in English (the key \"en\").")
NAMES_ARE_TEXTS = _("Names are a JSON object of language code → text.")


def names_in_languages(value: object) -> None:
    """What a keyed name field holds: text by language code, English among them."""
    if not isinstance(value, dict) or not all(
            isinstance(lang, str) and isinstance(text, str) for lang, text in value.items()):
        raise ValidationError(NAMES_ARE_TEXTS, code="invalid")
    if not value.get(SOURCE_LANGUAGE, "").strip():
        raise ValidationError(NAMES_NEED_ENGLISH, code="required")


def names_field() -> models.JSONField[Any]:
    """A row's name in every language, ``{language code: text}`` (common.language)."""
    return models.JSONField(_("names"), default=dict, help_text=NAMES_HELP,
                            validators=[names_in_languages])


class NamedInLanguages:
    """A row named in every language of the site (``names``), shown in the page's language
    first."""

    names: dict[str, str]

    @property
    def english_name(self) -> str:
        """The name in English, the language every row is named in (sorting, the admin)."""
        return source_value(self, "name")

    @property
    def display_name(self) -> str:
        """The name in the page's language (English when no name in it is written)."""
        return localized_value(self, "name")

    @property
    def other_name(self) -> str:
        """The name in the other language, shown beside it ("" when there is none)."""
        other = other_value(self, "name")
        return "" if other == self.display_name else other

    @property
    def other_lang(self) -> str:
        """The ``lang`` attribute of ``other_name`` in HTML."""
        return html_lang(other_language())


# The name the migrations up to 0006 record as these models' base class.
TwoNames = NamedInLanguages


ENGINE_GAME = "cardlab"
"""The code of this site's own game: the one the engine plays and simulates."""


class Game(NamedInLanguages, models.Model):
    """A card game in the catalogue. Only the engine's game (``engine``) has simulations;
    other games have the catalogue, the builder, validation and import/export."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    names = names_field()
    engine = models.BooleanField(
        _("played by the engine"), default=False,
        help_text=_("Only this site's own game is played by the engine and simulated."))
    descriptions = models.JSONField(_("descriptions"), default=dict, blank=True,
                                    help_text=_("The description in each language, by the "
                                                "site's language code."))

    class Meta:
        verbose_name = gettext_lazy("game")
        verbose_name_plural = gettext_lazy("games")
        ordering = ["-engine", "names__en"]

    def __str__(self) -> str:
        return self.display_name   # the admin's lists and choices: the reader's language

    @property
    def description(self) -> str:
        return localized_value(self, "description")


class _GameTerm(NamedInLanguages, models.Model):
    """A word a game declares (a card kind, a rarity tier): code, names, order."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE)
    code = models.SlugField(_("code"), max_length=16)
    names = names_field()
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        abstract = True
        ordering = ["game", "order", "code"]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.code}"


class CardKind(_GameTerm):
    class Meta(_GameTerm.Meta):
        verbose_name = gettext_lazy("card kind")
        verbose_name_plural = gettext_lazy("card kinds")
        default_related_name = "kinds"
        constraints = [models.UniqueConstraint(fields=["game", "code"],
                                               name="card_kind_unique_code")]


class RarityTier(_GameTerm):
    class Meta(_GameTerm.Meta):
        verbose_name = gettext_lazy("rarity tier")
        verbose_name_plural = gettext_lazy("rarity tiers")
        default_related_name = "rarities"
        constraints = [models.UniqueConstraint(fields=["game", "code"],
                                               name="rarity_tier_unique_code")]


class CardSet(NamedInLanguages, models.Model):
    """A released set of cards (the shipped file's ``set:`` header and its starter decks).

    ``game`` empty means this site's own game (``load_cards`` sets it to that game, so only a
    set written by other code can be empty);
    ``sample`` marks a small set made for tests, not a real release."""

    code = models.CharField(_("code"), max_length=32, unique=True)
    names = names_field()
    game = models.ForeignKey(Game, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="card_sets", verbose_name=_("game"),
                             help_text=_("Empty: this site's own game."))
    sample = models.BooleanField(_("sample data"), default=False,
                                 help_text=_("A small set made for tests, not a release."))
    # The file's ``decks:`` list, kept as written so an export round-trips the shipped file.
    starter_decks = models.JSONField(_("starter decks"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("card set")
        verbose_name_plural = gettext_lazy("card sets")
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} — {self.display_name}"


class _Named(NamedInLanguages, models.Model):
    """A designer-defined tag (faction, race): a stable code and display names."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    names = names_field()

    class Meta:
        abstract = True
        ordering = ["names__en"]

    def __str__(self) -> str:
        return self.display_name


class Faction(_Named):
    class Meta(_Named.Meta):
        verbose_name = game_word_lazy("field", "faction", prose=True)
        verbose_name_plural = game_word_lazy("fields", "faction", prose=True)


class Race(_Named):
    class Meta(_Named.Meta):
        verbose_name = game_word_lazy("field", "race", prose=True)
        verbose_name_plural = game_word_lazy("fields", "race", prose=True)


def display_names(lang: str) -> dict[str, str]:
    """``{faction or race code: display name}`` in one language, for rules text (two queries)."""
    names: dict[str, str] = {}
    for model in (Faction, Race):
        for row in model.objects.values("code", "names"):
            names[row["code"]] = localized_value(row, "name", lang)
    return names


def text_names(cards: Mapping[str, Mapping[str, Any]], lang: str) -> dict[str, str]:
    """The names a rules text in ``lang`` says (``rules.engine.text.card_text``'s ``names``): the
    catalogue's faction and race names (``display_names``: "an undead minion" where the
    catalogue says Undead / 亡灵, never the code) and each card's name from a frozen ``{code:
    card data}`` map — one lookup for the play log, a patch's rules text before → after and
    its download."""
    names = display_names(lang)
    names.update((code, localized_value(data, "name", lang) or str(code))
                 for code, data in cards.items())
    return names


def _kind_rule(kind: str, required: tuple[str, ...], forbidden: tuple[str, ...]) -> Q:
    """``kind != X OR (required fields set AND forbidden fields empty)``."""
    shape = Q()
    for name in required:
        shape &= Q(**{f"{name}__isnull": False})
    for name in forbidden:
        shape &= Q(**{f"{name}__isnull": True})
    return ~Q(kind=kind) | shape


# R1.4, as the engine reads it (ability_language.KIND_REQUIRED / KIND_FORBIDDEN).
KIND_SHAPES = {
    "hero": (("hp", "attribute"), ("cost", "attack")),
    "minion": (("cost", "attack", "attribute"), ("hp",)),
    "item": (("cost",), ("hp", "attack", "attribute", "faction", "race")),
}


# A card's printed fields are labelled by the engine's words (rules.engine.words.FIELD_WORDS),
# as inside a sentence ("cost"; "HP" as printed), so the admin and forms say what the pages say.
_FIELD = {code: game_word_lazy("field", code, prose=True)
          for code in ("kind", "rarity", "cost", "attack", "attribute", "faction", "race",
                       "keywords", "abilities")}
_FIELD["hp"] = game_word_lazy("field", "hp")


class Card(NamedInLanguages, models.Model):
    """One card as printed. ``abilities`` is effect-vocabulary data the engine validates."""

    # Not stored: what a page's rows carry, set by cards.selectors.cards_label (its game's
    # words) and the catalogue's views (links, alt text, the table's row).
    kind_label: str
    rarity_label: str
    href: str
    img: str
    alt: str
    row: SafeString

    code = models.CharField(_("code"), max_length=32, unique=True,
                            help_text=_("Stable identifier; decks and simulations refer to it."))
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards",
                                 verbose_name=_("set"))
    position = models.PositiveIntegerField(_("position"), default=0,
                                           help_text=_("Order within its set's file."))
    kind = models.CharField(_FIELD["kind"], max_length=16, choices=Kind.choices)
    names = names_field()
    rarity = models.CharField(_FIELD["rarity"], max_length=16, choices=Rarity.choices,
                              default=Rarity.N, blank=True)
    # False for the cards of other games: their kind and rarity are their game's words, and
    # the engine's shapes (R1.4) and validator do not apply to them.
    engine = models.BooleanField(_("engine"), default=True, editable=False)
    cost = models.PositiveSmallIntegerField(_FIELD["cost"], null=True, blank=True,
                                            help_text=_("Energy cost (minions and items)."))
    attack = models.PositiveSmallIntegerField(_FIELD["attack"], null=True, blank=True,
                                              help_text=_("Minions only."))
    hp = models.PositiveSmallIntegerField(_FIELD["hp"], null=True, blank=True,
                                          help_text=_("Heroes only."))
    # NULL, not "": an item has no attribute, and the check constraints say so with IS NULL.
    attribute = models.CharField(_FIELD["attribute"], max_length=8,  # noqa: DJ001
                                 choices=Attribute.choices, null=True, blank=True,
                                 help_text=_("Heroes and minions."))
    faction = models.ForeignKey(Faction, verbose_name=_FIELD["faction"], on_delete=models.PROTECT,
                                null=True, blank=True,
                                related_name="cards")
    race = models.ForeignKey(Race, verbose_name=_FIELD["race"], on_delete=models.PROTECT, null=True,
                             blank=True,
                             related_name="cards")
    keywords = models.JSONField(_FIELD["keywords"], default=list, blank=True,
                                help_text=_("Printed keywords, by code (the list is on "
                                            "the vocabulary page)."))
    abilities = models.JSONField(_FIELD["abilities"], default=list, blank=True,
                                 help_text=_("A list of abilities in the effect vocabulary."))
    # Derived from the data on save (see module docstring).
    texts = models.JSONField(_("rules text"), default=dict, blank=True, editable=False,
                             help_text=_("Generated from the data in each language with a "
                                         "rules-text grammar, by language code."))
    keyword_tags = models.CharField(_("keyword tags"), max_length=120, blank=True, editable=False,
                                    help_text=_("'|shield|react|': lets keyword filters be a "
                                              "substring match on every database."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("card")
        verbose_name_plural = gettext_lazy("cards")
        ordering = ["code"]
        indexes = [
            models.Index(fields=["kind", "attribute"]),
            models.Index(fields=["rarity"]),
            models.Index(fields=["cost"]),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(engine=False) | Q(kind__in=KINDS),
                                   name="card_kind_valid"),
            models.CheckConstraint(condition=Q(engine=False) | Q(rarity__in=RARITIES),
                                   name="card_rarity_valid"),
            models.CheckConstraint(condition=Q(attribute__isnull=True)
                                   | Q(attribute__in=ATTRIBUTES),
                                   name="card_attribute_valid"),
            *[models.CheckConstraint(condition=Q(engine=False) | _kind_rule(kind, req, forb),
                                     name=f"card_{kind}_shape")
              for kind, (req, forb) in KIND_SHAPES.items()],
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.display_name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Derived columns only; nothing else happens here (services hold the logic).
        refresh_derived(self, {lang: display_names(lang) for lang in written_languages()})
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "texts", "keyword_tags"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("cards:detail", args=[self.code])

    # The rules library reads a card (legality's ``CardLike``, the deck codecs' index,
    # decks.problem_text) with its names as the engine's data form spells them.
    @property
    def name_en(self) -> str:
        return self.english_name

    @property
    def name_zh(self) -> str:
        return data_form_names(self)["name_zh"]

    def image_url(self, lang: str = "en") -> str:
        url = reverse("cards:image", args=[self.code])
        return url if lang == "en" else f"{url}?lang={lang}"

    def to_data(self) -> dict[str, Any]:
        """The card's data form (as in the set file)."""
        return card_to_data(self)

    def to_def(self) -> CardDef:
        """The engine's frozen ``CardDef`` for this row (validated by the engine)."""
        return card_to_def(self)

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        """Another game's card has its game's kinds and tiers, not the model's choices (its
        game checks them in ``clean``)."""
        if not self.engine:
            exclude = {*(exclude or ()), "kind", "rarity"}
        super().clean_fields(exclude=exclude)

    def clean(self) -> None:
        """Run the engine's validator on the data form; each message lands on its field.
        Another game's card is checked against its game's kinds and rarity tiers instead."""
        if not self.engine:
            self._check_declared_kind_and_rarity()
            return
        errors = card_problems(self)
        if errors:
            raise ValidationError(errors)


    def _check_declared_kind_and_rarity(self) -> None:
        game = self.card_set.game if self.card_set_id else None
        if game is None:
            return
        errors = {}
        if not game.kinds.filter(code=self.kind).exists():
            errors["kind"] = MSG_NOT_GAME_KIND.format(value=self.kind, game=game.display_name)
        if self.rarity and not game.rarities.filter(code=self.rarity).exists():
            errors["rarity"] = MSG_NOT_GAME_RARITY.format(value=self.rarity,
                                                          game=game.display_name)
        if errors:
            raise ValidationError(errors)


MSG_NOT_GAME_KIND = _("'{value}' is not a card kind of {game}.")
MSG_NOT_GAME_RARITY = _("'{value}' is not a rarity tier of {game}.")


class CardStatsSlice(models.Model):
    """Per-card totals over simulated games, written by the simulation service (simulations):
    one row per card, agent, ruleset and card-data version, so the card page can show the
    figures of one level of play, one set of rules and one version of the card data.

    - ``agent``: the agent that played the card's deck ("" for totals recorded before
      agents, rulesets and versions were kept apart);
    - ``ruleset``: the ruleset options that differ from the standard rules ({} for them),
      ``ruleset_key`` names that set of options ("standard", a hash, or "" when not recorded);
    - ``card_data_version``: the catalogue's card-data version the games were played with;
    - per condition — drawn, in the opening hand, played, awakened — the games in which it
      happened and how many of those the card's deck won (draws count as not won);
      ``moments``: per condition, the pair moments of those games (``rules.lab.intervals``), for
      intervals on seat-swapped pairs ({} for totals recorded before);
    - ``times_drawn``, ``times_played``, ``times_awakened``: over all those games.

    Runs played with a balance patch are not counted: their cards are not the catalogue's.
    """

    card = models.ForeignKey(Card, verbose_name=_("card"), on_delete=models.CASCADE,
                             related_name="stat_slices")
    agent = models.CharField(_("agent"), max_length=20, blank=True)
    ruleset_key = models.CharField(_("ruleset key"), max_length=64, blank=True)
    ruleset = models.JSONField(_("ruleset"), default=dict, blank=True)
    card_data_version = models.CharField(_("card data version"), max_length=64, blank=True)
    times_drawn = models.PositiveIntegerField(_("times drawn"), default=0)
    times_played = models.PositiveIntegerField(_("times played"), default=0)
    times_awakened = models.PositiveIntegerField(_("times awakened"), default=0)
    games_drawn = models.PositiveIntegerField(_("games drawn"), default=0)
    wins_when_drawn = models.PositiveIntegerField(_("wins when drawn"), default=0)
    games_in_opening_hand = models.PositiveIntegerField(_("games in opening hand"), default=0)
    wins_in_opening_hand = models.PositiveIntegerField(_("wins in opening hand"), default=0)
    games_played_in = models.PositiveIntegerField(_("games played in"), default=0)
    wins_when_played = models.PositiveIntegerField(_("wins when played"), default=0)
    games_awakened = models.PositiveIntegerField(_("games awakened"), default=0)
    wins_when_awakened = models.PositiveIntegerField(_("wins when awakened"), default=0)
    moments = models.JSONField(_("moments"), default=dict, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("card stats")
        verbose_name_plural = gettext_lazy("card stats")
        constraints = [
            models.UniqueConstraint(fields=["card", "agent", "ruleset_key", "card_data_version"],
                                    name="cardstats_one_row_per_slice"),
            *(models.CheckConstraint(condition=Q(**{f"{wins}__lte": models.F(games)}),
                                     name=f"cardstats_{wins}_within_games")
              for games, wins in (("games_drawn", "wins_when_drawn"),
                                  ("games_in_opening_hand", "wins_in_opening_hand"),
                                  ("games_played_in", "wins_when_played"),
                                  ("games_awakened", "wins_when_awakened"))),
        ]

    def __str__(self) -> str:
        """The card by name (the admin titles its rows so; the columns say the slice)."""
        return self.card.display_name
