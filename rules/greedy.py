"""The greedy agent: scores each legal action from its player's view and takes the best.

It looks one action ahead with simple heuristics — win combats it can see it wins, hit the
enemy hero when that is safe, fill the board, awaken the strongest minion it can afford, use an
awaken skill or last words unless it plainly hurts (R6.1) — and never reads the true game:
unknown face-down enemy minions are valued at an average.

Invariant: the choice depends only on the view, the legal actions and the agent's own RNG
(used to break ties), so it is reproducible and blind to hidden information.
"""

from __future__ import annotations

import random
from typing import Final

from rules.engine.actions import DECLINE, HERO, KEEP, USE, Action
from rules.engine.advantage import has_advantage
from rules.engine.view import MinionView, PlayerView

HIDDEN_ATTACK_GUESS: Final = 4      # what an unknown face-down minion is assumed to hit for


def combat_values(mine: MinionView, theirs: MinionView) -> tuple[int, int]:
    """Final attacks (R2.3.3–R2.3.4) of two visible minions, as far as the view can tell."""
    if theirs.card is None:
        return mine.attack, HIDDEN_ATTACK_GUESS
    a_attr, d_attr = mine.card.attribute, theirs.card.attribute
    a_adv = has_advantage(a_attr, d_attr) and "shield" not in theirs.keywords
    d_adv = has_advantage(d_attr, a_attr) and "shield" not in mine.keywords
    return (mine.attack + (mine.card.attack if a_adv else 0),
            theirs.attack + (theirs.card.attack if d_adv else 0))


