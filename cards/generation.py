"""The catalogue's generation: a token that changes whenever anything a catalogue page shows
changes (a card, its set, faction or race, a game's declared kinds or rarity tiers, a format),
so stored pages (common/page_cache.py) are keyed by it and never served stale.

It lives in the shared cache, so a card saved in the admin, by ``load_cards`` or by a worker
moves it for every web process at once. Every save and delete of the catalogue's models moves
it (signals); the services that write rows in bulk move it themselves. A token evicted from the
cache is simply replaced by a new one: pages render afresh, never from an older generation.
"""

from __future__ import annotations

import uuid
from typing import Protocol, cast

from django.apps import apps
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

GENERATION_KEY = "cards:catalogue-generation"
GENERATION_SECONDS = 30 * 24 * 3600


def catalogue_generation() -> str:
    """The current generation (one cache read)."""
    token = cache.get(GENERATION_KEY)
    if token is None:
        token = uuid.uuid4().hex[:16]
        if not cache.add(GENERATION_KEY, token, timeout=GENERATION_SECONDS):
            token = cache.get(GENERATION_KEY) or token
    return str(token)


class _ColumnCache(Protocol):
    """A cache that can be read inside another query (config.cache.SharedDatabaseCache)."""

    def decode(self, stored: object, *, using: str) -> object: ...


def catalogue_generation_column(*, using: str = "default") -> tuple[str, list[object]]:
    """An SQL expression (and its parameters) that reads the generation inside another query
    on database ``using``, so a page that reads a row of its own pays one round trip for both;
    ``catalogue_generation_read`` turns what it read into the generation. When the cache is not
    a table of that database the expression is NULL and the generation is read as usual."""
    column = getattr(cache, "value_column", None)
    found = column(GENERATION_KEY, using=using) if column is not None else None
    return found if found is not None else ("NULL", [])


def catalogue_generation_read(stored: object, *, using: str = "default") -> str:
    """The generation from what ``catalogue_generation_column`` read."""
    # Something was read only when the cache gave a column: it is a _ColumnCache then.
    token = cast(_ColumnCache, cache).decode(stored, using=using) if stored is not None else None
    return str(token) if token is not None else catalogue_generation()


def catalogue_changed(**_signal: object) -> None:
    """Move the generation now and again when the change commits: a page rendered by another
    process between the two, from rows not yet committed, is stored under a generation that is
    already past."""
    _bump()
    transaction.on_commit(_bump)


def _bump() -> None:
    cache.set(GENERATION_KEY, uuid.uuid4().hex[:16], timeout=GENERATION_SECONDS)


def watch_models(app_label: str) -> None:
    """Move the generation on every save, delete and many-to-many change of an app's models."""
    for model in apps.get_app_config(app_label).get_models():
        post_save.connect(catalogue_changed, sender=model, dispatch_uid=f"gen-save-{model}")
        post_delete.connect(catalogue_changed, sender=model, dispatch_uid=f"gen-del-{model}")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(catalogue_changed, sender=field.remote_field.through,
                                dispatch_uid=f"gen-m2m-{model}-{field.name}")
