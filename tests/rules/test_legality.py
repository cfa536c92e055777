"""R5 Deck construction: the standard format and formats as data (rules/decks/legality.py).

The engine says what is wrong as a code and plain parameters; these tests compare those. The
sentences are the site's (tests/decks/test_problem_text.py reads these problems in English and
Chinese)."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.legality import STANDARD, Deck, Format, Problem, check_deck, is_legal
from rules.engine.cards import CardDef

TEST = load_card_set(TEST_SET)
CARDS = TEST.cards
# Ten non-UR minions and items, three of each: a legal 30-card standard deck.
LEGAL_COUNTS = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                     "T-M07", "T-I01", "T-I02", "T-I03")}


def legal_deck(**changes) -> Deck:
    counts = dict(LEGAL_COUNTS)
    counts.update(changes.pop("counts", {}))
    counts = {code: n for code, n in counts.items() if n}
    return Deck(heroes=changes.pop("heroes", ("T-H01",)), counts=counts, **changes)


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_a_hero_and_thirty_cards_of_three_copies_is_legal():
    """Rule: R5.1, R5.2, R5.3"""
    assert check_deck(legal_deck(), CARDS) == []
    assert is_legal(legal_deck(), CARDS)


def test_r5_1_a_deck_without_a_hero_is_told_to_pick_one():
    """Rule: R5.1"""
    [problem] = check_deck(legal_deck(heroes=()), CARDS)
    assert problem == Problem("hero_missing", "R5.1", {"format": "standard", "want": 1})


def test_r5_1_two_heroes_name_the_one_to_remove():
    """Rule: R5.1"""
    [problem] = check_deck(legal_deck(heroes=("T-H01", "T-H02")), CARDS)
    assert problem.code == "hero_count"
    assert problem.params == {"count": 2, "format": "standard", "want": 1, "extra": ["T-H02"]}
    assert problem.cards == ("T-H01", "T-H02")


def test_r5_1_the_hero_slot_only_takes_a_hero_card():
    """Rule: R5.1"""
    [problem] = check_deck(legal_deck(heroes=("T-M01",)), CARDS)
    assert problem == Problem("hero_not_hero", "R5.1", {"card": "T-M01", "kind": "minion"},
                              ("T-M01",))


def test_r5_2_the_deck_is_exactly_thirty_cards():
    """Rule: R5.2"""
    [small] = check_deck(legal_deck(counts={"T-M01": 1}), CARDS)
    assert small == Problem("deck_too_small", "R5.2", {
        "count": 28, "format": "standard", "want": {"min": 30, "max": 30}, "missing": 2})
    [large] = check_deck(legal_deck(counts={"T-M14": 1}), CARDS)
    assert large.code == "deck_too_large" and large.params["extra"] == 1


def test_r5_2_no_heroes_in_the_deck_only_minions_and_items():
    """Rule: R5.2"""
    deck = legal_deck(counts={"T-M01": 2, "T-H02": 1})
    [problem] = check_deck(deck, CARDS)
    assert problem == Problem("kind_not_allowed", "R5.2", {
        "card": "T-H02", "kind": "hero", "count": 1, "format": "standard",
        "kinds": ["minion", "item"]}, ("T-H02",))


def test_r5_3_ur_cards_are_limited_to_one_copy():
    """Rule: R5.3"""
    deck = legal_deck(counts={"T-M01": 1, "T-M12": 2})
    [problem] = check_deck(deck, CARDS)
    assert problem == Problem("copy_limit", "R5.3", {
        "card": "T-M12", "count": 2, "format": "standard", "limit": 1, "extra": 1,
        "rarity": "UR"}, ("T-M12",))


def test_r5_3_other_rarities_are_limited_to_three():
    """Rule: R5.3"""
    deck = legal_deck(counts={"T-M01": 4, "T-M02": 2})
    [problem] = check_deck(deck, CARDS)
    assert problem.code == "copy_limit"
    assert problem.params["rarity"] == "N" and problem.params["limit"] == 3
    assert (problem.params["card"], problem.params["count"]) == ("T-M01", 4)


def test_r5_3_copies_are_counted_by_name_across_printings():
    """Rule: R5.3"""
    reprint = replace(CARDS["T-M12"], code="P-M12", rarity="UR")
    cards = {**CARDS, "P-M12": reprint}
    deck = legal_deck(counts={"T-M01": 1, "T-M12": 1, "P-M12": 1})
    [problem] = check_deck(deck, cards)
    assert problem.code == "copy_limit" and set(problem.cards) == {"T-M12", "P-M12"}


def test_r5_4_the_standard_ban_list_is_empty():
    """Rule: R5.4"""
    assert dict(STANDARD.card_limits) == {}


def test_r5_4_a_banned_card_and_a_limited_card_are_reported_with_their_limits():
    """Rule: R5.4"""
    fmt = Format(code="club", name="Club", card_limits={"T-M01": 0, "T-M02": 1, "T-M03": 2})
    problems = check_deck(legal_deck(), CARDS, fmt)
    assert [(p.code, p.params) for p in problems] == [
        ("banned", {"card": "T-M01", "count": 3, "format": "club"}),
        ("restricted", {"card": "T-M02", "count": 3, "format": "club", "limit": 1,
                        "extra": 2}),
        ("restricted", {"card": "T-M03", "count": 3, "format": "club", "limit": 2,
                        "extra": 1}),
    ]
    assert all(p.rule == "R5.4" for p in problems)


def test_r5_4_a_banned_hero_is_reported():
    """Rule: R5.4"""
    fmt = Format(card_limits={"T-H01": 0})
    assert codes(check_deck(legal_deck(), CARDS, fmt)) == ["banned"]


def test_every_problem_is_reported_at_once_in_a_stable_order():
    """Rule: R5.1, R5.2, R5.3"""
    deck = Deck(heroes=(), counts={"T-M12": 2, "T-H01": 1, "NOPE": 1, "T-M01": 0})
    problems = check_deck(deck, CARDS)
    assert codes(problems) == ["hero_missing", "unknown_card", "kind_not_allowed", "bad_count",
                               "deck_too_small", "copy_limit"]
    assert check_deck(deck, CARDS) == problems


def test_formats_are_data_size_ranges_kinds_and_sets():
    fmt = Format(code="mini", name="Mini", deck_min=5, deck_max=10, deck_kinds=("minion",),
                 legal_sets=("TEST",))
    deck = Deck(heroes=("T-H01",), counts={"T-M01": 3, "T-I01": 1, "T-M02": 2})
    problems = check_deck(deck, CARDS, fmt, set_of={"T-M02": "OLD"})
    assert codes(problems) == ["kind_not_allowed", "set_not_legal"]
    assert problems[0].params == {"card": "T-I01", "kind": "item", "count": 1,
                                  "format": "mini", "kinds": ["minion"]}
    assert problems[1].params == {"card": "T-M02", "count": 2, "set": "OLD", "format": "mini"}
    too_few = check_deck(Deck(heroes=("T-H01",), counts={"T-M01": 1}), CARDS, fmt)
    assert too_few[0].params["want"] == {"min": 5, "max": 10}


def test_problems_are_plain_json_data():
    """A problem's parameters are numbers, codes and lists of them: no sentence, no object."""
    deck = Deck(heroes=("T-H01", "T-M01"), counts={"T-M12": 2, "T-H01": 1, "NOPE": 1,
                                                    "T-M01": 0})
    for problem in check_deck(deck, CARDS, Format(legal_sets=("X",)), set_of={"T-M12": "Y"}):
        assert json.loads(json.dumps(problem.params)) == problem.params


