"""The collection: one row per (user, card) with the copies the user owns.

Invariants: a row holds at least one copy (setting a count to 0 deletes the row); a user has
at most one row per card; services (``collection/services.py``) are the only writers. A
collection is private: only selectors that take the user asking read it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from cards.models import Card

MAX_COPIES = 999


class CollectionEntry(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="collection_entries")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="collection_entries")
    count = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("collection entry")
        verbose_name_plural = gettext_lazy("collection entries")
        ordering = ["user", "card__code"]
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="collection_entry_unique"),
            models.CheckConstraint(condition=Q(count__gte=1) & Q(count__lte=MAX_COPIES),
                                   name="collection_entry_count_range"),
        ]

    def __str__(self) -> str:
        return f"{self.count}x {self.card_id}"


class CollectionVersion(models.Model):
    """A user's collection's change counter: every write of the collection adds one in its own
    transaction. A page reads it before the counts it shows and sends it with them, so of two
    answers about one card the page keeps the newer, whatever order they arrive in."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="collection_version")
    number = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = gettext_lazy("collection version")
        verbose_name_plural = gettext_lazy("collection versions")

    def __str__(self) -> str:
        return str(self.number)
