"""Deck services and selectors: saving keeps versions, restore, fork, compare, visibility."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from decks import services
from decks.drafts import Draft
from decks.models import Deck, DeckVersion, Format
from decks.selectors import (
    deck_compare,
    deck_get,
    deck_history,
    deck_view,
    decks_listed,
    draft_from_deck,
)
from decks.services import DeckInputError, deck_fork, deck_restore, deck_save
from tests.decks.conftest import LEGAL_CARDS, legal_draft

pytestmark = pytest.mark.django_db


def test_the_standard_format_is_r5_created_by_a_migration():
    """Rule: R5.1, R5.2, R5.3, R5.4"""
    fmt = Format.objects.get(code="standard")
    assert (fmt.hero_count, fmt.deck_min, fmt.deck_max) == (1, 30, 30)
    assert fmt.deck_kinds() == ("minion", "item")
    assert fmt.copy_limits() == {"N": 3, "R": 3, "SR": 3, "SSR": 3, "UR": 1}
    assert not fmt.card_limits.exists() and not fmt.legal_sets.exists()


def test_creating_a_deck_keeps_version_one(alice, make_deck):
    deck = make_deck(alice)
    assert deck.owner == alice and deck.format.code == "standard" and deck.hero.code == "T-H01"
    assert {e.card.code: e.count for e in deck.entries.all()} == LEGAL_CARDS
    [version] = deck.versions.all()
    assert version.number == 1 and version.cards == LEGAL_CARDS and version.note == "Created"


def test_every_save_keeps_a_version_with_what_changed(alice, make_deck):
    deck = make_deck(alice)
    changed = dict(LEGAL_CARDS, **{"T-M01": 1, "T-M12": 1})
    changed.pop("T-I03")
    version = deck_save(deck=deck, by=alice, draft=legal_draft(cards=changed))
    assert version.number == 2
    history = deck_history(deck=deck)
    assert [row.version.number for row in history] == [2, 1]
    assert [str(c) for c in history[0].changes] == ["+1 Night Wyrm", "−3 Battle Cry",
                                                    "−2 Ember Pup"]
    assert history[1].other == ["created"]


def test_saving_the_same_content_adds_no_version(alice, make_deck):
    deck = make_deck(alice)
    assert deck_save(deck=deck, by=alice, draft=legal_draft()) is None
    assert deck.versions.count() == 1


def test_restore_appends_a_version_equal_to_the_old_one(alice, make_deck):
    deck = make_deck(alice)
    deck_save(deck=deck, by=alice, draft=legal_draft(cards={"T-M01": 2}, name="Tiny"))
    restored = deck_restore(deck=Deck.objects.get(pk=deck.pk), number=1, by=alice)
    assert restored.number == 3 and restored.cards == LEGAL_CARDS
    assert restored.note == "Restored version 1"
    deck = Deck.objects.get(pk=deck.pk)
    assert deck.name == "Ember Rush" and deck.entries.count() == 10
    assert list(deck.versions.values_list("number", flat=True)) == [3, 2, 1]
    with pytest.raises(DeckInputError, match="no version 9"):
        deck_restore(deck=deck, number=9, by=alice)


def test_fork_copies_a_visible_deck_as_the_forkers_private_deck(alice, bob, make_deck):
    original = make_deck(alice, visibility="public")
    fork = deck_fork(deck=original, by=bob)
    assert fork.owner == bob and fork.visibility == "private"
    assert fork.forked_from == original and fork.name == "Ember Rush (fork)"
    assert draft_from_deck(fork).cards == LEGAL_CARDS
    assert fork.versions.get().note == "Forked from “Ember Rush”"


def test_input_that_cannot_be_a_deck_is_refused_naming_every_problem(alice, catalogue):
    draft = Draft(hero="NOPE", cards={"T-M01": 120, "ZZ": 1}, format_code="modern")
    with pytest.raises(DeckInputError) as caught:
        services.deck_create(owner=alice, draft=draft)
    assert caught.value.errors == {
        "format": ["There is no format 'modern'; choose one of: standard."],
        "cards": ["T-M01: 120 copies — a count is a whole number from 1 to 99.",
                  "No card has the code 'ZZ'."],
        "hero": ["No card has the code 'NOPE' (hero)."],
    }
    assert not Deck.objects.exists()


def test_illegal_decks_can_be_saved_and_report_their_problems(alice, catalogue):
    deck = services.deck_create(owner=alice, draft=Draft(cards={"T-M12": 2}))
    assert deck.name == "Untitled deck"
    view = deck_view(draft_from_deck(deck))
    assert [p.code for p in view.problems] == ["hero_missing", "deck_too_small", "copy_limit"]


def test_a_format_ban_list_reaches_legality(alice, make_deck, catalogue):
    from cards.models import Card

    fmt = Format.objects.get(code="standard")
    fmt.card_limits.create(card=Card.objects.get(code="T-M01"), limit=0)
    view = deck_view(draft_from_deck(make_deck(alice)))
    assert [(p.code, p.fix) for p in view.problems] == [("banned", "remove 3 × Ember Pup")]


def test_private_decks_are_invisible_to_others_and_lists_show_own_and_public(alice, bob,
                                                                            make_deck):
    private = make_deck(alice)
    unlisted = make_deck(alice, visibility="unlisted")
    public = make_deck(alice, visibility="public")
    bobs = make_deck(bob)
    with pytest.raises(Deck.DoesNotExist):
        deck_get(uid=private.uid, user=bob)
    assert deck_get(uid=unlisted.uid, user=bob) == unlisted
    with pytest.raises(PermissionDenied):
        deck_get(uid=public.uid, user=bob, edit=True)
    assert set(decks_listed(bob)) == {public, bobs}
    assert set(decks_listed(None)) == {public}
    assert set(decks_listed(alice)) == {private, unlisted, public}


def test_compare_two_decks_side_by_side(alice, make_deck):
    a = make_deck(alice)
    b = make_deck(alice, cards={"T-M01": 1, "T-M12": 1})
    result = deck_compare(a=deck_get(uid=a.uid, user=alice), b=deck_get(uid=b.uid, user=alice))
    rows = {code: (x, y) for _, code, x, y, _ in result.rows()}
    assert rows["T-M01"] == (3, 1) and rows["T-M12"] == (0, 1) and rows["T-I03"] == (3, 0)
    assert result.comparison.only_a == 29 and result.comparison.only_b == 1


def test_versions_outlive_entries(alice, make_deck):
    deck = make_deck(alice)
    deck_save(deck=deck, by=alice, draft=legal_draft(cards={}))
    assert DeckVersion.objects.get(deck=deck, number=1).cards == LEGAL_CARDS


def test_the_standard_format_comes_back_if_every_format_was_deleted(catalogue):
    """Rule: R5"""
    from decks.selectors import format_default

    Format.objects.all().delete()
    fmt = format_default()
    assert fmt.code == "standard" and fmt.deck_kinds() == ("minion", "item")
    assert fmt.copy_limits()["UR"] == 1


def test_a_standard_deck_can_be_created_even_after_the_formats_were_deleted(alice, catalogue):
    """Rule: R5"""
    Format.objects.all().delete()
    deck = services.deck_create(owner=alice, draft=legal_draft())
    assert deck.format.code == "standard"


def test_a_format_limited_to_other_sets_reports_every_card_from_elsewhere(alice, make_deck):
    """Rule: R5"""
    from cards.models import Card, CardSet

    other = CardSet.objects.create(code="NEXT", names={"en": "Next Set"})
    fmt = Format.objects.create(code="next-only", name="Next only")
    fmt.legal_sets.add(other)
    fmt.card_limits.create(card=Card.objects.get(code="T-M02"), limit=1)
    view = deck_view(draft_from_deck(make_deck(alice)), fmt=fmt)
    codes = [p.code for p in view.problems]
    assert codes.count("set_not_legal") == 11 and codes.count("restricted") == 1
