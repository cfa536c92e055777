"""A format admits only its own game's cards (rules/decks/legality.py with ``game_of``): another
game's card is one problem (the site's fix: "remove …") and counts toward nothing else, so
every problem the deck has is listed at once. Pure: no Django; the engine's problems are codes
and parameters (their sentences: tests/decks/test_problem_text.py).

The other game here is this site's own (the engine's test set, ``cardlab``): its heroes,
minions and items have kind codes the other games use too (hero, item, minion), which is how
they slipped through a check of kinds alone."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.formats import RuleBook, SampleCard, format_from_rules, rule_book_from_data
from rules.decks.legality import STANDARD, Deck, Format, check_deck

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
OURS = load_card_set(TEST_SET).cards          # T-H01 hero, T-M01 minion, T-I01 item, …


@cache
def book(name: str) -> RuleBook:
    return rule_book_from_data(yaml.safe_load((GAMES / f"{name}.yaml").read_text("utf-8")))


def everything() -> tuple[dict, dict[str, str]]:
    """Every card of the four rule books and of this game's test set, and each one's game."""
    cards: dict = dict(OURS)
    game_of = dict.fromkeys(OURS, "cardlab")
    for name in ("duwushi", "hota", "molong", "sorcery"):
        cards.update(book(name).cards())
        game_of.update(book(name).game_of())
    return cards, game_of


def check(deck: Deck, fmt: Format):
    cards, game_of = everything()
    return check_deck(deck, cards, fmt, game_of=game_of)


def by_code(problems) -> dict[str, list]:
    out: dict[str, list] = {}
    for p in problems:
        out.setdefault(p.code, []).append(p)
    return out


def legal(name: str):
    return next(d for d in book(name).decks if not d.expect)


def dw_thirty_without_heroes() -> dict[str, int]:
    """30 斗巫师 items and magic cards, 2 copies each at most: legal but for its hero."""
    deck = dict(legal("duwushi").piles["deck"])
    for hero in ("DW-H01", "DW-H02"):
        deck.pop(hero)
    deck.update({"DW-I07": 2, "DW-I08": 1, "DW-M08": 1})
    assert sum(deck.values()) == 30
    return deck


def test_dw_hero_a_deck_whose_only_hero_is_another_games_has_no_hero():
    """Rule: DW.hero — this game's hero inside a 斗巫师 deck is not a 斗巫师 hero card."""
    deck = Deck(piles={"deck": {**dw_thirty_without_heroes(), "T-H01": 1}})
    found = by_code(check(deck, book("duwushi").format("duwushi")))
    assert set(found) == {"other_game", "kind_too_few"}
    [other] = found["other_game"]
    assert other.cards == ("T-H01",) and other.rule == "DW.size"
    assert other.params == {"card": "T-H01", "count": 1, "game": "duwushi",
                            "format": "duwushi"}
    [hero] = found["kind_too_few"]
    assert hero.rule == "DW.hero"
    assert (hero.params["pile"], hero.params["kind"], hero.params["missing"]) == (
        "deck", "hero", 1)


def test_dw_size_another_games_items_do_not_count_toward_the_thirty():
    """Rule: DW.size — this game's items in a 斗巫师 deck are problems, and the size counts
    only 斗巫师 cards, so its fix says how many are still missing once they are gone."""
    counts = dict(legal("duwushi").piles["deck"])
    counts.pop("DW-I01")                              # 28 of the game's own cards …
    deck = Deck(piles={"deck": {**counts, "T-I01": 2, "T-I02": 1}})   # … and 3 of ours
    found = by_code(check(deck, book("duwushi").format("duwushi")))
    assert sorted(p.cards for p in found["other_game"]) == [("T-I01",), ("T-I02",)]
    [small] = found["pile_too_small"]
    assert small.params == {"pile": "deck", "count": 28, "format": "duwushi",
                            "want": {"min": 30, "max": None}, "missing": 2}
    assert set(found) == {"other_game", "pile_too_small"}


