"""Card rules text generated from ability data, in English and Chinese.

The text is the only way a player learns what a card does, so these tests read it as a player
would: every term of the vocabulary produces a finished sentence in both languages, and a good
set of abilities produce exactly the sentence a card should print.
"""

from __future__ import annotations

import re

import pytest

from rules.engine import text_en, text_templates
from rules.engine.ability_language import EFFECTS, TRIGGERS, normalise_abilities
from rules.engine.cards import CardDef
from rules.engine.reference_examples import FIELD_EXAMPLES, PICK_EXAMPLES
from rules.engine.text import ability_text, card_text, effect_text, keywords_text
from rules.localized import register_derived_language, unregister_derived_language

LANGS = ("en", "zh")
LEFTOVERS = ("{", "}", "None", "[", "]", "_", "  ")   # "_": a data code leaked
ASCII_PUNCTUATION = re.compile(r"[,.:;()]")   # Chinese text uses full-width ，。：；（）


def _wrap(effect: dict) -> dict:
    """An effect example inside a minion ability whose trigger allows it."""
    combat = "skip_combat" in repr(effect) or "combat_enemy" in repr(effect)
    return {"trigger": "combat_start" if combat else "awaken", "effects": [effect]}


def _assert_finished(text: str, lang: str) -> None:
    assert text.strip() == text and text, text
    for leftover in LEFTOVERS:
        assert leftover not in text, f"{leftover!r} left in {text!r}"
    if lang == "en":
        assert text[0].isupper() and text.endswith("."), text
    else:
        assert text.endswith("。"), text
        assert not ASCII_PUNCTUATION.search(text), f"half-width punctuation in {text!r}"


# ---------------------------------------------------------------- every term, both languages


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(TRIGGERS))
def test_every_trigger_example_has_text(name: str, lang: str) -> None:
    """The registry example of every trigger reads as a finished sentence."""
    term = TRIGGERS[name]
    _assert_finished(ability_text(term.example, lang, kind=term.kinds[0]), lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(EFFECTS))
