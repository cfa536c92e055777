"""R5 Deck construction: the standard format and formats as data (rules/decks/legality.py)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.decks import legality
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
    assert problem.code == "hero_missing" and problem.rule == "R5.1"
    assert problem.message == legality.HERO_MISSING.format(format="Standard", want="1 hero")
    assert problem.fix == "pick a hero"


def test_r5_1_two_heroes_name_the_one_to_remove():
    """Rule: R5.1"""
    [problem] = check_deck(legal_deck(heroes=("T-H01", "T-H02")), CARDS)
    assert problem.code == "hero_count"
    assert problem.fix == "keep one hero and remove Tide Oracle"
    assert problem.cards == ("T-H01", "T-H02")


def test_r5_1_the_hero_slot_only_takes_a_hero_card():
    """Rule: R5.1"""
    [problem] = check_deck(legal_deck(heroes=("T-M01",)), CARDS)
    assert problem.code == "hero_not_hero"
    assert problem.message == "Ember Pup is a minion, not a hero, so it cannot be the deck's hero."


def test_r5_2_the_deck_is_exactly_thirty_cards():
    """Rule: R5.2"""
    [small] = check_deck(legal_deck(counts={"T-M01": 1}), CARDS)
    assert small.code == "deck_too_small"
    assert small.message == "The deck has 28 cards; the Standard format needs exactly 30."
    assert small.fix == "add 2 more cards"
    [large] = check_deck(legal_deck(counts={"T-M14": 1}), CARDS)
    assert large.code == "deck_too_large" and large.fix == "remove 1 card"


def test_r5_2_no_heroes_in_the_deck_only_minions_and_items():
    """Rule: R5.2"""
    deck = legal_deck(counts={"T-M01": 2, "T-H02": 1})
    [problem] = check_deck(deck, CARDS)
    assert problem.code == "kind_not_allowed" and problem.rule == "R5.2"
    assert problem.message == ("Tide Oracle is a hero; a Standard deck may only hold minions "
                               "and items.")
    assert problem.fix == "remove 1 × Tide Oracle (make it the deck's hero instead)"


def test_r5_3_ur_cards_are_limited_to_one_copy():
    """Rule: R5.3"""
    deck = legal_deck(counts={"T-M01": 1, "T-M12": 2})
    [problem] = check_deck(deck, CARDS)
    assert problem.code == "copy_limit" and problem.rule == "R5.3"
    assert problem.message == legality.COPY_LIMIT.format(name="Night Wyrm", count=2,
                                                         rarity="UR", limit=1)
    assert problem.fix == "remove 1 × Night Wyrm"
    assert problem.cards == ("T-M12",)


def test_r5_3_the_fix_names_the_card_in_chinese_when_asked():
    """Rule: R5.3"""
    deck = legal_deck(counts={"T-M01": 1, "T-M12": 2})
    [problem] = check_deck(deck, CARDS, lang="zh")
    assert problem.fix == "移除 1 张「夜之龙」"


def test_r5_3_other_rarities_are_limited_to_three():
    """Rule: R5.3"""
    deck = legal_deck(counts={"T-M01": 4, "T-M02": 2})
    [problem] = check_deck(deck, CARDS)
    assert problem.code == "copy_limit"
    assert problem.message == "Ember Pup: 4 copies — N cards are limited to 3."


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


def test_r5_4_a_banned_card_and_a_limited_card_are_reported_with_their_fix():
    """Rule: R5.4"""
    fmt = Format(code="club", name="Club", card_limits={"T-M01": 0, "T-M02": 1, "T-M03": 2})
    problems = check_deck(legal_deck(), CARDS, fmt)
    assert [(p.code, p.fix) for p in problems] == [
        ("banned", "remove 3 × Ember Pup"),
        ("restricted", "remove 2 × Thorn Boar"),
        ("restricted", "remove 1 × Reef Guard"),
    ]
    assert problems[1].message == ("Thorn Boar: 3 copies — it is limited to 1 in the Club "
                                   "format.")
    assert problems[2].message.endswith("it is semi-limited to 2 in the Club format.")
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
    assert all(p.message and p.fix for p in problems)


def test_formats_are_data_size_ranges_kinds_and_sets():
    fmt = Format(code="mini", name="Mini", deck_min=5, deck_max=10, deck_kinds=("minion",),
                 legal_sets=("TEST",))
    deck = Deck(heroes=("T-H01",), counts={"T-M01": 3, "T-I01": 1, "T-M02": 2})
    problems = check_deck(deck, CARDS, fmt, set_of={"T-M02": "OLD"})
    assert codes(problems) == ["kind_not_allowed", "set_not_legal"]
    assert problems[0].message == "Fire Bolt is an item; a Mini deck may only hold minions."
    assert problems[1].fix == "remove 2 × Thorn Boar"
    too_few = check_deck(Deck(heroes=("T-H01",), counts={"T-M01": 1}), CARDS, fmt)
    assert too_few[0].message == "The deck has 1 cards; the Mini format needs 5 to 10."


def test_problems_are_plain_json_data():
    problem = check_deck(legal_deck(heroes=()), CARDS)[0]
    assert problem.as_dict() == {"code": "hero_missing", "rule": "R5.1",
                                 "message": problem.message, "fix": "pick a hero", "cards": []}


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
    assert all(isinstance(p, Problem) and p.message and p.fix for p in problems)
    assert (problems == []) == is_legal(Deck(heroes=tuple(heroes), counts=counts), CARDS)


def test_catalogue_like_objects_work_as_well_as_card_defs():
    class Row:
        def __init__(self, card: CardDef):
            self.code, self.kind, self.rarity = card.code, card.kind, card.rarity
            self.name_en, self.name_zh = card.name_en, card.name_zh

    rows = {code: Row(card) for code, card in CARDS.items()}
    assert check_deck(legal_deck(counts={"T-M12": 2}), rows) == check_deck(
        legal_deck(counts={"T-M12": 2}), CARDS)



def test_every_message_has_a_chinese_entry_with_the_same_fields():
    """Rule: R5 (the engine's own two-language catalogue; the site picks by the page)"""
    import string

    from rules.decks import legality_zh

    english = {name: value for name, value in vars(legality).items()
               if name.isupper() and isinstance(value, str) and name != "RARITY_ORDER"}
    assert set(english) == set(legality_zh.MESSAGES)

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for name, text in english.items():
        assert fields(legality_zh.MESSAGES[name]) == fields(text), name


def test_r5_problems_read_in_chinese_when_asked():
    """Rule: R5.1, R5.2, R5.3"""
    deck = Deck(heroes=(), counts={"T-M05": 2, "T-M12": 3})
    problems = check_deck(deck, CARDS, lang="zh")
    assert [p.code for p in problems] == ["hero_missing", "deck_too_small", "copy_limit"]
    hero, size, copies = problems
    assert hero.message == "卡组没有英雄;Standard赛制需要恰好 1 张英雄卡。"
    assert hero.fix == "选择一张英雄卡"
    assert size.message == "卡组有 5 张卡;Standard赛制需要恰好 30 张。"
    assert size.fix == "再加入 25 张卡"
    assert copies.fix == "移除 2 张「夜之龙」"
    assert not any(ch.isascii() and ch.isalpha() for p in problems
                   for ch in (p.message + p.fix).replace("Standard", "").replace("UR", ""))