def test_deck_of_builds_from_one_hero_and_counts():
    deck = Deck.of("T-H01", {"T-M01": 2})
    assert deck.hero == "T-H01" and deck.size == 2
    assert Deck.of(None, {}).heroes == ()


card_codes = st.sampled_from(sorted(CARDS) + ["X-1", "", "T-M01 "])


@settings(max_examples=300, deadline=None)
@given(heroes=st.lists(card_codes, max_size=3),
       counts=st.dictionaries(card_codes, st.integers(min_value=-2, max_value=9), max_size=25))
def test_any_deck_gets_a_list_of_problems_never_an_exception(heroes, counts):
    problems = check_deck(Deck(heroes=tuple(heroes), counts=counts), CARDS)
    assert all(isinstance(p, Problem) and p.code and p.rule for p in problems)
    assert (problems == []) == is_legal(Deck(heroes=tuple(heroes), counts=counts), CARDS)


def test_catalogue_like_objects_work_as_well_as_card_defs():
    class Row:
        def __init__(self, card: CardDef):
            self.code, self.kind, self.rarity = card.code, card.kind, card.rarity
            self.name_en, self.name_zh = card.name_en, card.name_zh

    rows = {code: Row(card) for code, card in CARDS.items()}
    assert check_deck(legal_deck(counts={"T-M12": 2}), rows) == check_deck(
        legal_deck(counts={"T-M12": 2}), CARDS)


def test_the_rules_library_holds_no_sentence_and_no_language():
    """Rule: R5 — deck legality and the format schema say what, never in which language: no
    module of rules/decks is a catalogue of one (``*_zh``), no function takes a language, and
    no code names a language ("zh", "en")."""
    package = Path(__file__).resolve().parents[2] / "rules" / "decks"
    found = []
    for path in sorted(package.glob("*.py")):
        if path.stem.endswith(("_zh", "_en")):
            found.append(f"{path.name}: a language's own module")
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.arg) and node.arg in ("lang", "language"):
                found.append(f"{path.name}:{node.lineno}: a {node.arg} parameter")
            elif isinstance(node, ast.Constant) and node.value in ("zh", "en", "zh-hans"):
                found.append(f"{path.name}:{node.lineno}: the language code {node.value!r}")
    assert not found, "\n".join(found)