@pytest.mark.parametrize(("fmt", "rule"), [
    ("hota-constructed", "HOTA 100.2a (constructed: 60 cards)"),
    ("hota-limited", "HOTA 100.2a (limited: 35 cards)"),
])
def test_hota_a_deck_of_any_kind_still_holds_only_hota_cards(fmt, rule):
    """Rule: HOTA 100.2a — its deck admits every HOTA kind, and no other game's minions."""
    sample = next(d for d in book("hota").decks if d.format == fmt and not d.expect)
    deck = Deck(piles={"deck": {**sample.piles["deck"], "T-M01": 3}})
    [problem] = check(deck, book("hota").format(fmt))
    assert (problem.code, problem.rule, problem.cards) == ("other_game", rule, ("T-M01",))
    assert problem.params["count"] == 3


def test_scr_spellbook_refuses_other_games_minions_and_magic_and_counts_only_spells():
    """Rule: SCR.spellbook — this game's minions and 斗巫师's magic cards are not Sorcery
    spells (minion and magic are Sorcery kinds too); the spellbook is still 40 short of
    nothing, and no copy-limit problem hides among them."""
    legal_deck = legal("sorcery")
    spellbook = {**legal_deck.piles["spellbook"], "T-M01": 5, "DW-M01": 6}
    deck = Deck(piles={**legal_deck.piles, "spellbook": spellbook})
    found = check(deck, book("sorcery").format("sorcery"))
    assert sorted((p.code, p.rule, p.cards) for p in found) == [
        ("other_game", "SCR.spellbook", ("DW-M01",)),
        ("other_game", "SCR.spellbook", ("T-M01",))]
    assert {p.params["game"] for p in found} == {"sorcery"}


def test_scr_spellbook_other_games_cards_leave_the_pile_short_when_it_is():
    """Rule: SCR.spellbook — 38 Sorcery spells and 4 of this game's minions: two problems,
    the minions and the 2 spells still missing."""
    spellbook = dict(legal("sorcery").piles["spellbook"])
    spellbook["SC-S01"] = 2
    deck = Deck(piles={**legal("sorcery").piles, "spellbook": {**spellbook, "T-M02": 4}})
    found = by_code(check(deck, book("sorcery").format("sorcery")))
    assert set(found) == {"other_game", "pile_too_small"}
    assert found["pile_too_small"][0].params["missing"] == 2


def test_scr_avatar_another_games_hero_is_not_an_avatar():
    """Rule: SCR.avatar — this game's hero in the avatar slot: not a Sorcery card, and the
    avatar is still missing."""
    deck = Deck(heroes=("T-H01",), counts=dict(legal("sorcery").piles["spellbook"]),
                piles={"atlas": legal("sorcery").piles["atlas"]})
    found = by_code(check(deck, book("sorcery").format("sorcery")))
    assert set(found) == {"other_game", "pile_too_small"}
    assert found["other_game"][0].rule == "SCR.avatar"
    assert (found["pile_too_small"][0].params["pile"],
            found["pile_too_small"][0].params["missing"]) == ("avatar", 1)


def test_scr_copies_a_sorcery_card_without_a_rarity_tier_is_told_to_get_one():
    """Rule: SCR.copies — copies are limited by tier and there is no default, so a card with
    no tier would have no limit at all: a problem with a fix, not a free pass."""
    rb = book("sorcery")
    cards = {**rb.cards(), "SC-X01": SampleCard("SC-X01", "minion", "Tierless Wisp", "无阶幽灵")}
    spellbook = {**legal("sorcery").piles["spellbook"], "SC-X01": 9}
    deck = Deck(piles={**legal("sorcery").piles, "spellbook": spellbook})
    game_of = {**rb.game_of(), "SC-X01": "sorcery"}
    [problem] = check_deck(deck, cards, rb.format("sorcery"), game_of=game_of)
    assert (problem.code, problem.rule, problem.cards) == ("no_copy_tier", "SCR.copies",
                                                           ("SC-X01",))
    assert problem.params == {"card": "SC-X01", "format": "sorcery", "rarities": [
        "ordinary", "exceptional", "elite", "unique"]}


def test_scr_copies_a_tier_limit_still_applies_beside_another_games_cards():
    """Rule: SCR.copies — the other game's cards are left out of the copy count, the
    Sorcery card's own limit is not."""
    spellbook = {**legal("sorcery").piles["spellbook"], "SC-S01": 5, "T-M01": 2}
    deck = Deck(piles={**legal("sorcery").piles, "spellbook": spellbook})
    found = by_code(check(deck, book("sorcery").format("sorcery")))
    assert set(found) == {"other_game", "copy_limit"}
    assert found["copy_limit"][0].rule == "SCR.copies"


