"""Fuzzing at depth (marked ``fuzz``; ``.ci/run`` runs ``./test.sh -m fuzz``): hypothesis over the
text, deck-code, CSV and JSON importers and the catalogue's query language, with a large budget
(``CARDLAB_FUZZ_EXAMPLES`` examples per property, 2000 by default).

Each parser either returns its result or raises its own error — never anything else — and every
error says where: an importer's problems name their line (and column where it has one: bad
characters, JSON syntax), or a path inside a JSON file, unless the problem is about the whole
input (too large, too many cards); a query error names its position inside the query.
"""

from __future__ import annotations

import base64
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.query import QuerySyntaxError, parse
from decks.codecs import CardIndex, DeckImportError, ImportLimits, export_deck, import_deck
from decks.codecs.base import TOO_MANY_BYTES, TOO_MANY_CARDS, TOO_MANY_LINES
from decks.codecs.deckcode import CODE_BAD_CHARACTER, CODE_SECOND_WORD, NOT_A_CODE
from decks.codecs.jsoncodec import NEWER_VERSION, NOT_OBJECT
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.deckcode import ALPHABET
from rules.decks.legality import Deck

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("CARDLAB_FUZZ_EXAMPLES", "2000"))
DEEP = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=list(HealthCheck))
INDEX = CardIndex(load_card_set(TEST_SET).cards.values())
CARDS = sorted(INDEX.cards.values(), key=lambda c: c.code)
LIMITS = ImportLimits(max_heroes=1)   # as the site reads them

# Problems about the input as a whole: they have no one place.
WHOLE_INPUT = tuple(message.split("{")[0] for message in (
    TOO_MANY_BYTES, TOO_MANY_LINES, TOO_MANY_CARDS, NOT_OBJECT, NEWER_VERSION, NOT_A_CODE)
                    ) + ("… and ",)

# --- inputs -------------------------------------------------------------------------------

names = st.sampled_from([c.name_en for c in CARDS] + [c.name_zh for c in CARDS]
                        + [c.code for c in CARDS])
counts = st.one_of(st.integers(-3, 120).map(str), st.sampled_from(["３", "9999999", "0", ""]))
oddities = st.sampled_from(["\x00", "\ud800", "\udfff", "\ufeff", "\r", "\r\n", "\u2028", "\t",
                            "：", "×", "x", "#", "//", ",", '"', "'", "=", "{", "}", "[", "]",
                            "张", "Deck", "Hero:", "Format:", "Minions (3)", "Items:", " "])
line_parts = st.one_of(names, counts, oddities, st.text(max_size=12))
text_lines = st.lists(st.lists(line_parts, max_size=5).map(" ".join), max_size=25)
deck_texts = text_lines.map("\n".join)


@st.composite
def csv_texts(draw) -> str:
    header = draw(st.sampled_from(["section,count,code,name,name_zh", "count,code,name",
                                   "code,count", "name", "count,name_en", "", "x,y"]))
    rows = draw(st.lists(st.lists(st.one_of(names, counts, oddities, st.sampled_from(
        ["deck", "hero", "card", "'=1+1", '"a\nb"', '"unclosed'])), max_size=6)
        .map(",".join), max_size=20))
    return "\n".join([header, *rows])


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10, 200), st.floats(allow_nan=False),
              names, st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.one_of(names, st.sampled_from(
                                ["code", "count", "name", "hero", "heroes", "cards",
                                 "cardlab_deck", "format"])), inner, max_size=5)),
    max_leaves=30)


@st.composite
def json_texts(draw) -> str:
    shape = draw(st.dictionaries(st.sampled_from(["cardlab_deck", "name", "format", "hero",
                                                  "heroes", "cards"]), json_values, max_size=6))
    text = json.dumps(shape, ensure_ascii=draw(st.booleans()),
                      indent=draw(st.sampled_from([None, 1, 2])))
    cut = draw(st.integers(0, len(text)))
    # Whole, truncated, or with a character dropped in: syntax errors have a line and column.
    return draw(st.sampled_from([text, text[:cut], text[:cut] + draw(oddities) + text[cut:]]))


@st.composite
def real_decks(draw) -> Deck:
    codes = [c.code for c in CARDS if c.kind != "hero"]
    heroes = [c.code for c in CARDS if c.kind == "hero"]
    chosen = draw(st.dictionaries(st.sampled_from(codes), st.integers(1, 40), max_size=10))
    return Deck(heroes=tuple(draw(st.lists(st.sampled_from(heroes), max_size=2))),
                counts=chosen, name=draw(st.text(max_size=20)))


