"""The combat preview (``rules.engine.preview``): what an attack will do, as the attacker can
know it — the advantage multiplier (R2.3.3), shield (R4.8), final attacks (R2.3.4), who dies
(R2.3.7) and who revives (R4.10), the damage to a hero (R2.3.10) — and nothing of a face-down
defender never seen (R2.3.2). The engine's own combats agree with it."""

from __future__ import annotations

import random

from rules.engine import HERO, Action, Game
from rules.engine.preview import combat_preview
from tests.rules.helpers import TEST, attack, awake, events, make, minion


def preview(game, slot: int, target: int | str):
    return combat_preview(game, Action("attack", slot, HERO if target == "hero" else target))


def test_r2_3_3_the_preview_doubles_the_advantaged_side_and_says_who_dies():
    game = make({"minions": [awake("F2")]}, {"minions": [awake("G3"), awake("L1")]})
    seen = preview(game, 0, 0)
    assert seen["attacker"]["attack"] == 4 and seen["attacker"]["doubled"]
    assert seen["defender"]["attack"] == 3 and not seen["defender"]["doubled"]
    assert not seen["attacker"]["dies"] and seen["defender"]["dies"]
    attack(game, 0, 0)
    assert events(game, "combat_result")[-1]["attack"] == 4


def test_r2_3_7_on_equal_final_attack_the_preview_says_both_die():
    game = make({"minions": [awake("L2")]}, {"minions": [awake("D2"), awake("L1")]})
    seen = preview(game, 0, 0)
    assert seen["attacker"]["dies"] and seen["defender"]["dies"]


def test_r4_8_the_preview_says_a_shield_cancels_the_doubling():
    game = make({"minions": [awake("G3")]}, {"minions": [awake("T-M03"), awake("L1")]})
    seen = preview(game, 0, 0)                              # grass 3 vs shielded water 2
    assert seen["attacker"] == {"attack": 3, "doubled": False, "shield_cancels": True,
                                "shield": False, "dies": False, "revives": False}
    assert seen["defender"]["shield"] and seen["defender"]["dies"]


def test_r4_10_the_preview_says_a_regenerating_loser_revives():
    phoenix = minion("PHX", 1, keywords=["regenerate"])
    game = make({"minions": [awake("L3")]}, {"minions": [awake("PHX"), awake("L1")]}, phoenix)
    assert preview(game, 0, 0)["defender"] | {} == {
        "attack": 1, "doubled": False, "shield_cancels": False, "shield": False,
        "dies": True, "revives": True}


def test_r2_3_10_the_preview_of_an_attack_on_the_hero_is_its_damage():
    game = make({"minions": [awake("W3")]}, {"hero": "HERO-FIRE", "hp": 5,
                                                "minions": [awake("L1")]})
    assert preview(game, 0, "hero") == {"target": "hero", "damage": 6, "hp": 5, "lethal": True,
                                        "doubled": True}


def test_r2_3_2_a_face_down_defender_never_seen_is_unknown():
    game = make({"minions": [awake("G3")]}, {"minions": ["T-M03", awake("L1")]})
    assert preview(game, 0, 0) == {"target": "minion", "unknown": True}


def test_the_preview_is_only_for_attacks():
    game = make({"minions": [awake("G3")]}, {"minions": [awake("L1")]})
    assert combat_preview(game, Action("end")) is None


def test_r2_3_4_the_preview_matches_the_engines_combats_in_random_games():
    """Every attack on a known minion without combat-start skills, in random games of the
    test set: the preview's final attacks and losers are the combat's."""
    checked = 0
    for seed in range(16):
        game = Game(TEST.cards, list(TEST.decks.values())[:2], seed=seed)
        rng = random.Random(seed)
        while not game.over:
            choices = game.legal_actions()
            action = choices[int(rng.random() * len(choices))]
            seen = combat_preview(game, action)
            before = len(game.events or [])
            game.apply(action)
            if not seen or seen["target"] != "minion" or seen["unknown"] or seen["skills"]:
                continue
            results = [e for e in (game.events or [])[before:] if e["t"] == "combat_result"]
            assert results, (seed, action)
            assert (results[0]["attack"], results[0]["defense"]) == (
                seen["attacker"]["attack"], seen["defender"]["attack"]), (seed, action)
            dying = {("attacker" if seen["attacker"]["dies"] else ""),
                     ("defender" if seen["defender"]["dies"] else "")} - {""}
            assert len(results[0]["losers"]) == len(dying), (seed, action)
            checked += 1
    assert checked > 20
