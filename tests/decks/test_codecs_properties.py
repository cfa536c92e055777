"""Property tests of the deck codecs (pure, no database): every format round-trips, and no
input makes an importer raise anything but its own DeckImportError."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from decks.codecs import (
    CODECS,
    CardIndex,
    DeckImportError,
    ImportLimits,
    clean_name,
    export_deck,
    import_deck,
)
from decks.codecs.deckcode import read_deck_code
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.deckcode import encode_deck_code
from rules.decks.legality import Deck

TEST_INDEX = CardIndex(load_card_set(TEST_SET).cards.values())
PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class FakeCard:
    code: str
    kind: str
    name_en: str
    name_zh: str
    rarity: str = "N"
    cost: int = 1


codes = st.from_regex(r"[A-Z][A-Z0-9-]{0,6}", fullmatch=True)
names = st.text(min_size=0, max_size=24)


@st.composite
def universes(draw) -> list[FakeCard]:
    card_codes = draw(st.lists(codes, min_size=1, max_size=12, unique=True))
    return [FakeCard(code, draw(st.sampled_from(["hero", "minion", "item"])), draw(names),
                     draw(names), cost=draw(st.integers(0, 9))) for code in card_codes]


@st.composite
def decks_in(draw, universe: list[FakeCard]) -> Deck:
    all_codes = [c.code for c in universe]
    heroes = draw(st.lists(st.sampled_from(all_codes), max_size=2))
    counts = draw(st.dictionaries(st.sampled_from(all_codes), st.integers(1, 40),
                                  max_size=8))
    name = clean_name(draw(st.text(max_size=40)))
    return Deck(heroes=tuple(heroes), counts=counts, name=name)


def roundtrip_limits() -> ImportLimits:
    return ImportLimits(max_cards=10_000)


@PROPERTY
@pytest.mark.parametrize("format_name", sorted(CODECS))
@given(data=st.data())
def test_export_then_import_gives_the_same_deck(format_name, data):
    universe = data.draw(universes())
    deck = data.draw(decks_in(universe))
    index = CardIndex(universe)
    fmt = data.draw(st.sampled_from([None, "standard", "club-2"]))
    written = export_deck(deck, format_name, index, format_code=fmt)
    again = import_deck(written, index, format_name, roundtrip_limits())
    assert again.deck.heroes == deck.heroes
    assert again.deck.counts == deck.counts
    assert again.format_code == fmt
    if format_name != "code":
        assert again.deck.name == deck.name
    # Detection finds the right reader for every export (a code may also read as text).
    assert import_deck(written, index, "auto", roundtrip_limits()).deck.counts == deck.counts


def test_names_that_read_as_other_cards_fall_back_to_codes():
    universe = [FakeCard("A1", "minion", "B2", "x"), FakeCard("B2", "minion", "3x A1", "y"),
                FakeCard("C3", "minion", "Twin", "t"), FakeCard("D4", "item", "twin", "t2"),
                FakeCard("H1", "hero", "", "")]
    index = CardIndex(universe)
    deck = Deck(heroes=("H1",), counts={"A1": 1, "B2": 3, "C3": 2, "D4": 1, "H1": 2}, name="n")
    for name in CODECS:
        written = export_deck(deck, name, index)
        assert import_deck(written, index, name).deck.counts == deck.counts
    text = export_deck(deck, "text", index)
    # A1 is called "B2", which reads as the code B2: written by code. B2 is called "3x A1",
    # which still reads back as B2. "twin" is a printing of "Twin" (lowest code wins): by code.
    assert "1x A1" in text and "3x 3x A1" in text and "2x Twin" in text and "1x D4" in text
    assert "Hero: H1" in text and "2x H1" in text


@PROPERTY
@given(deck=decks_in([FakeCard(c, "minion", c, c) for c in TEST_INDEX.cards]))
def test_the_real_set_round_trips_through_every_format(deck):
    for name in CODECS:
        written = export_deck(deck, name, TEST_INDEX, format_code="standard")
        again = import_deck(written, TEST_INDEX, name, roundtrip_limits()).deck
        assert (again.heroes, again.counts) == (deck.heroes, deck.counts)


ANY_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(["3x Ember Pup", "Hero: Flame Warden", "x3", "０x", "#", "Deck:",
                              "{", "}", "[", "\"cards\"", ",", "section,count,code", "card,2,",
                              "T-M01", "99999999999999x Fire Bolt", "\r\n", "\n", "Ｘ",
                              "AQhz", "=", "'", "\x00", "张", "Night Wyrm x", "英雄："]),
             max_size=30).map("".join),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
)


@settings(max_examples=400, deadline=None)
@pytest.mark.parametrize("format_name", ["auto", *sorted(CODECS)])
@given(text=ANY_TEXT)
def test_any_input_gives_a_deck_or_the_parsers_own_error(format_name, text):
    try:
        result = import_deck(text, TEST_INDEX, format_name)
    except DeckImportError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
        assert exc.status in (400, 413)
        return
    assert all(code in TEST_INDEX for code in (*result.deck.heroes, *result.deck.counts))
    assert all(1 <= n <= 99 for n in result.deck.counts.values())


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=120))
def test_any_bytes_as_a_deck_code_decode_or_fail_cleanly(data):
    import base64

    text = base64.urlsafe_b64encode(data).decode().rstrip("=")
    try:
        read_deck_code(text)
    except DeckImportError:
        pass


@PROPERTY
@given(deck=decks_in([FakeCard(f"C{i}", "minion", f"n{i}", f"n{i}") for i in range(30)]))
def test_a_deck_has_exactly_one_code(deck):
    code = encode_deck_code(deck)
    decoded = read_deck_code(code)
    again = Deck(heroes=decoded.heroes, counts=decoded.counts)
    assert encode_deck_code(again) == code
    shuffled = Deck(heroes=deck.heroes, counts=dict(reversed(list(deck.counts.items()))))
    assert encode_deck_code(shuffled) == code


@PROPERTY
@given(name=st.text(max_size=60))
def test_clean_names_are_stable_and_single_line(name):
    cleaned = clean_name(name)
    assert clean_name(cleaned) == cleaned
    assert len(cleaned.splitlines()) <= 1
    assume(cleaned)
    assert cleaned == cleaned.strip()