def test_mlbk_actions_another_games_card_is_not_extra_to_the_fixed_set_twice():
    """Rule: MLBK.actions — a card of another game in the action set is one problem."""
    sample = legal("molong")
    deck = Deck(piles={**sample.piles, "actions": {**sample.piles["actions"], "SC-S05": 1}})
    [problem] = check(deck, book("molong").format("molong"))
    assert (problem.code, problem.rule) == ("other_game", "MLBK.actions")


def test_r5_2_the_standard_format_holds_only_this_games_cards():
    """Rule: R5.2 — a 斗巫师 item and a Sorcery minion (kinds this game has too) in a
    standard deck; the 30 are counted without them."""
    counts = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                   "T-M07", "T-I01", "T-I02", "T-I03")}
    fmt = Format(**{**STANDARD.__dict__, "game": "cardlab", "game_name": ("Cardlab", "")})
    deck = Deck(heroes=("T-H01",), counts={**counts, "DW-I01": 1, "SC-S01": 2})
    found = check(deck, fmt)
    assert sorted((p.code, p.rule, p.cards) for p in found) == [
        ("other_game", "R5.2", ("DW-I01",)), ("other_game", "R5.2", ("SC-S01",))]


def test_r5_1_another_games_hero_is_not_this_games_hero():
    """Rule: R5.1 — a 斗巫师 hero card as a standard deck's hero; the deck has no hero."""
    fmt = Format(**{**STANDARD.__dict__, "game": "cardlab", "game_name": ("Cardlab", "")})
    counts = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                   "T-M07", "T-I01", "T-I02", "T-I03")}
    found = by_code(check(Deck(heroes=("DW-H01",), counts=counts), fmt))
    assert set(found) == {"other_game", "hero_missing"}
    assert found["other_game"][0].rule == "R5.1"


def test_without_game_of_nothing_is_checked_for_games():
    """Callers that pass only one game's cards (the engine's tuning) are unchanged."""
    deck = Deck(piles={**legal("sorcery").piles,
                       "spellbook": {**legal("sorcery").piles["spellbook"], "SC-S07": 4}})
    rb = book("sorcery")
    assert check_deck(deck, rb.cards(), rb.format("sorcery")) == check_deck(
        deck, rb.cards(), rb.format("sorcery"), game_of={})


def test_a_card_outside_its_pile_names_its_kind_and_what_the_pile_admits():
    """Rule: SCR.atlas — an artifact and an avatar in the atlas, which holds sites only."""
    atlas = {**legal("sorcery").piles["atlas"], "SC-S08": 1, "SC-A02": 1}
    deck = Deck(piles={**legal("sorcery").piles, "atlas": atlas})
    found = {p.params["card"]: p.params for p in check(deck, book("sorcery").format("sorcery"))
             if p.code == "not_in_pile"}
    assert {code: (p["kind"], p["pile"], p["pile_kinds"], p["target"])
            for code, p in found.items()} == {
        "SC-S08": ("artifact", "atlas", ["site"], "spellbook"),
        "SC-A02": ("avatar", "atlas", ["site"], "avatar")}


@pytest.mark.parametrize(("name", "fmt", "rule"), [
    ("sorcery", "sorcery", "SCR.piles"), ("molong", "molong", "MLBK.piles"),
    ("duwushi", "duwushi", "DW.size"), ("hota", "hota-limited", "HOTA 100.2a (limited: 35 cards)"),
])
def test_an_unknown_pile_names_a_rule(name, fmt, rule):
    """Rule: SCR.piles, MLBK.piles (the files name it); a file that names none falls back to
    the main pile's rule, never an empty one."""
    rb = book(name)
    deck = Deck(piles={"sideboard": {next(iter(rb.cards())): 1}})
    [problem] = [p for p in check_deck(deck, rb.cards(), rb.format(fmt))
                 if p.code == "pile_unknown"]
    assert problem.rule == rule


def test_format_from_rules_carries_its_games_code_and_names():
    rb = book("sorcery")
    fmt = format_from_rules(rb.formats[0].rules, code="sorcery", name="Sorcery constructed",
                            game=rb.game)
    assert fmt.game == "sorcery" and fmt.game_name == ("Sorcery: Contested Realm", "巫道:竞逐领域")
