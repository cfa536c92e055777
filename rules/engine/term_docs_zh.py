"""The ability language's term descriptions in Chinese, beside the English ones each registry
holds (``term_registry.py``, ``effect_definitions.py``): ``DOCS_ZH[(section, name)]`` for a
term or a field of a section, ``FIELD_DOCS_ZH[name]`` for an effect's own fields (which have
no English description of their own, only a type). The reference (``reference.py``) pairs them;
``tests/rules/test_ability_language.py`` checks every term has one. Rule ids are kept as
written; a code an ability writes (a field, a value) is in backticks, as in the English ones.
"""

from __future__ import annotations

from typing import Final

DOCS_ZH: Final[dict[tuple[str, str], str]] = {
    # triggers
    ("trigger", "awaken"): "该随从被唤醒时（支付能量或由效果唤醒）。",
    ("trigger", "last_words"): "该随从被破坏时（再生时不算）。",
    ("trigger", "active"): ("控制者每回合可使用一次，支付 `cost` 点能量；"
                            "随从必须已唤醒（唤醒当回合也可）。"),
    ("trigger", "aura"): ("只要来源是已唤醒的随从或英雄，且 `if` 条件成立，就一直生效；"
                          "只能用 `attack` 和 `grant_keyword` 效果。"),
    ("trigger", "turn_start"): "回合开始时，在能量阶段之后。",
    ("trigger", "turn_end"): "回合结束时，主要阶段结束之际。",
    ("trigger", "combat_start"): "该随从的战斗开始时（无论进攻还是防守）；进攻方先结算。",
    ("trigger", "after_win"): "该随从赢得一场战斗后（对方被破坏）。",
    ("trigger", "ally_dies"): "其控制者的另一个随从被破坏时。",
    ("trigger", "use"): "从手牌支付费用使用该道具时；之后它进入墓地。",
    # the ability's own fields
    ("ability_field", "effects"): "依次发生的效果。",
    ("ability_field", "if"): "除非此条件成立，否则技能不起作用。",
    ("ability_field", "sleeping"): "随从沉睡时也生效的被动技能（R4.1）。",
    ("ability_field", "cost"): "使用它需支付的能量。",
    ("ability_field", "whose"): "谁的回合：己方（`own`）、对方（`enemy`）或双方（`each`）。",
    # effects
    ("effect", "damage_hero"): "英雄失去生命值。",
    ("effect", "heal_hero"): "英雄恢复生命值，不超过其卡面血量。",
    ("effect", "destroy"): "随从进入濒死；再生仍可救回它们。",
    ("effect", "attack"): ("攻击力改变 `amount`（负数为削弱），本回合或永久；"
                           "在光环中则在光环成立期间。"),
    ("effect", "grant_keyword"): "给随从一个关键词（关键词表中的任意一个）。",
    ("effect", "remove_keyword"): "去掉随从的一个关键词（印刷的或获得的）。",
    ("effect", "draw"): "玩家抽牌（牌库为空时每张扣 1 点生命值，R2.4.3）。",
    ("effect", "discard"): "玩家从手牌弃牌，随机或自选。",
    ("effect", "display"): ("控制者把手牌中符合 `filter` 的卡放入展示区；"
                            "下一个抽牌阶段之后它们回到手牌。"),
    ("effect", "skip_draw"): "玩家跳过下一个抽牌阶段（展示区的卡被弃掉）。",
    ("effect", "return_to_hand"): "随从回到其控制者的手牌。",
    ("effect", "summon"): ("把手牌或牌库中的随从卡放进其控制者的空格子，"
                           "除非 `awake`，否则为沉睡状态。"),
    ("effect", "awaken"): "免费唤醒沉睡的友方随从；它们的唤醒技会触发。",
    ("effect", "energy"): "控制者本回合的能量改变（不低于 0）。",
    ("effect", "mind_control"): "把敌方随从夺到己方的空格子，直到游戏结束。",
    ("effect", "skip_combat"): "仅用于 `combat_start`：这场战斗不结算，改为结算这些效果。",
    ("effect", "choose"): "控制者从选项中挑一个并结算。",
    # target picks
    ("target_pick", "self"): "技能所在的随从自身。",
    ("target_pick", "chosen"): "由控制者选择的一个随从。",
    ("target_pick", "random"): "随机选取 `count` 个随从。",
    ("target_pick", "all"): "所有符合条件的随从。",
    ("target_pick", "leftmost"): "最左边格子里符合条件的随从。",
    ("target_pick", "rightmost"): "最右边格子里符合条件的随从。",
    ("target_pick", "adjacent"): "技能所在随从两侧格子里的随从。",
    ("target_pick", "combat_enemy"): ("战斗中的另一个随从"
                                      "（仅用于 `combat_start`：战斗之后败者已不在场）。"),
    # a target's fields
    ("target_field", "pick"): "选哪些随从（见各种选取方式）。",
    ("target_field", "side"): ("默认：`self` 和 `adjacent` 为友方（`ally`），"
                                "其余为敌方（`enemy`）。"),
    ("target_field", "filter"): "只选符合条件的随从。",
    ("target_field", "count"): "随机选取时选几个。",
    ("target_field", "other"): "不包括技能所在的随从自身。",
    # a filter's fields
    ("filter_field", "attribute"): "一个属性或属性列表。",
    ("filter_field", "rarity"): "一个稀有度或稀有度列表。",
    ("filter_field", "kind"): "卡牌种类（用于区域中的卡）。",
    ("filter_field", "keyword"): "具有这些关键词之一。",
    ("filter_field", "faction"): "一个阵营代码或代码列表。",
    ("filter_field", "race"): "一个种族代码或代码列表。",
    ("filter_field", "cost_min"): "能量费用至少为此值。",
    ("filter_field", "cost_max"): "能量费用至多为此值。",
    ("filter_field", "attack_min"): "当前攻击力至少为此值（卡牌按印刷攻击力）。",
    ("filter_field", "attack_max"): "当前攻击力至多为此值（卡牌按印刷攻击力）。",
    ("filter_field", "awake"): "只要已唤醒的（`true`）或只要沉睡的（`false`）随从。",
    # a count's fields
    ("count_field", "zone"): "在哪个区域计数。",
    ("count_field", "side"): "谁的区域。",
    ("count_field", "filter"): "只计符合条件的。",
    # an amount's fields
    ("amount_field", "count"): "计数的对象。",
    ("amount_field", "times"): "乘以此数。",
    ("amount_field", "plus"): "再加上此数。",
    ("amount_field", "max"): "但至多为此值。",
    # a condition's fields
    ("condition_field", "count"): "当此计数在 `min..max` 之间时成立。",
    ("condition_field", "hero_hp"): "当该英雄的生命值在 `min..max` 之间时成立。",
    ("condition_field", "min"): "至少为此值。",
    ("condition_field", "max"): "至多为此值。",
}

# An effect's own fields, by name (the effects' registry gives them a type, no description).
FIELD_DOCS_ZH: Final[dict[str, str]] = {
    "amount": "数量",
    "hero": "哪位英雄",
    "target": "目标",
    "duration": "持续时间",
    "keyword": "关键词",
    "count": "张数",
    "player": "哪位玩家",
    "pick": "如何挑选",
    "filter": "只限符合条件的卡",
    "from": "从哪里",
    "awake": "放入时已唤醒",
    "effects": "改为结算的效果",
    "options": "可选的效果列表",
    "cost": "使用它需支付的能量",
    "whose": "谁的回合",
}