def test_every_effect_example_has_text(name: str, lang: str) -> None:
    """The registry example of every effect reads as a sentence alone and inside an ability."""
    example = EFFECTS[name].example
    trigger = _wrap(example)["trigger"]
    _assert_finished(effect_text(example, lang, trigger=trigger), lang)
    _assert_finished(ability_text(_wrap(example), lang), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_every_reference_example_has_text(lang: str) -> None:
    """The examples of fields and picks (reference page) all read as finished sentences."""
    for example in [*FIELD_EXAMPLES.values(), *PICK_EXAMPLES.values()]:
        _assert_finished(ability_text(example, lang), lang)


def test_every_term_has_words_in_both_languages() -> None:
    """A term added to the vocabulary without text fails here, not on a card page."""
    for term in EFFECTS.values():
        assert term.en is not None and term.templated is not None, term.name
    for module in (text_en, text_templates):
        assert set(module.TRIGGERS) == set(TRIGGERS), module.__name__


# ---------------------------------------------------------------- exact sentences

NAMES_EN = {"dragon": "Dragon", "empire": "Empire"}
NAMES_ZH = {"dragon": "龙族", "empire": "帝国"}
DRAGONS = {"zone": "minions", "filter": {"race": "dragon"}}

# (ability, English, Chinese): one row per behaviour worth pinning down.
SENTENCES = [
    ({"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]},
     "Awaken: Draw 2 cards.", "唤醒技：抽2张卡。"),
    ({"trigger": "awaken", "effects": [{"do": "draw", "count": 1}]},
     "Awaken: Draw a card.", "唤醒技：抽1张卡。"),
    ({"trigger": "last_words", "effects": [{"do": "damage_hero", "amount": 2}]},
     "Last words: Deal 2 damage to the enemy hero.", "战死技：对敌方英雄造成2点伤害。"),
    ({"trigger": "active", "cost": 1, "effects": [
        {"do": "attack", "amount": 2, "target": "self", "duration": "turn"}]},
     "Active (1 energy): This minion gets +2 attack this turn.",
     "主动技（1点能量）：该随从本回合攻击力+2。"),
    ({"trigger": "active", "effects": [{"do": "awaken", "target": {"pick": "chosen",
                                                                  "side": "ally"}}]},
     "Active: Awaken an allied minion.", "主动技：唤醒1个友方随从。"),
    ({"trigger": "aura", "effects": [{"do": "attack", "amount": 1, "target": {
        "pick": "all", "side": "ally", "other": True}}]},
     "Aura: Other allied minions have +1 attack.", "被动技：其他友方随从攻击力+1。"),
    ({"trigger": "turn_start", "effects": [{"do": "energy", "amount": 1}]},
     "At the start of your turn: Gain 1 energy this turn.", "己方回合开始时：本回合获得1点能量。"),
    ({"trigger": "turn_end", "whose": "enemy", "effects": [{"do": "energy", "amount": -1}]},
     "At the end of your opponent's turn: Lose 1 energy this turn.",
     "对方回合结束时：本回合失去1点能量。"),
    ({"trigger": "turn_start", "whose": "each", "sleeping": True, "effects": [
        {"do": "heal_hero", "amount": 1, "hero": "both"}]},
     "At the start of each turn (also while sleeping): Restore 1 HP to each hero.",
     "每个回合开始时（沉睡时也生效）：为双方英雄各恢复1点生命值。"),
    ({"trigger": "combat_start", "effects": [{"do": "attack", "amount": -2,
                                              "target": "combat_enemy", "duration": "turn"}]},
     "Combat start: The opposing minion gets -2 attack this turn.",
     "战斗开始时：与其交战的随从本回合攻击力-2。"),
    ({"trigger": "after_win", "effects": [{"do": "draw", "count": 1}]},
     "After winning a combat: Draw a card.", "战斗胜利后：抽1张卡。"),
    ({"trigger": "ally_dies", "effects": [{"do": "attack", "amount": 1, "target": "self"}]},
     "When another ally is destroyed: This minion gets +1 attack.",
     "其他友方随从被破坏时：该随从攻击力+1。"),
    ({"trigger": "use", "effects": [{"do": "destroy", "target": {
        "pick": "chosen", "filter": {"attack_max": 3}}}]},
     "Use: Destroy an enemy minion with 3 or less attack.",
     "使用：破坏1个攻击力3或以下的敌方随从。"),
    ({"trigger": "use", "effects": [{"do": "attack", "amount": -2, "duration": "turn",
                                     "target": {"pick": "random", "count": 2}}]},
     "Use: Give 2 random enemy minions -2 attack this turn.",
     "使用：使随机2个敌方随从本回合攻击力-2。"),
    ({"trigger": "use", "effects": [{"do": "destroy", "target": {"pick": "all", "side": "any",
        "filter": {"attribute": ["fire", "water"], "keyword": "shield", "cost_min": 2,
                   "cost_max": 4, "awake": False}}}]},
     "Use: Destroy all sleeping fire or water minions with Shield and cost 2 to 4.",
     "使用：破坏所有沉睡状态、拥有护盾、费用2至4的火或水属性随从。"),
    ({"trigger": "use", "effects": [{"do": "return_to_hand", "target": {
        "pick": "chosen", "filter": {"rarity": ["SR", "UR"]}}}]},
     "Use: Return an enemy SR or UR minion to its owner's hand.",
     "使用：将1个敌方SR或UR随从返回手牌。"),
    ({"trigger": "awaken", "effects": [{"do": "grant_keyword", "keyword": "react",
                                        "target": {"pick": "chosen", "side": "ally",
                                                   "other": True}, "duration": "turn"}]},
     "Awaken: Give another allied minion Re-act this turn.",
     "唤醒技：使1个其他友方随从本回合获得再动。"),
    ({"trigger": "awaken", "effects": [{"do": "remove_keyword", "keyword": "regenerate",
                                        "target": "leftmost"}]},
     "Awaken: The leftmost enemy minion loses Regenerate.",
     "唤醒技：最左侧的敌方随从失去再生。"),
    ({"trigger": "aura", "effects": [{"do": "grant_keyword", "keyword": "shield",
                                      "target": "adjacent"}]},
     "Aura: Adjacent allied minions have Shield.", "被动技：相邻的友方随从拥有护盾。"),
    ({"trigger": "awaken", "effects": [{"do": "discard", "count": 2, "pick": "chosen"}]},
     "Awaken: Your opponent discards 2 cards of their choice.",
     "唤醒技：对方选择并弃置2张手牌。"),
    ({"trigger": "awaken", "effects": [{"do": "discard", "count": 1, "player": "own"}]},
     "Awaken: Discard a random card.", "唤醒技：随机弃置1张手牌。"),
    ({"trigger": "awaken", "effects": [{"do": "discard", "count": 2}]},
     "Awaken: Your opponent discards 2 random cards.", "唤醒技：对方随机弃置2张手牌。"),
    ({"trigger": "awaken", "effects": [{"do": "display", "count": 2, "filter": {
        "kind": "minion"}}, {"do": "skip_draw", "player": "own"}]},
     "Awaken: Put 2 minion cards from your hand into your display zone, then skip your next "
     "draw phase.",
     "唤醒技：选择手牌中的2张随从卡置入展示区，然后跳过己方的下一个抽卡阶段。"),
    ({"trigger": "awaken", "effects": [{"do": "summon", "from": "deck", "awake": True,
                                        "filter": {"race": "dragon"}}]},
     "Awaken: Summon a Dragon minion from your deck, awakened.",
     "唤醒技：从卡组中将1张龙族随从卡以唤醒状态放置到空余的随从区。"),
    ({"trigger": "use", "effects": [{"do": "mind_control", "target": {
        "pick": "chosen", "filter": {"faction": "empire"}}}]},
     "Use: Take control of an enemy Empire minion.", "使用：获得1个敌方帝国随从的控制权。"),
    # conditions
    ({"trigger": "awaken", "if": {"count": DRAGONS, "min": 2},
      "effects": [{"do": "draw", "count": 2}]},
     "Awaken: If you control 2 or more Dragon minions, draw 2 cards.",
     "唤醒技：若己方场上的龙族随从数量为2或以上，抽2张卡。"),
    ({"trigger": "aura", "if": {"hero_hp": "own", "max": 10},
      "effects": [{"do": "attack", "amount": 2, "target": "self"}]},
     "Aura: While your hero has 10 or less HP, this minion has +2 attack.",
     "被动技：当己方英雄的生命值为10或以下时，该随从攻击力+2。"),
    ({"trigger": "awaken", "if": {"count": {"zone": "minions", "side": "enemy"}, "max": 0},
      "effects": [{"do": "damage_hero", "amount": 3}]},
     "Awaken: If your opponent controls no minions, deal 3 damage to the enemy hero.",
     "唤醒技：若敌方场上没有随从，对敌方英雄造成3点伤害。"),
    ({"trigger": "awaken", "if": {"count": {"zone": "graveyard"}, "min": 1, "max": 1},
      "effects": [{"do": "draw", "count": 1}]},
     "Awaken: If there is exactly 1 card in your graveyard, draw a card.",
     "唤醒技：若己方墓地中的卡牌数量为1，抽1张卡。"),
    ({"trigger": "awaken", "if": {"hero_hp": "enemy", "min": 5, "max": 10},
      "effects": [{"do": "draw", "count": 1, "player": "enemy"}]},
     "Awaken: If the enemy hero has 5 to 10 HP, your opponent draws a card.",
     "唤醒技：若敌方英雄的生命值为5至10，对方抽1张卡。"),
    # counted amounts
    ({"trigger": "last_words", "effects": [{"do": "damage_hero", "amount": {
        "count": {"zone": "graveyard", "filter": {"kind": "minion"}}, "max": 5}}]},
     "Last words: Deal 1 damage to the enemy hero for each minion card in your graveyard "
     "(up to 5).",
     "战死技：对敌方英雄造成X点伤害（X为己方墓地中的随从卡数量，最多为5）。"),
    ({"trigger": "combat_start", "effects": [{"do": "attack", "target": "self",
                                              "duration": "turn", "amount": {
        "count": {"zone": "minions", "side": "enemy"}, "times": 2, "plus": 1}}]},
     "Combat start: This minion gets +1 attack this turn, and +2 more for each minion your "
     "opponent controls.",
     "战斗开始时：该随从本回合攻击力+X（X为敌方场上的随从数量×2+1）。"),
    ({"trigger": "turn_start", "whose": "enemy", "effects": [{"do": "attack", "duration": "turn",
        "target": {"pick": "all"}, "amount": {"count": {"zone": "hand", "side": "enemy"},
                                              "times": -1}}]},
     "At the start of your opponent's turn: All enemy minions get -1 attack this turn for "
     "each card in your opponent's hand.",
     "对方回合开始时：所有敌方随从本回合攻击力-X（X为对方手牌中的卡牌数量）。"),
    ({"trigger": "awaken", "effects": [{"do": "draw", "count": {
        "count": {"zone": "minions", "side": "any"}, "times": 2}}]},
     "Awaken: Draw 2 cards for each minion on the board.",
     "唤醒技：抽X张卡（X为场上的随从数量×2）。"),
    # choose and skip_combat
    ({"trigger": "use", "effects": [{"do": "choose", "options": [
        [{"do": "draw", "count": 1}], [{"do": "energy", "amount": 1}]]}]},
     "Use: Choose one — Draw a card; or gain 1 energy this turn.",
     "使用：选择一项——抽1张卡；或本回合获得1点能量。"),
    ({"trigger": "awaken", "effects": [{"do": "choose", "options": [
        [{"do": "damage_hero", "amount": 2}], [{"do": "heal_hero", "amount": 2}],
        [{"do": "draw", "count": 1}, {"do": "discard", "count": 1, "player": "own"}]]}]},
     "Awaken: Choose one — Deal 2 damage to the enemy hero; restore 2 HP to your hero; or "
     "draw a card, then discard a random card.",
     "唤醒技：选择一项——对敌方英雄造成2点伤害；为己方英雄恢复2点生命值；或抽1张卡，"
     "然后随机弃置1张手牌。"),
    ({"trigger": "awaken", "effects": [{"do": "choose", "options": [
        [{"do": "choose", "options": [[{"do": "draw", "count": 1}],
                                      [{"do": "draw", "count": 2}]]}],
        [{"do": "energy", "amount": 1}]]}]},
     "Awaken: Choose one — (Choose one — Draw a card; or draw 2 cards); or gain 1 energy this "
     "turn.",
     "唤醒技：选择一项——（选择一项——抽1张卡；或抽2张卡）；或本回合获得1点能量。"),
    ({"trigger": "awaken", "if": {"count": {"zone": "hand", "side": "any"}, "min": 0, "max": 0},
      "effects": [{"do": "skip_draw"}]},
     "Awaken: If there are no cards in both players' hands, your opponent skips their next "
     "draw phase.",
     "唤醒技：若双方手牌中没有卡牌，对方跳过下一个抽卡阶段。"),
    ({"trigger": "combat_start", "effects": [{"do": "skip_combat", "effects": [
        {"do": "return_to_hand", "target": "combat_enemy"}, {"do": "draw", "count": 1}]}]},
     "Combat start: Skip the combat resolution; instead, return the opposing minion to its "
     "owner's hand, then draw a card.",
     "战斗开始时：跳过战斗结算，改为将与其交战的随从返回手牌，然后抽1张卡。"),
]


@pytest.mark.parametrize(("ability", "english", "chinese"), SENTENCES,
                         ids=[row[1][:40] for row in SENTENCES])
def test_ability_sentence(ability: dict, english: str, chinese: str) -> None:
    """Rule: R4.4, R4.5, R4.6, R4.7, R4.11, R2.3.5, R2.3.6, R2.3.9 (the skills' names)"""
    assert ability_text(ability, "en", NAMES_EN) == english
    assert ability_text(ability, "zh", NAMES_ZH) == chinese


def test_names_fall_back_to_the_code() -> None:
    """A race or faction without a display name shows its data code, never nothing."""
    ability = {"trigger": "awaken", "effects": [{"do": "summon", "from": "hand",
                                                 "filter": {"race": "elf"}}]}
    assert ability_text(ability) == "Awaken: Summon an elf minion from your hand."
    assert "elf随从卡" in ability_text(ability, "zh", {"dragon": "龙族"})


def test_attack_changes_carry_their_sign() -> None:
    """Rule: R2.3.4 (buffs add, debuffs subtract)"""
    for amount, sign in ((3, "+3"), (-3, "-3"), (0, "+0")):
        ability = {"trigger": "awaken", "effects": [{"do": "attack", "amount": amount,
                                                     "target": "self"}]}
        assert f"{sign} attack" in ability_text(ability)
        assert f"攻击力{sign}" in ability_text(ability, "zh")


def test_counts_are_pluralised() -> None:
    assert ability_text({"trigger": "awaken", "effects": [{"do": "draw", "count": 1}]}) \
        == "Awaken: Draw a card."
    assert ability_text({"trigger": "awaken", "effects": [{"do": "draw", "count": 3}]}) \
        == "Awaken: Draw 3 cards."
    random_one = {"trigger": "use", "effects": [{"do": "destroy", "target": "random"}]}
    assert ability_text(random_one) == "Use: Destroy a random enemy minion."


def test_a_heros_ally_dies_has_no_other_minion() -> None:
    """A hero is not a minion, so every allied minion's death triggers it."""
    ability = TRIGGERS["ally_dies"].example | {"effects": [{"do": "heal_hero", "amount": 1}]}
    assert ability_text(ability, kind="hero").startswith("When an allied minion is destroyed:")
    assert ability_text(ability, "zh", kind="hero").startswith("友方随从被破坏时：")


# ---------------------------------------------------------------- forms and cards


def test_raw_and_normalised_abilities_read_the_same() -> None:
    """Text depends on what an ability does, not on how much of it was spelled out."""
    examples = [row[0] for row in SENTENCES] + [t.example for t in TRIGGERS.values()]
    examples += [_wrap(t.example) for t in EFFECTS.values()]
    examples += [*FIELD_EXAMPLES.values(), *PICK_EXAMPLES.values()]
    for raw in examples:
        normalised = normalise_abilities([raw])[0]
        for lang in LANGS:
            assert ability_text(raw, lang) == ability_text(normalised, lang), raw


MINION = {"code": "m1", "kind": "minion", "name_en": "Drake", "cost": 2, "attack": 3,
          "attribute": "fire", "race": "dragon", "keywords": ["shield", "react"],
          "abilities": [{"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]},
                        {"trigger": "ally_dies", "effects": [{"do": "attack", "amount": 1,
                                                               "target": "self"}]}]}


def test_card_text_has_keywords_then_one_line_per_ability() -> None:
    """Rule: R4.8, R4.9 (keywords print as their names)"""
    expected_en = ("Shield. Re-act.\nAwaken: Draw 2 cards.\n"
                   "When another ally is destroyed: This minion gets +1 attack.")
    expected_zh = "护盾。再动。\n唤醒技：抽2张卡。\n其他友方随从被破坏时：该随从攻击力+1。"
    assert card_text(MINION) == expected_en
    assert card_text(MINION, "zh") == expected_zh
    card = CardDef.from_dict(MINION)
    assert card_text(card) == expected_en
    assert card_text(card, "zh") == expected_zh


def test_card_text_of_a_vanilla_card_and_of_a_hero() -> None:
    vanilla = {"code": "v", "kind": "minion", "cost": 1, "attack": 1, "attribute": "dark"}
    assert card_text(vanilla) == ""
    assert card_text({**vanilla, "keywords": ["regenerate"]}, "zh") == "再生。"
    hero = {"code": "h", "kind": "hero", "hp": 20, "attribute": "light", "abilities": [
        {"trigger": "ally_dies", "effects": [{"do": "draw", "count": 1}]}]}
    assert card_text(CardDef.from_dict(hero)) == "When an allied minion is destroyed: Draw a card."


def test_keywords_text() -> None:
    """Rule: R4.8, R4.9, R4.10"""
    assert keywords_text(["shield", "react", "regenerate"]) == "Shield. Re-act. Regenerate."
    assert keywords_text(["shield", "react", "regenerate"], "zh") == "护盾。再动。再生。"
    assert keywords_text([]) == ""


def test_a_language_without_a_grammar_reads_the_english_text() -> None:
    example = TRIGGERS["awaken"].example
    assert ability_text(example, "fr") == ability_text(example, "en")
    assert ability_text(example, "zh") == ability_text(example, "zh-hans") != \
        ability_text(example, "en")


def test_a_derived_language_derives_its_text_from_the_english() -> None:
    register_derived_language("en-xa", str.upper)
    try:
        assert card_text({"kind": "minion", "keywords": ["shield"],
                          "abilities": [TRIGGERS["awaken"].example]}, "en-xa") == card_text(
            {"kind": "minion", "keywords": ["shield"],
             "abilities": [TRIGGERS["awaken"].example]}, "en").upper()
    finally:
        unregister_derived_language("en-xa")
