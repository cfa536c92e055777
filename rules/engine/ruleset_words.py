"""The ruleset's options in sentences, in English and Chinese: what each option of
``rules.engine.cards.Ruleset`` means when on or off (a switch) or with its number (``{n}``),
with the rule it adjusts. The run pages read them (``cards.rulesets``); a new option is one entry
here beside its field in ``Ruleset`` (a test fails while an option has none).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OptionWords:
    """An option's sentences: ``on``/``off`` for a switch, ``on`` with ``{n}`` for a number."""

    option: str
    rule: str                     # the rule it adjusts ("" for the engine's own [ruling])
    on_en: str
    on_zh: str
    off_en: str = ""
    off_zh: str = ""

    def sentence(self, value: object, lang: str) -> str:
        zh = lang == "zh"
        if self.off_en:
            return (self.on_zh if zh else self.on_en) if value else \
                (self.off_zh if zh else self.off_en)
        return (self.on_zh if zh else self.on_en).format(n=value)


RULESET_OPTIONS: dict[str, OptionWords] = {o.option: o for o in (
    OptionWords("hero_advantage", "R2.3.10",
                "attribute advantage counts when attacking a hero (R2.3.10)",
                "攻击英雄时属性克制生效(R2.3.10)",
                "attribute advantage does not count against heroes (R2.3.10)",
                "攻击英雄时属性克制不生效(R2.3.10)"),
    OptionWords("attack_or_skill", "R2.2.3",
                "a minion either attacks or uses its skill in a turn, not both (R2.2.3 e)",
                "随从在一回合内只能攻击或使用技能,二者择一(R2.2.3 e)",
                "a minion may attack and use its skill in the same turn (R2.2.3 e)",
                "随从可在同一回合内攻击并使用技能(R2.2.3 e)"),
    OptionWords("react_ignores_awaken_turn", "R4.9",
                "re-act may hit the enemy hero on the turn the minion awakened (R4.9)",
                "再动可在随从被唤醒的回合攻击敌方英雄(R4.9)",
                "re-act may not hit the enemy hero on the turn the minion awakened (R4.9)",
                "再动不能在随从被唤醒的回合攻击敌方英雄(R4.9)"),
    OptionWords("always_use_optional_skills", "R6.1",
                "awaken skills and last words always resolve, unasked (R6.1)",
                "唤醒技和战死技一律直接发动,不询问(R6.1)",
                "a player may decline an awaken skill or last words (R6.1)",
                "玩家可以放弃发动唤醒技或战死技(R6.1)"),
    OptionWords("face_down_last_words", "R6.2",
                "a face-down minion's last words resolve (R6.2)",
                "背面朝上的随从的战死技仍会结算(R6.2)",
                "a face-down minion's last words do not resolve (R6.2)",
                "背面朝上的随从的战死技不结算(R6.2)"),
    OptionWords("sleeping_keywords", "R6.3",
                "shield and regenerate work while a minion sleeps (R6.3)",
                "随从沉睡时护盾与再生仍然有效(R6.3)",
                "a sleeping minion's keywords do not work (R6.3)",
                "沉睡随从的关键词无效(R6.3)"),
    OptionWords("summoned_awake_is_awakened", "R6.4",
                "a minion summoned awake counts as awakened: its awaken skill triggers (R6.4)",
                "以唤醒状态召唤的随从视为被唤醒:其唤醒技会触发(R6.4)",
                "a minion summoned awake is not awakened: no awaken skill (R6.4)",
                "以唤醒状态召唤的随从不算被唤醒:唤醒技不触发(R6.4)"),
    OptionWords("mind_controlled_may_attack", "R6.5",
                "a minion taken by mind control may attack on the turn it changes sides (R6.5)",
                "被精神控制夺取的随从在易主当回合可以攻击(R6.5)",
                "a minion taken by mind control cannot attack on the turn it changes sides (R6.5)",
                "被精神控制夺取的随从在易主当回合不能攻击(R6.5)"),
    OptionWords("turn_limit", "R2.2.6",
                "a draw after {n} turns per player (R2.2.6)",
                "每位玩家 {n} 回合后判为平局(R2.2.6)"),
    OptionWords("action_limit", "",
                "at most {n} main-phase actions per turn",
                "每回合主要阶段最多 {n} 个行动"),
    OptionWords("slots", "R1.1",
                "{n} minion slots per side (R1.1)",
                "每方 {n} 个随从区(R1.1)"),
    OptionWords("opening_hand", "R2.1.3",
                "an opening hand of {n} cards (R2.1.3)",
                "起手 {n} 张牌(R2.1.3)"),
    OptionWords("energy_cap", "R2.2.2",
                "energy grows to at most {n} (R2.2.2)",
                "能量最多增长到 {n}(R2.2.2)"),
    OptionWords("first_turn_energy", "R2.2.2",
                "{n} energy on the first turn (R2.2.2)",
                "第一回合 {n} 点能量(R2.2.2)"),
    OptionWords("hand_limit", "R2.2.4",
                "a hand of at most {n} cards at the end of a turn (R2.2.4)",
                "回合结束时手牌最多 {n} 张(R2.2.4)"),
    OptionWords("display_limit", "R2.2.4",
                "at most {n} cards on display (R2.2.4)",
                "展示区最多 {n} 张卡(R2.2.4)"),
)}
# The rulesets the engine names, (English, Chinese); another ruleset shows its own name.
RULESET_NAMES = {"standard": ("Standard", "标准")}


def ruleset_name(name: str, lang: str) -> str:
    """A ruleset's name in ``lang``: the engine's for its own, else the name capitalised."""
    if name in RULESET_NAMES:
        return RULESET_NAMES[name][1 if lang == "zh" else 0]
    return name.capitalize()
