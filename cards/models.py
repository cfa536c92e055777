"""Catalogue models: card sets, factions, races, cards (abilities as data) and per-card
simulated stats.

Invariants:
- ``Card.code`` is unique and stable: decks, simulation runs and URLs refer to cards by it.
- What each kind must and must not have (RULES.md R1.4) is enforced twice: by database check
  constraints (no row can break it, whatever writes it) and by ``clean()``, which runs the
  engine's own validator so a form shows the engine's message on the field.
- ``text_en``/``text_zh`` (the generated rules text) and ``keyword_tags`` are derived from the
  data; ``save()`` refreshes them, so rules-text search is a plain database query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse

from rules.engine.cards import ATTRIBUTES, KEYWORDS, KINDS, RARITIES

if TYPE_CHECKING:
    from rules.engine.cards import CardDef


class Kind(models.TextChoices):
    HERO = "hero", "Hero"
    MINION = "minion", "Minion"
    ITEM = "item", "Item"


class Attribute(models.TextChoices):
    FIRE = "fire", "Fire"
    GRASS = "grass", "Grass"
    WATER = "water", "Water"
    LIGHT = "light", "Light"
    DARK = "dark", "Dark"


class Rarity(models.TextChoices):
    N = "N", "N"
    R = "R", "R"
    SR = "SR", "SR"
    SSR = "SSR", "SSR"
    UR = "UR", "UR"


KEYWORD_CHOICES = [(k, {"react": "Re-act"}.get(k, k.capitalize())) for k in KEYWORDS]

# The model's choices are the engine's vocabulary; a mismatch would be a silent drift.
assert tuple(Kind.values) == KINDS
assert tuple(Attribute.values) == ATTRIBUTES
assert tuple(Rarity.values) == RARITIES

RARITY_RANK = {code: rank for rank, code in enumerate(RARITIES)}


class CardSet(models.Model):
    """A released set of cards (the shipped file's ``set:`` header and its starter decks)."""

    code = models.CharField(max_length=32, unique=True)
    name_en = models.CharField("English name", max_length=120)
    name_zh = models.CharField("Chinese name", max_length=120, blank=True)
    # The file's ``decks:`` list, kept as written so an export round-trips the shipped file.
    starter_decks = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} — {self.name_en}"


class _Named(models.Model):
    """A designer-defined tag (faction, race): a stable code and display names."""

    code = models.SlugField(max_length=40, unique=True)
    name_en = models.CharField("English name", max_length=80)
    name_zh = models.CharField("Chinese name", max_length=80, blank=True)

    class Meta:
        abstract = True
        ordering = ["name_en"]

    def __str__(self) -> str:
        return self.name_en


class Faction(_Named):
    class Meta(_Named.Meta):
        pass


class Race(_Named):
    class Meta(_Named.Meta):
        pass


def _kind_rule(kind: str, required: tuple[str, ...], forbidden: tuple[str, ...]) -> Q:
    """``kind != X OR (required fields set AND forbidden fields empty)``."""
    shape = Q()
    for name in required:
        shape &= Q(**{f"{name}__isnull": False})
    for name in forbidden:
        shape &= Q(**{f"{name}__isnull": True})
    return ~Q(kind=kind) | shape


# R1.4, as the engine reads it (vocabulary.KIND_REQUIRED / KIND_FORBIDDEN).
KIND_SHAPES = {
    "hero": (("hp", "attribute"), ("cost", "attack")),
    "minion": (("cost", "attack", "attribute"), ("hp",)),
    "item": (("cost",), ("hp", "attack", "attribute", "faction", "race")),
}


