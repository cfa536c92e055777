"""The deck list filters, one definition for the public deck page and the API: name, hero,
attribute, cards contained, format, tag, "mine", "active" and "buildable" (from the visitor's
own collection, through ``cards.ownership``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict

import django_filters
from django.db.models import Exists, OuterRef, Q, QuerySet, Sum
from django.utils.translation import gettext_lazy as _

from cards.models import Attribute
from cards.ownership import owned_counts
from common.language import text_in_any_language
from decks.models import Deck, DeckEntry, Format

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

ORDER_CHOICES = [("-updated", _("Recently updated")), ("name", _("Name (A–Z)")),
                 ("-created", _("Newest")), ("created", _("Oldest"))]
ORDER_FIELDS = {"-updated": ("-updated_at", "-id"), "name": ("name", "id"),
                "-created": ("-created_at", "-id"), "created": ("created_at", "id")}


def _card_q(term: str) -> Q:
    return Q(card__code__iexact=term) | text_in_any_language(term, path="card__")


class DeckFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label=_("Name"),
                                  max_length=100)
    hero = django_filters.CharFilter(method="filter_hero", max_length=100,
                                     label=_("Hero (code or name)"))
    attribute = django_filters.ChoiceFilter(
        choices=Attribute.choices, method="filter_attribute",
        label=_("Attribute (the hero's or any minion's)"))
    card = django_filters.CharFilter(
        method="filter_card", max_length=300,
        label=_("Contains cards (codes or names, comma-separated; all must be in the deck)"))
    format = django_filters.ModelChoiceFilter(field_name="format", to_field_name="code",
                                              queryset=Format.objects.all(), label=_("Format"))
    tag = django_filters.CharFilter(field_name="tags__slug", method="filter_tag",
                                    max_length=30, label=_("Tag"))
    mine = django_filters.BooleanFilter(method="filter_mine", label=_("Only my decks"))
    active = django_filters.BooleanFilter(method="filter_active",
                                          label=_("Only my active decks"))
    buildable = django_filters.BooleanFilter(
        method="filter_buildable", label=_("Only decks I can build from my collection"))
    order = django_filters.ChoiceFilter(choices=ORDER_CHOICES, method="filter_order",
                                        label=_("Sort by"), empty_label=None)

    class Meta:
        model = Deck
        fields: list[str] = []

    def filter_hero(self, qs: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        value = value.strip()
        if not value:
            return qs
        return qs.filter(Q(hero__code__iexact=value)
                         | text_in_any_language(value, path="hero__"))

    def filter_attribute(self, qs: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        if not value:
            return qs
        minion = DeckEntry.objects.filter(deck=OuterRef("pk"), card__kind="minion",
                                          card__attribute=value)
        return qs.filter(Q(hero__attribute=value) | Exists(minion))

    def filter_card(self, qs: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        for term in [t.strip() for t in value.split(",") if t.strip()][:10]:
            qs = qs.filter(Exists(DeckEntry.objects.filter(_card_q(term), deck=OuterRef("pk"))))
        return qs

    def filter_mine(self, qs: QuerySet[Deck], name: str, value: bool | None) -> QuerySet[Deck]:
        user = getattr(self.request, "user", None)
        if not value:
            return qs
        if user is None or not user.is_authenticated:
            return qs.none()
        return qs.filter(owner=user)

    def filter_tag(self, qs: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        value = value.strip().lower().lstrip("#")
        return qs.filter(tags__slug=value) if value else qs

    def filter_active(self, qs: QuerySet[Deck], name: str, value: bool | None) -> QuerySet[Deck]:
        if not value:
            return qs
        return self.filter_mine(qs, name, True).filter(active=True)

    def filter_buildable(self, qs: QuerySet[Deck], name: str, value: bool | None) -> QuerySet[Deck]:
        if value is None:
            return qs
        short = Exists(entries_short(owned_counts(getattr(self.request, "user", None))))
        hero = Q(hero__isnull=True) | Q(hero__code__in=sorted(
            owned_counts(getattr(self.request, "user", None))))
        buildable = ~short & hero
        return qs.filter(buildable) if value else qs.exclude(buildable)

    def filter_order(self, qs: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        return qs.order_by(*ORDER_FIELDS.get(value or "-updated", ORDER_FIELDS["-updated"]))


class ShortTotal(TypedDict):
    total: int


class ShortCard(TypedDict):
    card__code: str
    total: int   # copies of the card over the deck's piles


def entries_short(owned: Mapping[str, int]
                  ) -> QuerySet[WithAnnotations[DeckEntry, ShortTotal], ShortCard]:
    """The cards of a deck (``OuterRef("pk")``) that need more copies, over all its piles,
    than ``owned`` holds: one HAVING clause per distinct owned count (a handful)."""
    by_count: dict[int, list[str]] = {}
    for code, count in owned.items():
        by_count.setdefault(count, []).append(code)
    short = ~Q(card__code__in=sorted(owned))
    for count, codes in by_count.items():
        short |= Q(card__code__in=sorted(codes), total__gt=count)
    return (DeckEntry.objects.filter(deck=OuterRef("pk")).order_by().values("card__code")
            .annotate(total=Sum("count")).filter(short))