class GreedyAgent:
    name = "greedy"
    needs_view = True
    _board_size: tuple[int, int] | None = None

    def choose(self, view: PlayerView, legal: list[Action], rng: random.Random) -> Action:
        kind = view.decision
        if kind == "mulligan":
            return self._mulligan(view, legal)
        if kind == "optional":                    # no tie-break draw: the agent's RNG moves
            return DECLINE if self._harmful(view) else USE     # as before skills were asked
        if len(legal) == 1:
            return legal[0]
        self._board_size = None                   # worked out once per decision, if needed
        best, best_score = legal[0], float("-inf")
        tie_break = rng.random
        for action in legal:
            score = self._score_action(view, action)
            score += tie_break() * 0.01           # deterministic, seeded tie-break
            if score > best_score:
                best, best_score = action, score
        return best

    def score(self, view: PlayerView, legal: list[Action]) -> list[float]:
        """The heuristic value of each legal action (no tie-break), in order."""
        self._board_size = None
        return [self._score_action(view, a) for a in legal]

    def _score_action(self, view: PlayerView, action: Action) -> float:
        kind: str = action.kind
        # The common kinds are called directly (a native call when compiled).
        if kind == "attack":
            return self._score_attack(view, action)
        if kind == "place":
            return self._score_place(view, action)
        if kind == "awaken":
            return self._score_awaken(view, action)
        return _SCORERS.get(kind, _zero)(self, view, action)

    # -------------------------------------------------------------- setup
    def _mulligan(self, view: PlayerView, legal: list[Action]) -> Action:
        """Send back expensive cards while the hand has fewer than 4 cheap minions."""
        cheap = sum(1 for c in view.hand if c.kind == "minion" and c.cost <= 3)
        if cheap >= 4:
            return KEEP
        for action in legal:
            if action.kind == "mulligan" and view.hand[action.a].cost >= 4:
                return action
        return KEEP

    def _board(self, view: PlayerView) -> tuple[int, int]:
        """(minions on our board, minion cards in our hand), once per decision."""
        if self._board_size is None:
            self._board_size = (sum(1 for m in view.minions if m is not None),
                                sum(1 for c in view.hand if c.kind == "minion"))
        return self._board_size

    def _score_place(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        filled, spare = self._board(view)
        # An empty board loses (R3.2): keep a minion in hand to replenish with when the board
        # is already busy, but never leave it thin.
        if view.decision == "setup":
            return (10 if filled < 4 or spare > 1 else -1) + card.attack * 0.1
        return (6 if filled < 3 or spare > 2 else 1) + card.attack * 0.1

    def _score_ready(self, view: PlayerView, action: Action) -> float:
        return 0

    # -------------------------------------------------------------- optional skills
    def _harmful(self, view: PlayerView) -> bool:
        """Is the offered awaken skill or last words (R4.4, R4.5) plainly bad for us? Only
        what the view shows for certain counts: HP lost drawing from a deck too small
        (R2.4.3), our own hero hurt, the enemy healed or fed cards, our hand discarded. Any
        effect it cannot judge counts as neutral, so a skill is used unless it is harmful."""
        assert view.offer is not None
        net = 0.0
        hp, enemy_hp = view.hp, view.enemy_hp
        decks = {"own": view.deck_size, "enemy": view.enemy_deck_size}
        for effect in view.offer[1]["effects"]:
            term = effect["do"]
            amount = effect.get("count", effect.get("amount"))
            if not isinstance(amount, int):
                continue                          # counted amounts: not judged
            if term == "draw":
                who = effect["player"]
                gained = min(amount, decks[who])
                lost = amount - gained            # 1 HP a card from an empty deck
                decks[who] -= gained
                if who == "own":
                    net += gained - lost
                    hp -= lost
                else:
                    net += lost - gained
                    enemy_hp -= lost
            elif term == "damage_hero" and effect["hero"] != "enemy":
                hp -= amount                      # "both" is even, but may still kill us
                if effect["hero"] == "both":
                    enemy_hp -= amount
                else:
                    net -= amount
            elif term == "heal_hero" and effect["hero"] == "enemy":
                net -= min(amount, view.enemy_hero.hp - enemy_hp)
            elif term == "discard" and effect["player"] == "own":
                net -= min(amount, len(view.hand))
        if hp <= 0 < enemy_hp:
            return True                           # it would lose us the game
        return net < 0

    # -------------------------------------------------------------- main phase
    def _score_end(self, view: PlayerView, action: Action) -> float:
        return 0

    def _score_awaken(self, view: PlayerView, action: Action) -> float:
        minion = view.minions[action.a]
        return 8 + minion.card.attack - 0.3 * minion.card.cost

    def _score_item(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        effects = [e for a in card.by_trigger.get("use", ()) for e in a["effects"]]
        return self._effects_value(view, effects) - card.cost * 0.5

    def _score_hero_skill(self, view: PlayerView, action: Action) -> float:
        ability = view.hero.by_trigger["active"][action.a]
        return self._effects_value(view, ability["effects"]) - ability["cost"] * 0.5

    def _score_skill(self, view: PlayerView, action: Action) -> float:
        ability = view.minions[action.a].card.by_trigger["active"][action.b]
        return self._effects_value(view, ability["effects"], view.minions[action.a]) \
            - ability["cost"] * 0.5

    def _effects_value(self, view: PlayerView, effects, source=None) -> float:
        """A rough worth of resolving these effects now, from the view alone."""
        value = 4.0
        for effect in effects:
            term = effect["do"]
            if term == "attack" and effect.get("duration") == "turn":
                # A buff for this turn only helps minions that can still attack: use it first.
                side = effect["target"]["side"]
                if side != "enemy":
                    ready = [m for m in view.minions if m is not None and m.can_attack]
                    amount = effect["amount"] if isinstance(effect["amount"], int) else 1
                    value += 20 + 2 * amount * len(ready) if ready else -6
            elif term == "heal_hero" and effect.get("hero") == "own":
                value += -6 if view.hp >= view.hero.hp else 3
            elif term == "damage_hero" and effect.get("hero") == "enemy":
                value += 6
            elif term in ("destroy", "mind_control", "return_to_hand"):
                value += 8 if any(m is not None for m in view.enemy_minions) else -6
        return value

    def _threat(self, view: PlayerView, minion: MinionView) -> float:
        """How hard an enemy minion can hit our hero on its next turn."""
        if minion.card is None:
            return HIDDEN_ATTACK_GUESS * 0.5
        attack = minion.attack or 0
        if has_advantage(minion.card.attribute, view.hero.attribute):
            attack += minion.card.attack
        return attack if minion.awake else attack * 0.5

    def _score_attack(self, view: PlayerView, action: Action) -> float:
        mine = view.minions[action.a]
        if action.b == HERO:
            damage = mine.attack
            if has_advantage(mine.card.attribute, view.enemy_hero.attribute):
                damage += mine.card.attack
            if damage <= 0:
                return -1
            if damage >= view.enemy_hp:
                return 100
            return 6 + damage * 1.2 + damage * 12 / max(view.enemy_hp, 1)
        theirs = view.enemy_minions[action.b]
        ours, their = combat_values(mine, theirs)
        # Losing our minion costs more when the board is thin: an empty board loses (R3.2).
        filled, spare = self._board(view)
        risk = 4 + 16 / max(1, filled + spare)
        if theirs.card is None:
            return 2 * (ours - HIDDEN_ATTACK_GUESS) - (risk if ours <= HIDDEN_ATTACK_GUESS
                                                       else 0)
        # Killing what threatens our hero matters more the lower our HP is.
        urgency = 1.5 + 20 / max(view.hp, 1)
        if ours > their:
            return 10 + theirs.card.cost + self._threat(view, theirs) * urgency
        if ours == their:
            return self._threat(view, theirs) * urgency + theirs.card.cost - risk
        return -10 - risk

    # -------------------------------------------------------------- answers
    def _score_target(self, view: PlayerView, action: Action) -> float:
        board = view.minions if action.a == view.player else view.enemy_minions
        minion = board[action.b]
        value = (minion.attack or HIDDEN_ATTACK_GUESS) + (minion.card.cost if minion.card else 2)
        # Effects aimed at an enemy are usually harmful, at an ally helpful: take the biggest.
        return value

    def _score_choose(self, view: PlayerView, action: Action) -> float:
        return -action.a                       # the first option, usually the main one

    def _score_pick(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        return card.cost + card.attack

    def _score_replenish(self, view: PlayerView, action: Action) -> float:
        return 5 + view.hand[action.a].attack

    def _score_pass(self, view: PlayerView, action: Action) -> float:
        return 0

    def _score_discard(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        return card.cost - (3 if card.kind == "minion" else 0)

    def _score_discard_display(self, view: PlayerView, action: Action) -> float:
        return view.display[action.a].cost


def _zero(agent: GreedyAgent, view: PlayerView, action: Action) -> float:
    return 0


_SCORERS: Final = {name[len("_score_"):]: fn for name, fn in vars(GreedyAgent).items()
            if name.startswith("_score_")}
