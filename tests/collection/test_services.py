"""The collection's services and selectors: counts, steps, whole sets, imports through the
deck importer's reader, what a deck lacks and what active decks claim together."""

from __future__ import annotations

import pytest

from cards.models import Card
from collection.selectors import (
    active_deck_claims,
    collection_counts,
    collection_set_totals,
    deck_missing,
)
from collection.services import (
    COUNT_RANGE,
    NO_SUCH_SET,
    CollectionInputError,
    collection_card_add,
    collection_card_set,
    collection_set_add,
)
from collection.transfer import collection_export, collection_import, list_counts, shopping_list
from decks.codecs import DeckImportError
from decks.sharing.services import deck_active_set
from tests.fixtures import LEGAL_CARDS


def card(code: str) -> Card:
    return Card.objects.get(code=code)


def test_a_count_is_set_stepped_and_forgotten_at_zero(alice, catalogue):
    collection_card_set(user=alice, card=card("T-M01"), count=2)
    assert collection_card_add(user=alice, card=card("T-M01"), delta=1) == 3
    assert collection_counts(user=alice) == {"T-M01": 3}
    collection_card_add(user=alice, card=card("T-M01"), delta=-1)
    collection_card_set(user=alice, card=card("T-M01"), count="0")
    assert collection_counts(user=alice) == {}
    assert collection_card_add(user=alice, card=card("T-M01"), delta=-1) == 0   # never below


@pytest.mark.parametrize("bad", ["-1", "1000", "three", ""])
def test_a_count_out_of_range_is_refused_saying_the_range(alice, catalogue, bad):
    with pytest.raises(CollectionInputError) as refused:
        collection_card_set(user=alice, card=card("T-M01"), count=bad)
    assert str(refused.value) == COUNT_RANGE.format(limit=999, value=bad)


def test_a_whole_set_adds_copies_of_each_of_its_cards(alice, catalogue):
    collection_card_set(user=alice, card=card("T-M01"), count=1)
    added = collection_set_add(user=alice, set_code="TEST", copies=2)
    counts = collection_counts(user=alice)
    assert counts["T-M01"] == 3 and counts["T-M02"] == 2
    assert len(counts) == Card.objects.filter(card_set__code="TEST").count() == added.changed
    (total,) = [t for t in collection_set_totals(user=alice) if t.card_set.code == "TEST"]
    assert total.complete and total.copies == sum(counts.values())
    with pytest.raises(CollectionInputError, match="NOPE"):
        collection_set_add(user=alice, set_code="NOPE")
    assert str(NO_SUCH_SET).startswith("There is no card set")


def test_import_reads_names_in_either_language_and_adds_to_the_counts(alice, catalogue):
    collection_card_set(user=alice, card=card("T-M01"), count=1)
    result = collection_import(user=alice, text="2x Ember Pup\n3 荆棘野猪\nHero: Flame Warden\n")
    assert collection_counts(user=alice) == {"T-M01": 3, "T-M02": 3, "T-H01": 1}
    assert (result.cards, result.copies, result.changed) == (3, 6, 3)


def test_import_names_every_bad_line_with_suggestions_and_changes_nothing(alice, catalogue):
    with pytest.raises(DeckImportError) as refused:
        collection_import(user=alice, text="2x Ember Pupp\n1 Thorn Boar\nfoo bar baz\n")
    problems = refused.value.problems
    assert [p.line for p in problems] == [1, 3]
    assert "Ember Pup" in problems[0].suggestions
    assert collection_counts(user=alice) == {}


def test_export_as_text_and_csv_reads_back_exactly(alice, bob, catalogue):
    collection_import(user=alice, text="3x Ember Pup\n1 Flame Warden\n12 T-I01\n")
    for name in ("text", "csv"):
        listing = collection_export(user=alice, format_name=name)
        collection_import(user=bob, text=listing.content, format_name=name, replace=True)
        assert collection_counts(user=bob) == collection_counts(user=alice)
        assert listing.filename.startswith("collection-alice.")


def test_replace_makes_the_collection_exactly_the_list(alice, catalogue):
    collection_import(user=alice, text="3x Ember Pup\n2 Thorn Boar\n")
    collection_import(user=alice, text="1 Thorn Boar\n", replace=True)
    assert collection_counts(user=alice) == {"T-M02": 1}


def test_an_empty_list_is_refused_saying_what_to_paste(alice, catalogue):
    with pytest.raises(DeckImportError, match="nothing to import"):
        list_counts("  \n# only a comment\n")


def test_a_deck_lacks_what_the_collection_does_not_cover(alice, make_deck):
    deck = make_deck(alice)
    collection_import(user=alice, text="3x Ember Pup\n1x Thorn Boar\n")
    missing = {row.card.code: (row.need, row.owned, row.missing)
               for row in deck_missing(deck=deck, user=alice)}
    assert missing["T-M02"] == (3, 1, 2)
    assert missing["T-H01"] == (1, 0, 1)               # the hero is a card too
    assert "T-M01" not in missing
    assert sum(r.missing for r in deck_missing(deck=deck, user=alice)) == 30 - 4 + 1
    text = shopping_list(deck=deck, user=alice, format_name="text").content
    assert "2x Thorn Boar" in text and "Ember Pup" not in text


def test_active_decks_claiming_one_card_beyond_the_copies_owned(alice, make_deck):
    ember = make_deck(alice, name="Ember Rush")
    tide = make_deck(alice, name="Tidewall", hero="T-H02")
    idle = make_deck(alice, name="Idle")
    collection_import(user=alice, text="\n".join(f"{n}x {code}"
                                                 for code, n in LEGAL_CARDS.items()))
    collection_card_set(user=alice, card=card("T-M01"), count=4)
    assert active_deck_claims(user=alice) == []         # no deck active yet
    for deck in (ember, tide):
        deck_active_set(deck=deck, active=True)
    claims = {c.card.code: c for c in active_deck_claims(user=alice)}
    blazing = claims["T-M01"]
    assert [(d.name, n) for d, n in blazing.decks] == [("Ember Rush", 3), ("Tidewall", 3)]
    assert (blazing.needed, blazing.owned, blazing.short) == (6, 4, 2)
    assert idle.name not in {d.name for c in claims.values() for d, _n in c.decks}
