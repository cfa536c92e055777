"""The site's one door for deck legality (decks/problem_text.py) and for the format schema's
problems (decks/formats/problem_text.py): the engine says what is wrong (a code and plain
parameters), the door says it in the reader's language — English or Chinese, the card, pile
and format names in that language, card kinds from their registry. Rule: R5 (and the rules
the other games' formats name)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml
from django.utils import translation

from decks.formats.problem_text import format_problem_text
from decks.problem_text import PROBLEM_CODES, ProblemText, problems_text
from rules.decks import formats
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.formats import FormatProblem, RuleBook, rule_book_from_data, rules_problems
from rules.decks.legality import STANDARD, Deck, Format, check_deck

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "rules" / "data" / "games"
CARDS = load_card_set(TEST_SET).cards
LEGAL_COUNTS = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                     "T-M07", "T-I01", "T-I02", "T-I03")}


def legal_deck(heroes: tuple[str, ...] = ("T-H01",), **changes: int) -> Deck:
    counts = {**LEGAL_COUNTS, **changes}
    return Deck(heroes=heroes, counts={code: n for code, n in counts.items() if n})


def said(deck: Deck, fmt: Format = STANDARD, lang: str = "en", cards=CARDS,
         **options) -> list[ProblemText]:
    problems = check_deck(deck, cards, fmt, **options)
    with translation.override(lang):
        return problems_text(problems, fmt=fmt, cards=cards)


def book(name: str) -> RuleBook:
    return rule_book_from_data(yaml.safe_load((GAMES / f"{name}.yaml").read_text("utf-8")))


def sample(name: str, deck_name: str, lang: str = "en") -> list[ProblemText]:
    rb = book(name)
    deck = next(d for d in rb.decks if d.name == deck_name)
    return said(Deck(piles=deck.piles), rb.format(deck.format), lang, rb.cards(),
                set_of=rb.set_of())


def test_every_problem_the_engine_makes_has_its_sentences():
    """Rule: R5 — the codes ``rules/decks/legality.py`` writes are the codes the door says."""
    source = (ROOT / "rules" / "decks" / "legality.py").read_text("utf-8")
    made = {node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Problem"
            and node.args and isinstance(node.args[0], ast.Constant)}
    assert made == PROBLEM_CODES


def test_r5_1_hero_problems_in_english():
    """Rule: R5.1"""
    [missing] = said(legal_deck(heroes=()))
    assert missing.message == "The deck has no hero; the Standard format needs exactly 1 hero."
    assert missing.fix == "pick a hero"
    [two] = said(legal_deck(heroes=("T-H01", "T-H02")))
    assert two.message == "The deck has 2 heroes; the Standard format allows exactly 1."
    assert two.fix == "keep one hero and remove Tide Oracle"
    [minion] = said(legal_deck(heroes=("T-M01",)))
    assert minion.message == ("Ember Pup is a minion, not a hero, so it cannot be the deck's "
                              "hero.")
    assert minion.fix == "pick a hero card as the hero instead of Ember Pup"


def test_r5_2_size_and_kind_problems_in_english():
    """Rule: R5.2"""
    [small] = said(legal_deck(**{"T-M01": 1}))
    assert small.message == "The deck has 28 cards; the Standard format needs exactly 30."
    assert small.fix == "add 2 more cards"
    [large] = said(legal_deck(**{"T-M14": 1}))
    assert large.message == "The deck has 31 cards; the Standard format allows exactly 30."
    assert large.fix == "remove 1 card"
    [hero] = said(legal_deck(**{"T-M01": 2, "T-H02": 1}))
    assert hero.message == ("Tide Oracle is a hero; a Standard deck may only hold minions "
                            "and items.")
    assert hero.fix == "remove 1 × Tide Oracle (make it the deck's hero instead)"


def test_r5_3_copy_limits_in_english_and_the_fix_in_chinese():
    """Rule: R5.3"""
    [wyrm] = said(legal_deck(**{"T-M01": 1, "T-M12": 2}))
    assert wyrm.as_dict() == {
        "code": "copy_limit", "rule": "R5.3", "cards": ["T-M12"], "fix": "remove 1 × Night Wyrm",
        "message": "Night Wyrm: 2 copies — UR cards are limited to 1."}
    [pup] = said(legal_deck(**{"T-M01": 4, "T-M02": 2}))
    assert pup.message == "Ember Pup: 4 copies — N cards are limited to 3."
    [zh] = said(legal_deck(**{"T-M01": 1, "T-M12": 2}), lang="zh-hans")
    assert zh.fix == "移除 1 张「夜之龙」"


def test_r5_4_banned_and_limited_cards_in_english():
    """Rule: R5.4"""
    fmt = Format(code="club", name="Club", card_limits={"T-M01": 0, "T-M02": 1, "T-M03": 2})
    banned, limited, semi = said(legal_deck(), fmt)
    assert (banned.message, banned.fix) == ("Ember Pup is banned in the Club format.",
                                            "remove 3 × Ember Pup")
    assert (limited.message, limited.fix) == (
        "Thorn Boar: 3 copies — it is limited to 1 in the Club format.", "remove 2 × Thorn Boar")
    assert semi.message.endswith("it is semi-limited to 2 in the Club format.")
    assert semi.fix == "remove 1 × Reef Guard"


def test_formats_as_data_say_their_own_sizes_and_kinds():
    fmt = Format(code="mini", name="Mini", deck_min=5, deck_max=10, deck_kinds=("minion",),
                 legal_sets=("TEST",))
    deck = Deck(heroes=("T-H01",), counts={"T-M01": 3, "T-I01": 1, "T-M02": 2})
    kind, out_of_set = said(deck, fmt, set_of={"T-M02": "OLD"})
    assert kind.message == "Fire Bolt is an item; a Mini deck may only hold minions."
    assert out_of_set.message == ("Thorn Boar is from the set OLD, which is not legal in the "
                                  "Mini format.")
    assert out_of_set.fix == "remove 2 × Thorn Boar"
    [too_few] = said(Deck(heroes=("T-H01",), counts={"T-M01": 1}), fmt)
    assert too_few.message == "The deck has 1 cards; the Mini format needs 5 to 10."


def test_r5_problems_read_in_chinese():
    """Rule: R5.1, R5.2, R5.3 — the sentences of the engine's old Chinese catalogue, with the
    standard format's Chinese name."""
    hero, size, copies = said(Deck(heroes=(), counts={"T-M05": 2, "T-M12": 3}), lang="zh-hans")
    assert hero.message == "卡组没有英雄;标准赛制需要恰好 1 张英雄卡。"
    assert hero.fix == "选择一张英雄卡"
    assert size.message == "卡组有 5 张卡;标准赛制需要恰好 30 张。"
    assert size.fix == "再加入 25 张卡"
    assert copies.fix == "移除 2 张「夜之龙」"
    assert not any(ch.isascii() and ch.isalpha() for p in (hero, size, copies)
                   for ch in (p.message + p.fix).replace("UR", ""))
    [kind] = said(legal_deck(**{"T-M01": 2, "T-H02": 1}), lang="zh-hans")
    assert kind.message == "「潮汐先知」是英雄卡;标准赛制的卡组只能包含随从卡和道具卡。"


