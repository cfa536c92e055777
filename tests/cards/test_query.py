"""The query language: what each example finds, how errors point at the problem, and that no
input whatsoever escapes as anything but the parser's own error (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.query import QuerySyntaxError, describe, parse
from cards.query import errors as E
from cards.selectors import card_search


def codes(query: str, order: str = "code") -> list[str]:
    return [c.code for c in card_search(query=query, order=order)]


@pytest.mark.parametrize("query, expected", [
    ("k:minion a:fire c<=3", ["T-M01"]),
    ("r:UR or r:SSR", ["T-M12"]),
    ("kw:shield", ["T-M03"]),
    ("kw:regenerate race:dragon", ["T-M06"]),
    ("race:Dragon k:hero", ["T-H01"]),          # by English name, any case
    ("race:龙 k:hero", ["T-H01"]),               # by Chinese name
    ('o:"draw"', ["T-I02", "T-I05", "T-M04"]),
    ("o:抽", ["T-I02", "T-I05", "T-M04"]),       # Chinese rules text
    ("pup", ["T-M01"]),                          # bare word, English name
    ("野猪", ["T-M02"]),                          # bare word, Chinese name
    ('"ember pup"', ["T-M01"]),
    ("hp>=20", ["T-H01", "T-H02"]),
    ("k:item c=0", ["T-I06"]),
    ("a:fire,water k:minion", ["T-M01", "T-M03", "T-M06", "T-M09"]),
    ("(a:fire or a:water) atk>=4", ["T-M06"]),
    ("r>=SR k:minion", ["T-M06", "T-M08", "T-M10", "T-M12"]),
    ("code:t-m01", ["T-M01"]),
    ("s:test k:hero", ["T-H01", "T-H02"]),
    ("f:dawn k:item", []),
    ("k:minion and a:light", ["T-M04", "T-M08", "T-M14"]),
    ("not k:minion -k:item", ["T-H01", "T-H02"]),
    ("kw:re-act", ["T-M05"]),
])
def test_examples_find_the_right_cards(test_set, query, expected):
    assert codes(query) == expected


def test_negation_keeps_cards_without_the_field(test_set):
    """-a:dark keeps items (no attribute) and -f:dawn keeps cards without a faction."""
    not_dark = codes("-a:dark")
    assert "T-I01" in not_dark and "T-M05" not in not_dark
    assert len(not_dark) == 22 - 4
    assert "T-I03" in codes("-f:dawn")


def test_or_binds_looser_than_juxtaposition(test_set):
    node = parse("k:hero a:fire or k:item c=0")
    assert describe(node) == "kind is hero and attribute is fire or kind is item and cost is 0"
    assert codes("k:hero a:fire or k:item c=0") == ["T-H01", "T-I06"]


def test_blank_query_matches_everything(test_set):
    assert parse("   ") is None
    assert len(codes("")) == 22


@pytest.mark.parametrize("query, message, position", [
    ("a:fire)", E.MSG_UNEXPECTED_CLOSE, 6),
    ("(k:minion or", E.MSG_OPERATOR_LAST.format(word="or"), 10),
    ("(k:minion", E.MSG_UNCLOSED_PAREN, 0),
    ("c<=three", E.MSG_NOT_NUMBER.format(value="three", field="cost", example="c<=3"), 3),
    ('o:"draw', E.MSG_UNCLOSED_QUOTE, 2),
    ("k:", E.MSG_NO_VALUE.format(field="k", op=":", example="k:minion"), 1),
    ("a:purple", E.MSG_BAD_CHOICE.format(value="purple", name="attribute",
                                         choices="fire, grass, water, light, dark"), 2),
    ("k<minion", E.MSG_BAD_OPERATOR.format(field="k", op="<",
                                           allowed="':' or '=' or '!='"), 1),
    ("or r:UR", E.MSG_OPERATOR_FIRST.format(word="or"), 0),
    ("a:fire -", E.MSG_DANGLING_NEGATION.format(word="-"), 7),
    ("()", E.MSG_EMPTY_PARENS, 0),
    ("c>1000", E.MSG_NUMBER_RANGE.format(value="1000", field="cost", limit=999), 2),
])
def test_errors_say_what_and_where(query, message, position):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(query)
    assert caught.value.message == message
    assert caught.value.position == position
    assert caught.value.pointer().splitlines()[1].index("^") == position


def test_unknown_field_lists_the_known_ones():
    with pytest.raises(QuerySyntaxError) as caught:
        parse("colour:red")
    assert caught.value.message.startswith("Unknown field 'colour'")
    assert "a (attribute)" in caught.value.message
    assert (caught.value.position, caught.value.length) == (0, 6)


def test_limits_keep_queries_small():
    with pytest.raises(QuerySyntaxError, match="too long"):
        parse("a" * 501)
    with pytest.raises(QuerySyntaxError, match="nested"):
        parse("(" * 11 + "a" + ")" * 11)
    with pytest.raises(QuerySyntaxError, match="Too many terms"):
        parse(" ".join(["k:minion"] * 41))


QUERY_ALPHABET = st.sampled_from(list('()"-:<>=!,\\ \tabckorntdhpfsw19_龙火é') + [
    "k:", "a:", "c<=", "r>=", "or ", "and ", "not ", "kw:", "o:", "race:", "hp>", "UR", "SR"])


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=60), st.lists(QUERY_ALPHABET, max_size=25).map("".join)))
def test_any_string_gives_results_or_the_parsers_error(test_set, query):
    """Property: whatever is typed, the catalogue answers with cards or a QuerySyntaxError
    that points inside the query — never another exception, never a database error."""
    try:
        list(card_search(query=query))
    except QuerySyntaxError as exc:
        assert 0 <= exc.position <= len(query)
        assert exc.message


def test_a_race_or_faction_is_found_by_the_start_of_its_name(catalogue):
    """The catalogue's guide writes ``race:龙`` for the race named 龙族: what people type."""
    from cards.models import Race
    dragon = Race.objects.get(code="dragon")
    dragon.names = {**dragon.names, "zh-hans": "龙族"}
    dragon.save()
    assert codes("race:龙 k:hero") == ["T-H01"]
    assert codes("race:龙族 k:hero") == ["T-H01"]
    assert codes("race:dra k:hero") == ["T-H01"]
    assert codes("race:族 k:hero") == []            # the start of a name, not any part
