"""What the learned evaluator reads of a position: numbers from one seat's view, and nothing else.

``features(view)`` turns a ``PlayerView`` into a fixed-length list of floats, named in
``FEATURES``. Every number comes from the view's public attributes — the seat's own hand, board,
deck size and energy; both heroes' HP; the enemy's hand *size*, deck size, graveyard, display
and the minions it has shown. An enemy face-down minion never revealed counts only as "a hidden
minion" (the view gives no card for it), and the enemy's hand only as its size.

Cards are described by their figures (cost, attack, keywords, attribute against the enemy
hero), never by their codes: a patched card set is read as it now is (a nerfed minion is a
smaller minion), and a card added by a patch is described like any other.

Invariant: the result depends only on what ``view`` shows; two games that differ only in the
enemy's hand, the decks' order or the identity of the enemy's face-down minions give equal
lists (``tests/rules/ai/test_learned.py`` checks it).
"""

from __future__ import annotations

from typing import Final

from rules.engine.advantage import has_advantage
from rules.engine.view import MinionView, PlayerView

LOW_HP: Final = 8          # below this a hero is in danger: its HP counts again
HAND_CAP: Final = 8        # hand sizes count up to this
HIDDEN_ATTACK: Final = 4   # what an unknown face-down enemy minion may hit for (as greedy guesses)
TURN_CAP: Final = 30

_SIDE: Final = ("hp", "low_hp", "minions", "awake", "attack", "awake_attack", "edge_attack",
                "keywords", "sleeping_cost", "big", "hidden", "hand", "deck", "graveyard",
                "display")
FEATURES: Final[tuple[str, ...]] = (
    *(f"own_{name}" for name in _SIDE),
    *(f"enemy_{name}" for name in _SIDE),
    "own_energy", "own_hand_minions", "own_hand_cost", "own_playable", "own_hand_attack",
    "own_active", "turn", "own_threat", "enemy_threat", "own_lethal", "enemy_lethal",
    "hp_diff", "board_diff", "own_empty", "enemy_empty", "own_won", "own_lost", "material",
)
# The planner's hand-weighted evaluation (rules.ai.planner.WEIGHTS), as far as the view shows
# it: a prior the network corrects rather than rediscovers. Hidden minions count at a guess.
_W: Final = {"hp": 1.5, "low_hp": 1.0, "minion": 2.0, "attack": 1.0, "awake": 1.5,
             "keyword": 1.0, "hand": 1.2}


def _side(minions: tuple[MinionView | None, ...], hp: int, hand: int, deck: int,
          graveyard: int, display: int, foe_attribute: str | None) -> list[float]:
    """The 15 numbers of one side (``_SIDE``); hidden minions count as hidden and nothing else."""
    count = awake = attack = awake_attack = edge = keywords = sleeping = big = hidden = 0
    for minion in minions:
        if minion is None:
            continue
        count += 1
        card = minion.card
        if card is None:                         # an enemy face-down minion never revealed
            hidden += 1
            continue
        value = minion.attack or 0
        attack += value
        keywords += len(minion.keywords)
        if card.cost >= 5:
            big += 1
        if minion.awake:
            awake += 1
            awake_attack += value
            if foe_attribute is not None and card.attribute is not None \
                    and has_advantage(card.attribute, foe_attribute):
                edge += card.attack              # the bonus it hits the enemy hero with
        else:
            sleeping += card.cost
    return [hp, max(0, LOW_HP - hp), count, awake, attack, awake_attack, edge, keywords,
            sleeping, big, hidden, min(hand, HAND_CAP), deck, graveyard, display]


def features(view: PlayerView) -> list[float]:
    """The position as ``view.player`` sees it, in ``FEATURES`` order."""
    me, foe = view.minions, view.enemy_minions
    own = _side(me, view.hp, len(view.hand), view.deck_size, len(view.graveyard),
                len(view.display), view.enemy_hero.attribute)
    enemy = _side(foe, view.enemy_hp, view.enemy_hand_size, view.enemy_deck_size,
                  len(view.enemy_graveyard), len(view.enemy_display), view.hero.attribute)
    hand_minions = hand_cost = playable = hand_attack = 0
    for card in view.hand:
        hand_cost += card.cost
        if card.kind == "minion":
            hand_minions += 1
            hand_attack += card.attack
        if card.cost <= view.energy:
            playable += 1
    # Threats: what each side's awake board (plus its edge on the other hero) can hit for,
    # the enemy's hidden minions at a guess.
    own_threat = own[5] + own[6]
    enemy_threat = enemy[5] + enemy[6] + HIDDEN_ATTACK * enemy[10]
    material = 0.0
    for side, sign in ((own, 1.0), (enemy, -1.0)):
        material += sign * (_W["hp"] * side[0] - _W["low_hp"] * side[1]
                            + _W["minion"] * side[2] + _W["attack"] * side[4]
                            + _W["attack"] * HIDDEN_ATTACK * side[10] + _W["awake"] * side[3]
                            + _W["keyword"] * side[7] + _W["hand"] * side[11])
    result = view.result
    winner = None if result is None else result.get("winner")
    return [
        *own, *enemy,
        view.energy, min(hand_minions, HAND_CAP), hand_cost, playable, hand_attack,
        1.0 if view.active == view.player else 0.0, min(view.turn, TURN_CAP),
        own_threat, enemy_threat,
        1.0 if own_threat >= view.enemy_hp else 0.0,
        1.0 if enemy_threat >= view.hp else 0.0,
        view.hp - view.enemy_hp, own[2] - enemy[2],
        1.0 if own[2] + min(hand_minions, 1) <= 1 else 0.0,
        1.0 if enemy[2] + min(view.enemy_hand_size, 1) <= 1 else 0.0,
        1.0 if winner is not None and winner == view.player else 0.0,
        1.0 if winner is not None and winner != view.player else 0.0,
        material,
    ]