def test_each_language_reads_its_own_words_from_the_same_problems():
    """The door renders in the active language: the same problems, two readers."""
    problems = check_deck(legal_deck(heroes=()), CARDS)
    with translation.override("en"):
        english = problems_text(problems, fmt=STANDARD, cards=CARDS)
    with translation.override("zh-hans"):
        chinese = problems_text(problems, fmt=STANDARD, cards=CARDS)
    assert [p.code for p in english] == [p.code for p in chinese] == ["hero_missing"]
    assert english[0].fix == "pick a hero" and chinese[0].fix == "选择一张英雄卡"


# --- other games' formats: piles, kinds and tiers named by the game ----------------------------


def test_dw_piles_and_kinds_are_named_by_the_game():
    """Rule: DW.hero, DW.size"""
    rb = book("duwushi")
    legal = dict(next(d for d in rb.decks if not d.expect).piles["deck"])
    no_hero = {c: n for c, n in legal.items() if c not in ("DW-H01", "DW-H02")}
    no_hero.update({"DW-I07": 2, "DW-I08": 1, "DW-M08": 1})
    [hero] = said(Deck(piles={"deck": no_hero}), rb.format("duwushi"), cards=rb.cards())
    assert hero.code == "kind_too_few" and hero.fix == "add 1 × Hero to Deck"
    short = {c: n for c, n in legal.items() if c != "DW-I01"}
    [small] = said(Deck(piles={"deck": short}), rb.format("duwushi"), cards=rb.cards())
    assert small.message == "Deck: 28 cards; the Duel Wizards format needs at least 30."
    assert small.fix == "add 2 more cards to Deck"


def test_another_games_card_is_named_with_the_game_in_both_languages():
    """Rule: SCR.spellbook"""
    rb = book("sorcery")
    legal = next(d for d in rb.decks if not d.expect)
    deck = Deck(piles={**legal.piles, "spellbook": {**legal.piles["spellbook"], "T-M01": 1}})
    cards = {**rb.cards(), **CARDS}
    game_of = {**rb.game_of(), **dict.fromkeys(CARDS, "cardlab")}
    [english] = said(deck, rb.format("sorcery"), cards=cards, game_of=game_of)
    assert english.message == ("Ember Pup is not a Sorcery: Contested Realm card; a Sorcery "
                               "constructed deck holds only Sorcery: Contested Realm cards.")
    assert english.fix == "remove 1 × Ember Pup"
    [chinese] = said(deck, rb.format("sorcery"), "zh-hans", cards=cards, game_of=game_of)
    assert chinese.message == ("「余烬幼犬」不是巫道:竞逐领域的卡;"
                               "巫道构筑卡组只能包含巫道:竞逐领域的卡。")
    assert chinese.fix == "移除 1 张「余烬幼犬」"