@st.composite
def deck_codes(draw) -> str:
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return base64.urlsafe_b64encode(draw(st.binary(max_size=200))).decode().rstrip("=")
    code = export_deck(draw(real_decks()), "code", INDEX, format_code="standard").strip()
    if choice == 1:
        return code
    at = draw(st.integers(0, max(0, len(code) - 1)))
    replacement = draw(st.sampled_from(list("AZaz09-_=") + ["", "\x00", " "]))
    comment = draw(st.sampled_from(["", "# my deck\n", "\n\n"]))
    return comment + code[:at] + replacement + code[at + 1:]


# --- properties ---------------------------------------------------------------------------


def _import_or_its_own_error(text: str, format_name: str) -> None:
    try:
        result = import_deck(text, INDEX, format_name, LIMITS)
    except DeckImportError as exc:
        assert exc.status in (400, 413) and exc.problems
        for problem in exc.problems:
            placed = problem.line is not None or problem.where is not None
            assert placed or problem.message.startswith(WHOLE_INPUT), (text, str(problem))
            if problem.line is not None:
                assert 1 <= problem.line <= len(text.splitlines()) + 1, (text, problem)
            if problem.column is not None:
                assert problem.line is not None and problem.column >= 1
        return
    assert all(code in INDEX for code in (*result.deck.heroes, *result.deck.counts))
    assert len(result.deck.heroes) <= 1


@DEEP
@given(text=st.one_of(deck_texts, st.text(max_size=300)))
def test_the_text_importer_raises_only_its_own_error_and_names_lines(text):
    _import_or_its_own_error(text, "text")


@DEEP
@given(text=st.one_of(csv_texts(), st.text(max_size=300)))
def test_the_csv_importer_raises_only_its_own_error_and_names_lines(text):
    _import_or_its_own_error(text, "csv")


@DEEP
@given(text=st.one_of(json_texts(), st.text(max_size=200)))
def test_the_json_importer_raises_only_its_own_error_and_names_places(text):
    _import_or_its_own_error(text, "json")


@DEEP
@given(text=deck_codes())
def test_the_deck_code_reader_raises_only_its_own_error_and_names_lines(text):
    _import_or_its_own_error(text, "code")


@DEEP
@given(text=st.one_of(deck_texts, csv_texts(), json_texts(), deck_codes()))
def test_detecting_the_format_raises_only_the_parsers_own_error(text):
    _import_or_its_own_error(text, "auto")


# A character that damages a code without making its line something else: not of the code's
# alphabet, not a space or a line break (a second word, a second line), not a NUL (refused for
# any input), not "#" or "=" (a comment, padding).
stray_characters = st.characters(
    blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"),
    blacklist_characters=[*ALPHABET, "#", "=", "\x85", "\x1c", "\x1d", "\x1e"])
second_words = st.text(min_size=1, max_size=12).filter(
    lambda word: word.strip() and len(word.splitlines()) == 1 and "\x00" not in word
    and not any("\ud800" <= ch <= "\udfff" for ch in word))


@DEEP
@given(deck=real_decks(), data=st.data())
def test_a_damaged_deck_code_gets_the_deck_codes_error_whatever_the_damage(deck, data):
    """A real code with a stray character in it, or a word after it: with format "auto" the
    error is the deck code's, saying what is wrong and where — never "no card is called"."""
    code = export_deck(deck, "code", INDEX, format_code="standard").strip()
    if data.draw(st.booleans()):
        at = data.draw(st.integers(1, len(code)))
        text, expected = code[:at] + data.draw(stray_characters) + code[at:], CODE_BAD_CHARACTER
    else:
        text, expected = f"{code} {data.draw(second_words)}", CODE_SECOND_WORD
    with pytest.raises(DeckImportError) as caught:
        import_deck(text, INDEX, "auto", LIMITS)
    (problem,) = caught.value.problems
    assert problem.message.startswith(str(expected).split("{")[0]), (text, str(problem))
    assert problem.line == 1 and problem.column is not None


QUERY_PARTS = st.sampled_from(
    ["k:minion", "a:fire", "c<=3", "c>", "r:UR", "or", "OR", "and", "-", "(", ")", '"', "o:",
     "kw:shield", "race:dragon", "x:y", "c<=abc", "c=99999999", "name", "余烬", "\x00", "\\",
     ":", "<", ">=", "!", " ", "'", "t:", "hp>2", "atk<1", "--a:dark"])
queries = st.one_of(st.text(max_size=80), st.lists(QUERY_PARTS, max_size=30).map("".join),
                    st.lists(QUERY_PARTS, max_size=30).map(" ".join))


@pytest.mark.django_db   # the query language reads the kinds and rarity tiers games declare
@DEEP
@given(query=queries)
def test_the_query_language_raises_only_its_own_error_with_a_position(query):
    try:
        parse(query)
    except QuerySyntaxError as exc:
        assert exc.message
        assert 0 <= exc.position <= len(query), (query, exc.position)
        assert exc.position + exc.length <= len(query) + 1, (query, exc.position, exc.length)
        assert exc.pointer().startswith(exc.query)
