"""The four other rule books' formats as data (rules/data/games/*.yaml): every rule of every
format proved by a sample deck that breaks it and only it, the legal sample decks legal, and
the schema's own rules (rules/decks/formats.py) — pure, no Django.

Rule ids are the ``rule`` references the files give (docs/formats.md lists the rule-book
sentence each stands for). Problems are codes and parameters; their sentences are the site's
(tests/decks/test_problem_text.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from rules.decks import formats
from rules.decks.formats import (
    FormatDataError,
    FormatProblem,
    RuleBook,
    format_from_rules,
    rule_book_from_data,
    rules_problems,
)
from rules.decks.legality import Deck, check_deck

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
BOOKS = ("duwushi", "hota", "molong", "sorcery")


@cache
def book(name: str) -> RuleBook:
    return rule_book_from_data(yaml.safe_load((GAMES / f"{name}.yaml").read_text("utf-8")))


def problems(name: str, deck_name: str):
    rb = book(name)
    deck = next(d for d in rb.decks if d.name == deck_name)
    return check_deck(Deck(piles=deck.piles), rb.cards(), rb.format(deck.format),
                      set_of=rb.set_of())


# (rule id, rule book, sample deck that breaks it, the problem code that names it)
RULES = [
    ("DW.size", "duwushi", "Duel Wizards 29 cards", "pile_too_small"),
    ("DW.hero", "duwushi", "Duel Wizards 30 cards but no hero inside", "kind_too_few"),
    ("DW.copies", "duwushi", "Duel Wizards 3 copies of one card", "copy_limit"),
    ("HOTA 100.2a (constructed: 60 cards)", "hota", "HOTA constructed 59 cards",
     "pile_too_small"),
    ("HOTA 100.2a (constructed: 3 copies, basic cards excepted)", "hota",
     "HOTA constructed 4 copies of a creature", "copy_limit"),
    ("HOTA 100.2a (limited: 35 cards)", "hota", "HOTA limited 34 cards", "pile_too_small"),
    ("MLBK.character", "molong", "Dragon's Hoard without a character", "pile_too_small"),
    ("MLBK.character", "molong", "Dragon's Hoard with two characters", "pile_too_large"),
    ("MLBK.actions", "molong", "Dragon's Hoard 11 actions, no scroll", "pile_too_small"),
    ("MLBK.actions", "molong", "Dragon's Hoard a special action card", "not_in_pile"),
    ("MLBK.actions.kinds", "molong", "Dragon's Hoard a second attack instead of the scroll",
     "kind_too_many"),
    ("MLBK.actions.kinds", "molong", "Dragon's Hoard 11 actions, no scroll", "kind_too_few"),
    ("MLBK.actions.composition", "molong", "Dragon's Hoard 8 moves but 3 north and 1 south",
     "composition_extra"),
    ("MLBK.actions.composition", "molong", "Dragon's Hoard 8 moves but 3 north and 1 south",
     "composition_missing"),
    ("SCR.avatar", "sorcery", "Sorcery without an avatar", "pile_too_small"),
    ("SCR.avatar", "sorcery", "Sorcery with two avatars", "pile_too_large"),
    ("SCR.spellbook", "sorcery", "Sorcery 39-card spellbook", "pile_too_small"),
    ("SCR.spellbook", "sorcery", "Sorcery a site in the spellbook", "not_in_pile"),
    ("SCR.atlas", "sorcery", "Sorcery 19-card atlas", "pile_too_small"),
    ("SCR.copies", "sorcery", "Sorcery five copies of an ordinary card", "copy_limit"),
    ("SCR.copies", "sorcery", "Sorcery four copies of an exceptional card", "copy_limit"),
    ("SCR.copies", "sorcery", "Sorcery three copies of an elite card", "copy_limit"),
    ("SCR.copies", "sorcery", "Sorcery two copies of a unique card", "copy_limit"),
    ("SCR.piles", "sorcery", "Sorcery a sideboard beside the three piles", "pile_unknown"),
    ("MLBK.piles", "molong", "Dragon's Hoard a pile of spare cards", "pile_unknown"),
]


@pytest.mark.parametrize(("rule", "name", "deck", "code"), RULES,
                         ids=[f"{r[0]}:{r[3]}" for r in RULES])
def test_each_rule_of_each_format_is_found_with_its_rule(rule, name, deck, code):
    """Rule: the rule named in the test id (a sample deck breaking it)."""
    found = [p for p in problems(name, deck) if p.code == code]
    assert found, f"{deck}: no {code}"
    assert {p.rule for p in found} == {rule}
    assert all(p.params for p in found)


def test_every_rule_a_format_declares_is_proved_above():
    """Rule: each rule reference in the four files has a breaking sample deck in RULES."""
    declared = set()
    for name in BOOKS:
        for fmt in book(name).formats:
            f = format_from_rules(fmt.rules, code=fmt.code, name=fmt.name_en,
                                  game=book(name).game)
            declared |= {p.rule for p in f.piles} | {k.rule for p in f.piles
                                                       for k in p.kind_counts}
            declared |= {p.composition_rule for p in f.piles} | set(f.rule_refs.values())
    assert declared - {""} == {r[0] for r in RULES}


@pytest.mark.parametrize("name", BOOKS)
def test_sample_decks_find_exactly_the_problems_they_expect(name):
    """Rule: every sample deck of the file; the legal ones have no problem."""
    rb = book(name)
    assert any(not d.expect for d in rb.decks), "a legal sample deck"
    assert sum(1 for d in rb.decks if d.expect) >= 2, "several illegal sample decks"
    for deck in rb.decks:
        assert sorted(p.code for p in problems(name, deck.name)) == sorted(deck.expect), deck.name


@pytest.mark.parametrize("name", BOOKS)
def test_sample_sets_are_marked_as_sample_data(name):
    rb = book(name)
    assert rb.card_sets and all(s.sample for s in rb.card_sets)
    assert all("test data" in s.name_en and "测试数据" in s.name_zh for s in rb.card_sets)
    assert rb.game is not None and not rb.game.engine


def test_hota_basic_cards_have_no_copy_limit_in_constructed():
    """Rule: HOTA 100.2a (constructed: 3 copies, basic cards excepted)"""
    rb = book("hota")
    deck = Deck(piles={"deck": {"HA-B01": 40, "HA-C01": 3, "HA-C02": 3, "HA-C03": 3,
                                "HA-C04": 3, "HA-S01": 3, "HA-S02": 3, "HA-S03": 2}})
    assert check_deck(deck, rb.cards(), rb.format("hota-constructed")) == []


def test_hota_limited_has_no_copy_limit():
    """Rule: HOTA 100.2a (limited: 35 cards, no limit on copies)"""
    rb = book("hota")
    deck = Deck(piles={"deck": {"HA-C01": 35}})
    assert check_deck(deck, rb.cards(), rb.format("hota-limited")) == []


def test_duwushi_hero_inside_the_deck_counts_toward_its_size():
    """Rule: DW.size and DW.hero — the hero is one of the 30 cards, not beside them."""
    rb = book("duwushi")
    counts = {"DW-H01": 2, **{f"DW-I0{i}": 2 for i in range(1, 9)},
              **{f"DW-M0{i}": 2 for i in range(1, 7)}}
    assert sum(counts.values()) == 30
    assert check_deck(Deck(counts=counts), rb.cards(), rb.format("duwushi")) == []


def test_sorcery_hero_slot_and_plain_list_fill_the_avatar_and_spellbook():
    """A builder deck (hero + a plain list) reads as avatar + main pile; the atlas by name."""
    rb = book("sorcery")
    legal = next(d for d in rb.decks if not d.expect)
    deck = Deck(heroes=("SC-A01",), counts=dict(legal.piles["spellbook"]),
                piles={"atlas": legal.piles["atlas"]})
    assert check_deck(deck, rb.cards(), rb.format("sorcery")) == []


def test_a_site_in_the_spellbook_says_where_it_belongs():
    """Rule: SCR.spellbook"""
    [p] = problems("sorcery", "Sorcery a site in the spellbook")
    assert (p.params["kind"], p.params["pile"], p.params["target"]) == (
        "site", "spellbook", "atlas")


def test_copy_limit_names_the_rarity_tier():
    """Rule: SCR.copies"""
    [p] = problems("sorcery", "Sorcery three copies of an elite card")
    assert (p.params["rarity"], p.params["count"], p.params["limit"]) == ("elite", 3, 2)


def test_unknown_pile_is_a_problem_not_a_crash():
    rb = book("sorcery")
    deck = Deck(piles={"sideboard": {"SC-S01": 1}})
    codes = {p.code for p in check_deck(deck, rb.cards(), rb.format("sorcery"))}
    assert "pile_unknown" in codes


# --- the schema's other rules: bans, legal sets, per-card limits, exemptions -------------------

SORCERY_RULES = {"piles": [
    {"code": "avatar", "name_en": "Avatar", "name_zh": "化身", "hero": True, "min": 1,
     "max": 1, "kinds": ["avatar"]},
    {"code": "spellbook", "name_en": "Spellbook", "name_zh": "法术书", "min": 1,
     "kinds": ["minion", "magic"], "cards": ["SC-U01"]}],
    "copies": {"rarity": {"ordinary": 4}, "default": 1, "cards": {"SC-S02": 2},
               "exempt_cards": ["SC-S03"], "rule": "X.copies"},
    "rule_refs": {"bans": "X.bans", "sets": "X.sets"}}


def _custom(**kw):
    return format_from_rules(SORCERY_RULES, code="x", name="X", game=book("sorcery").game, **kw)


def test_ban_list_limited_and_banned_cards():
    rb = book("sorcery")
    fmt = _custom(bans={"SC-S01": 0, "SC-S04": 1})
    deck = Deck(heroes=("SC-A01",), counts={"SC-S01": 1, "SC-S04": 2})
    found = {p.code: p.rule for p in check_deck(deck, rb.cards(), fmt)}
    assert found == {"banned": "X.bans", "restricted": "X.bans"}


def test_legal_sets():
    rb = book("sorcery")
    fmt = _custom(legal_sets=("other-set",))
    deck = Deck(heroes=("SC-A01",), counts={"SC-S01": 1})
    found = check_deck(deck, rb.cards(), fmt, set_of=rb.set_of())
    assert {p.code for p in found} == {"set_not_legal"} and found[0].rule == "X.sets"


def test_copy_limit_by_card_and_exempt_card_and_admitted_card():
    rb = book("sorcery")
    deck = Deck(heroes=("SC-A01",), counts={"SC-S02": 3, "SC-S03": 9, "SC-U01": 1,
                                            "SC-E01": 2})
    found = check_deck(deck, rb.cards(), _custom())
    # SC-S02 is held to 2 by name (below its ordinary 4); SC-S03 is exempt; SC-U01 (an artifact)
    # is admitted by code; SC-E01 has no tier limit, so the default 1 applies.
    assert sorted((p.code, p.cards) for p in found) == [
        ("card_copy_limit", ("SC-S02",)), ("copy_limit", ("SC-E01",))]


@pytest.mark.parametrize(("rules", "code"), [
    ({"piles": []}, formats.NO_PILES),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D", "min": 5, "max": 2}]},
     formats.MAX_BELOW_MIN),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D", "kinds": ["dragon"]}]},
     formats.NOT_KNOWN_KIND),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D", "hero": True}]},
     formats.ONLY_HERO_PILE),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D", "sizee": 3}]},
     formats.UNKNOWN_KEY),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D", "max": 2,
                 "composition": {"SC-S01": 3}}]}, formats.COMPOSITION_SIZE),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D"}],
      "copies": {"rarity": {"mythic": 1}}}, formats.NOT_KNOWN_RARITY),
    ({"piles": [{"code": "d", "name_en": "D", "name_zh": "D"},
                {"code": "d", "name_en": "E", "name_zh": "E"}]}, formats.TWICE),
])
def test_schema_refuses_bad_rules_naming_the_path(rules, code):
    with pytest.raises(FormatDataError) as err:
        format_from_rules(rules, code="x", name="X", game=book("sorcery").game)
    assert any(p.code == code and p.path.startswith("rules.") for p in err.value.problems)


def test_schema_lists_every_problem_at_once():
    rules = {"piles": [{"code": "BAD CODE", "name_en": "", "min": -1}], "extra": 1}
    with pytest.raises(FormatDataError) as err:
        format_from_rules(rules, code="x", name="X")
    assert len(err.value.problems) >= 4


def test_schema_problems_are_codes_with_plain_parameters():
    bad = {"piles": [{"code": "deck", "name_en": "Deck", "name_zh": "卡组", "min": 5, "max": 2,
                      "kinds": ["planet"]}]}
    assert rules_problems(bad, {"hero"}, set()) == [
        FormatProblem("rules.piles[0].max", formats.MAX_BELOW_MIN, {"high": 2, "low": 5}),
        FormatProblem("rules.piles[0].kinds[0]", formats.NOT_KNOWN_KIND,
                      {"value": "planet", "known": ["hero"]})]
    with pytest.raises(FormatDataError) as err:
        format_from_rules(bad, code="x", name="X")
    assert str(err.value) == "rules.piles[0].max: max_below_min"