class Card(models.Model):
    """One card as printed. ``abilities`` is effect-vocabulary data the engine validates."""

    code = models.CharField(max_length=32, unique=True,
                            help_text="Stable identifier; decks and simulations refer to it.")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards",
                                 verbose_name="set")
    position = models.PositiveIntegerField(default=0, help_text="Order within its set's file.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name_en = models.CharField("English name", max_length=120)
    name_zh = models.CharField("Chinese name", max_length=120)
    rarity = models.CharField(max_length=3, choices=Rarity.choices, default=Rarity.N)
    cost = models.PositiveSmallIntegerField(null=True, blank=True,
                                            help_text="Energy cost (minions and items).")
    attack = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Minions only.")
    hp = models.PositiveSmallIntegerField("HP", null=True, blank=True, help_text="Heroes only.")
    # NULL, not "": an item has no attribute, and the check constraints say so with IS NULL.
    attribute = models.CharField(max_length=8, choices=Attribute.choices, null=True,  # noqa: DJ001
                                 blank=True, help_text="Heroes and minions.")
    faction = models.ForeignKey(Faction, on_delete=models.PROTECT, null=True, blank=True,
                                related_name="cards")
    race = models.ForeignKey(Race, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="cards")
    keywords = models.JSONField(default=list, blank=True,
                                help_text="Printed keywords: shield, react, regenerate.")
    abilities = models.JSONField(default=list, blank=True,
                                 help_text="A list of abilities in the effect vocabulary.")
    # Derived from the data on save (see module docstring).
    text_en = models.TextField("rules text (EN)", blank=True, editable=False)
    text_zh = models.TextField("rules text (ZH)", blank=True, editable=False)
    keyword_tags = models.CharField(max_length=120, blank=True, editable=False,
                                    help_text="'|shield|react|': lets keyword filters be a "
                                              "substring match on every database.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["code"]
        indexes = [
            models.Index(fields=["kind", "attribute"]),
            models.Index(fields=["rarity"]),
            models.Index(fields=["cost"]),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=KINDS), name="card_kind_valid"),
            models.CheckConstraint(condition=Q(rarity__in=RARITIES), name="card_rarity_valid"),
            models.CheckConstraint(condition=Q(attribute__isnull=True)
                                   | Q(attribute__in=ATTRIBUTES),
                                   name="card_attribute_valid"),
            *[models.CheckConstraint(condition=_kind_rule(kind, req, forb),
                                     name=f"card_{kind}_shape")
              for kind, (req, forb) in KIND_SHAPES.items()],
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name_en}"

    def save(self, *args, **kwargs) -> None:
        # Derived columns only; nothing else happens here (services hold the logic).
        from cards.adapters import refresh_derived

        refresh_derived(self)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "text_en", "text_zh", "keyword_tags"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("cards:detail", args=[self.code])

    def image_url(self, lang: str = "en") -> str:
        url = reverse("cards:image", args=[self.code])
        return url if lang == "en" else f"{url}?lang={lang}"

    @property
    def rarity_rank(self) -> int:
        return RARITY_RANK[self.rarity]

    def to_data(self) -> dict:
        """The card's data form (as in the set file)."""
        from cards.adapters import card_to_data

        return card_to_data(self)

    def to_def(self) -> CardDef:
        """The engine's frozen ``CardDef`` for this row (validated by the engine)."""
        from cards.adapters import card_to_def

        return card_to_def(self)

    def clean(self) -> None:
        """Run the engine's validator on the data form; each message lands on its field."""
        from cards.adapters import card_problems

        errors = card_problems(self)
        if errors:
            raise ValidationError(errors)


class CardStats(models.Model):
    """Per-card totals over every simulated game, written by the simulation service (simulations).

    - ``games_played_in``: simulated games in which the card was played at least once
      (a minion placed or an item used);
    - ``times_played``: how many times it was played, over all those games;
    - ``times_awakened``: how many times it was awakened (minions);
    - ``wins_when_played``: of ``games_played_in``, the games its player won.
    """

    card = models.OneToOneField(Card, on_delete=models.CASCADE, primary_key=True,
                                related_name="stats")
    games_played_in = models.PositiveIntegerField(default=0)
    times_played = models.PositiveIntegerField(default=0)
    times_awakened = models.PositiveIntegerField(default=0)
    wins_when_played = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "card stats"
        verbose_name_plural = "card stats"
        constraints = [
            models.CheckConstraint(condition=Q(wins_when_played__lte=models.F("games_played_in")),
                                   name="cardstats_wins_within_games"),
        ]

    def __str__(self) -> str:
        return f"stats of {self.card_id}"

    @property
    def win_rate_when_played(self) -> float | None:
        return self.wins_when_played / self.games_played_in if self.games_played_in else None

    @property
    def plays_per_game(self) -> float | None:
        return self.times_played / self.games_played_in if self.games_played_in else None
