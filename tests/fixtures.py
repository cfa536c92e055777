"""Fixtures and data shared by the deck and simulation tests: users, the 22-card test set in
the catalogue, a legal standard deck, and an empty cache per test (so log-in, import and
submission throttles never carry over). Conftests import the fixtures they want from here."""

from __future__ import annotations

import uuid

import factory
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from cards.services import card_set_import
from common.page_cache import clear_stored_pages
from rules.decks.cardset import TEST_SET

PASSWORD = "a-Long-and-unusual-passphrase-42"
# Ten non-UR minions and items, three of each: a legal 30-card standard deck.
LEGAL_CARDS = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                    "T-M07", "T-I01", "T-I02", "T-I03")}


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):
        if create:
            obj.save()


@pytest.fixture(autouse=True)
def _empty_cache(request):
    """An empty cache before and after a test that uses the database. The cache may itself be a
    database table (the default without Redis), so the database is set up first; tests without
    a database use no throttle either."""
    for name in ("transactional_db", "db"):
        if name in request.fixturenames:
            request.getfixturevalue(name)
            break
    else:
        if request.node.get_closest_marker("django_db") is None:
            yield
            return
    _clear_caches()
    yield
    _clear_caches()


def _clear_caches() -> None:
    cache.clear()
    clear_stored_pages()   # the pages each process keeps (common/page_cache.py)


@pytest.fixture
def catalogue(db):
    """The test set, loaded through the catalogue's own import service."""
    return card_set_import(source=TEST_SET)


@pytest.fixture
def alice(db):
    return UserFactory(username="alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob")


@pytest.fixture
def unique_queue(settings):
    """A broker queue of this test's own, so no other worker on the machine takes its tasks."""
    name = f"cardlab-test-{uuid.uuid4().hex[:12]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = name
    return name
