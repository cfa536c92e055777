"""What an attack will do, as the attacking seat can know it before declaring it: a pure
function of the game and the attack, for a player's screen (the game page shows it on every
attack it offers). It changes nothing and reads only what the attacker's view shows.

- R2.3.3 / R4.8: each side's multiplier (2 for the side whose attribute beats the other's, unless
  the other has shield), and whether a shield cancelled a doubling;
- R2.3.4: each side's final attack (printed × multiplier + buffs − debuffs, at least 0);
- R2.3.7: who enters dying (the lower final attack; both on a tie), and R4.10: who of them
  revives instead (regenerate);
- R2.3.10: the damage an attack on the hero deals (the hero's attribute as the defender's when
  the ruleset's ``hero_advantage`` is on); the hero does not strike back.

A face-down defender the attacker has never seen (R2.3.2 reveals it only in the combat) is
``unknown``: nothing of it is computed, so the preview tells nothing the view does not.
Skills that trigger at combat start (R2.3.5) or skip the combat (R2.3.6) can change the outcome:
``skills`` says when either side has one that would run, and the outcome is then the one
before them.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import HERO, Action
from rules.engine.advantage import has_advantage
from rules.engine.cards import COMBAT_START_BIT
from rules.engine.core import GameState
from rules.engine.state import Minion
from rules.engine.values import final_attack, has_keyword


def _combat_skills(minion: Minion) -> bool:
    """Whether a combat-start skill of this minion would run (R2.3.5; a sleeping minion's only
    if the skill works while sleeping, R2.3.2)."""
    if not minion.card.triggers & COMBAT_START_BIT:
        return False
    return any(minion.awake or ability["sleeping"]
               for ability in minion.card.by_trigger["combat_start"])


def _side(game: GameState, minion: Minion, final: int, other: str | None, other_shield: bool,
          own_shield: bool, dies: bool) -> dict[str, Any]:
    advantaged = has_advantage(minion.card.attribute, other)
    return {"attack": final, "doubled": advantaged and not other_shield,
            "shield_cancels": advantaged and other_shield,
            "shield": own_shield, "dies": dies,
            "revives": dies and has_keyword(game, minion, "regenerate")}


def combat_preview(game: GameState, action: Action) -> dict[str, Any] | None:
    """The outcome of ``action`` (an attack by the player to move) before combat-start skills,
    or None for any other action. Rules: R2.3.3, R2.3.4, R2.3.7, R2.3.10, R4.8, R4.10."""
    if action.kind != "attack" or game.decision is None:
        return None
    seat = game.decision.player
    me, foe = game.players[seat], game.players[1 - seat]
    attacker = me.minions[action.a] if 0 <= action.a < len(me.minions) else None
    if attacker is None:
        return None
    if action.b == HERO:                                                   # R2.3.10
        against = foe.hero.attribute if game.ruleset.hero_advantage else None
        damage = final_attack(game, attacker, against, False)
        return {"target": "hero", "damage": damage, "hp": foe.hp, "lethal": damage >= foe.hp,
                "doubled": has_advantage(attacker.card.attribute, against)}
    defender = foe.minions[action.b] if 0 <= action.b < len(foe.minions) else None
    if defender is None:
        return None
    if not defender.awake and not defender.public:                          # R2.3.2
        return {"target": "minion", "unknown": True}
    a_shield = has_keyword(game, attacker, "shield")                        # R4.8
    d_shield = has_keyword(game, defender, "shield")
    a_final = final_attack(game, attacker, defender.card.attribute, d_shield)   # R2.3.3–4
    d_final = final_attack(game, defender, attacker.card.attribute, a_shield)
    return {"target": "minion", "unknown": False,                          # R2.3.7
            "attacker": _side(game, attacker, a_final, defender.card.attribute, d_shield,
                              a_shield, a_final <= d_final),
            "defender": _side(game, defender, d_final, attacker.card.attribute, a_shield,
                              d_shield, d_final <= a_final),
            "skills": _combat_skills(attacker) or _combat_skills(defender)}