def test_a_kind_name_starting_with_a_vowel_takes_an():
    """Rule: SCR.atlas — the game's own kind names are capitalised: "is an Artifact"."""
    rb = book("sorcery")
    legal = next(d for d in rb.decks if not d.expect)
    atlas = {**legal.piles["atlas"], "SC-S08": 1, "SC-A02": 1}
    found = said(Deck(piles={**legal.piles, "atlas": atlas}), rb.format("sorcery"),
                 cards=rb.cards())
    assert {p.message for p in found if p.code == "not_in_pile"} == {
        "Brass Compass is an Artifact; Atlas may only hold Site.",
        "Gale Hermit is an Avatar; Atlas may only hold Site."}
    assert {p.fix for p in found if p.code == "not_in_pile"} == {
        "move 1 × Brass Compass from Atlas to Spellbook",
        "move 1 × Gale Hermit from Atlas to Avatar"}


def test_a_site_in_the_spellbook_says_where_it_belongs_in_both_languages():
    """Rule: SCR.spellbook"""
    [english] = sample("sorcery", "Sorcery a site in the spellbook")
    assert english.fix == "move 1 × Sunken Spire from Spellbook to Atlas"
    [chinese] = sample("sorcery", "Sorcery a site in the spellbook", "zh-hans")
    assert "地图册" in chinese.fix and "沉没尖塔" in chinese.fix


def test_copy_limits_name_the_rarity_tier_in_both_languages():
    """Rule: SCR.copies"""
    [english] = sample("sorcery", "Sorcery three copies of an elite card")
    assert english.message == "Storm Colossus: 3 copies — Elite cards are limited to 2."
    [chinese] = sample("sorcery", "Sorcery three copies of an elite card", "zh-hans")
    assert "精锐" in chinese.message and "风暴巨像" in chinese.message


def test_a_card_without_a_tier_is_told_to_get_one():
    """Rule: SCR.copies"""
    from rules.decks.formats import SampleCard

    rb = book("sorcery")
    legal = next(d for d in rb.decks if not d.expect)
    cards = {**rb.cards(), "SC-X01": SampleCard("SC-X01", "minion", "Tierless Wisp", "无阶幽灵")}
    deck = Deck(piles={**legal.piles, "spellbook": {**legal.piles["spellbook"], "SC-X01": 9}})
    [english] = said(deck, rb.format("sorcery"), cards=cards)
    assert english.message == ("Tierless Wisp has no rarity tier, and the Sorcery constructed "
                               "format limits copies by tier (Ordinary, Exceptional, Elite, "
                               "Unique).")
    [chinese] = said(deck, rb.format("sorcery"), "zh-hans", cards=cards)
    assert "无阶幽灵" in chinese.message and "精锐" in chinese.message
    assert "稀有度" in chinese.fix


@pytest.mark.parametrize("name", ["duwushi", "hota", "molong", "sorcery"])
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_every_sample_deck_problem_is_said_whole(name, lang):
    """Every problem of every sample deck has a message and a fix, with no field left."""
    for deck in book(name).decks:
        for problem in sample(name, deck.name, lang):
            assert problem.message and problem.fix, (deck.name, problem.code)
            assert "{" not in problem.message + problem.fix, (deck.name, problem.code)


# --- the format schema's problems ----------------------------------------------------------


def test_schema_problems_read_in_english_and_chinese():
    bad = {"piles": [{"code": "deck", "name_en": "Deck", "name_zh": "卡组", "min": 5, "max": 2,
                      "kinds": ["planet"]}]}
    problems = rules_problems(bad, {"hero"}, set())
    with translation.override("en"):
        assert [format_problem_text(p) for p in problems] == [
            "rules.piles[0].max: is smaller than min (2 < 5)",
            "rules.piles[0].kinds[0]: 'planet' is not a card kind of this game (known: hero)"]
    with translation.override("zh-hans"):
        assert [format_problem_text(p) for p in problems] == [
            "rules.piles[0].max: 小于最小值(2 < 5)",
            "rules.piles[0].kinds[0]: 'planet' 不是本游戏的卡牌种类(已知:hero)"]


@pytest.mark.parametrize("code", formats.CODES)
def test_every_schema_problem_has_its_sentence_in_both_languages(code):
    problem = FormatProblem("rules.piles[0]", code, {"known": []})
    with translation.override("en"):
        english = format_problem_text(problem)
    with translation.override("zh-hans"):
        chinese = format_problem_text(problem)
    assert english.startswith("rules.piles[0]: ") and chinese.startswith("rules.piles[0]: ")
    assert english != chinese
