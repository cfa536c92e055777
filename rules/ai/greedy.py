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
from collections.abc import Callable, Iterable
from typing import Any, Final

from rules.engine.actions import DECLINE, HERO, KEEP, USE, Action
from rules.engine.advantage import has_advantage
from rules.engine.agent import NEEDS_VIEW, Draws
from rules.engine.view import MinionView, PlayerView

HIDDEN_ATTACK_GUESS: Final = 4      # what an unknown face-down minion is assumed to hit for
_MINUS_INFINITY: Final = float("-inf")  # below every score (built once, not per decision)

# The heuristic's constants, by name: what the greedy agent plays with. Another set makes
# another player of the same shape (the planner's tuned policy, rules.lab.planner_tuning).
HEURISTIC: Final[dict[str, float]] = {
    "mulligan_keep": 4,     # keep the hand when it holds this many minions costing ≤ 3 …
    "mulligan_cost": 4,     # … else send back the cards costing at least this
    "setup_fill": 4,        # setup: place while fewer minions than this are down
    "place_thin": 6,        # main phase: placing onto a thin board …
    "place_busy": 1,        # … or a busy one
    "place_fill": 3,        # a board is thin below this many minions …
    "place_spare": 2,       # … or while more minion cards than this wait in hand
    "place_attack": 0.1,    # per point of the placed card's attack
    "awaken": 8,            # awakening a minion, plus its attack and less its cost:
    "awaken_attack": 1,
    "awaken_cost": 0.3,
    "item": 0,              # using an item, beyond its effects' worth, less its cost:
    "item_cost": 0.5,
    "face": 6,              # attacking the enemy hero, by damage and its share of their HP
    "face_damage": 1.2,
    "face_share": 12,
    "risk": 4,              # losing our minion in combat, more on a thin board
    "risk_thin": 16,
    "urgency": 1.5,         # killing a threat to our hero, more when our HP is low
    "urgency_hp": 20,
    "kill": 10,             # winning a combat, plus the victim's cost
    "kill_cost": 1,
    "trade": 0,             # an even trade, beyond threat and cost
    "hidden": 0,            # attacking an unknown face-down minion
    "end": 0,               # ending the main phase
    "hero_skill": 0,        # the hero's skill and minions' active skills, beyond their effects
    "skill": 0,
}


def combat_values(mine: MinionView, theirs: MinionView) -> tuple[int, int]:
    """Final attacks (R2.3.3–R2.3.4) of two visible minions, as far as the view can tell."""
    mine_card, theirs_card = mine.card, theirs.card
    assert mine_card is not None                   # our own minions are seen
    if theirs_card is None:
        mine_attack = mine.attack
        assert mine_attack is not None
        return mine_attack, HIDDEN_ATTACK_GUESS
    a_attr, d_attr = mine_card.attribute, theirs_card.attribute
    a_adv = has_advantage(a_attr, d_attr) and not theirs.has_keyword("shield")
    d_adv = has_advantage(d_attr, a_attr) and not mine.has_keyword("shield")
    mine_attack, theirs_attack = mine.attack, theirs.attack
    assert mine_attack is not None and theirs_attack is not None    # both cards are seen
    return (mine_attack + (mine_card.attack if a_adv else 0),
            theirs_attack + (theirs_card.attack if d_adv else 0))


class ReplayedDraws:
    """The draws ``source.random()`` gives from the state it is in when the first rollout of a
    world starts, for one rollout: every rollout from that world reads them from one shared
    list (``drawn``), each from its start, the first to need one more drawing it — so each
    policy sees the same tie-breaks (common random numbers) without reseeding a generator,
    or restoring a generator for each. Defined here, beside the policy that draws from it, so
    that the compiled policy calls it natively (a planner's rollouts draw a tie-break for every
    action they score)."""

    def __init__(self, source: random.Random, drawn: list[float]) -> None:
        self.draw: Callable[[], float] = source.random
        self.drawn = drawn
        self.next = 0

    def random(self) -> float:
        index = self.next
        self.next = index + 1
        drawn = self.drawn
        if index == len(drawn):
            drawn.append(self.draw())
        return drawn[index]


class GreedyAgent:
    name = "greedy"
    needs_view = True
    # (minions on our board, minion cards in our hand): counted once per decision, if needed;
    # two plain int fields (a tuple field would be boxed when compiled).
    _counted: bool = False
    _filled: int = 0
    _spare: int = 0

    def __init__(self, heuristic: dict[str, float] | None = None):
        """``heuristic``: constants to play with instead of ``HEURISTIC``'s (any subset)."""
        unknown = sorted(set(heuristic or {}) - set(HEURISTIC))
        if unknown:
            raise ValueError(f"unknown heuristic constants: {', '.join(unknown)}")
        h = HEURISTIC if heuristic is None else {**HEURISTIC, **heuristic}
        # One typed attribute each, not a dict or setattr: compiled by mypyc, they are native
        # fields, and the scorers read them thousands of times a game.
        self.mulligan_keep: float = h["mulligan_keep"]
        self.mulligan_cost: float = h["mulligan_cost"]
        self.setup_fill: float = h["setup_fill"]
        self.place_thin: float = h["place_thin"]
        self.place_busy: float = h["place_busy"]
        self.place_fill: float = h["place_fill"]
        self.place_spare: float = h["place_spare"]
        self.place_attack: float = h["place_attack"]
        self.awaken: float = h["awaken"]
        self.awaken_attack: float = h["awaken_attack"]
        self.awaken_cost: float = h["awaken_cost"]
        self.item: float = h["item"]
        self.item_cost: float = h["item_cost"]
        self.face: float = h["face"]
        self.face_damage: float = h["face_damage"]
        self.face_share: float = h["face_share"]
        self.risk: float = h["risk"]
        self.risk_thin: float = h["risk_thin"]
        self.urgency: float = h["urgency"]
        self.urgency_hp: float = h["urgency_hp"]
        self.kill: float = h["kill"]
        self.kill_cost: float = h["kill_cost"]
        self.trade: float = h["trade"]
        self.hidden: float = h["hidden"]
        self.end: float = h["end"]
        self.hero_skill: float = h["hero_skill"]
        self.skill: float = h["skill"]

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: Draws) -> Action:
        if view is None:
            raise ValueError(NEEDS_VIEW.format(name=self.name))
        kind = view.decision
        if kind == "mulligan":
            return self._mulligan(view, legal)
        if kind == "optional":                    # no tie-break draw: the agent's RNG moves
            return DECLINE if self._harmful(view) else USE     # as before skills were asked
        if len(legal) == 1:
            return legal[0]
        self._counted = False                     # counted once per decision, if needed
        best, best_score = legal[0], _MINUS_INFINITY
        replayed = rng if isinstance(rng, ReplayedDraws) else None     # a native call each
        tie_break = rng.random
        for action in legal:
            score = self._score_action(view, action)
            # a deterministic, seeded tie-break
            score += (replayed.random() if replayed is not None else tie_break()) * 0.01
            if score > best_score:
                best, best_score = action, score
        return best

    def score(self, view: PlayerView, legal: list[Action]) -> list[float]:
        """The heuristic value of each legal action (no tie-break), in order."""
        self._counted = False
        return [self._score_action(view, a) for a in legal]

    def _score_action(self, view: PlayerView, action: Action) -> float:
        kind: str = action.kind
        # Every kind is called directly, most frequent first (a native call when compiled; a
        # table of methods is a Python-level call each time).
        if kind == "attack":
            return self._score_attack(view, action)
        if kind == "place":
            return self._score_place(view, action)
        if kind == "awaken":
            return self._score_awaken(view, action)
        if kind == "end":
            return self.end
        if kind == "item":
            return self._score_item(view, action)
        if kind == "skill":
            return self._score_skill(view, action)
        if kind == "hero_skill":
            return self._score_hero_skill(view, action)
        if kind == "target":
            return self._score_target(view, action)
        if kind == "replenish":
            return self._score_replenish(view, action)
        if kind == "pick":
            return self._score_pick(view, action)
        if kind == "choose":
            return self._score_choose(view, action)
        if kind == "discard":
            return self._score_discard(view, action)
        if kind == "discard_display":
            return self._score_discard_display(view, action)
        return _SCORERS.get(kind, _zero)(self, view, action)

    # -------------------------------------------------------------- setup
    def _mulligan(self, view: PlayerView, legal: list[Action]) -> Action:
        """Send back expensive cards while the hand has too few cheap minions."""
        cheap = sum(1 for c in view.hand if c.kind == "minion" and c.cost <= 3)
        if cheap >= self.mulligan_keep:
            return KEEP
        for action in legal:
            if action.kind == "mulligan" and view.hand[action.a].cost >= self.mulligan_cost:
                return action
        return KEEP

    def _board(self, view: PlayerView) -> tuple[int, int]:
        """(minions on our board, minion cards in our hand), once per decision."""
        if not self._counted:
            filled = spare = 0           # plain loops: no generator object per count
            for m in view.minions:
                if m is not None:
                    filled += 1
            for c in view.hand:
                if c.kind == "minion":
                    spare += 1
            self._filled, self._spare, self._counted = filled, spare, True
        return self._filled, self._spare

    def _score_place(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        filled, spare = self._board(view)
        # An empty board loses (R3.2): keep a minion in hand to replenish with when the board
        # is already busy, but never leave it thin.
        if view.decision == "setup":
            return (10 if filled < self.setup_fill or spare > 1 else -1) + card.attack * 0.1
        thin = filled < self.place_fill or spare > self.place_spare
        return (self.place_thin if thin else self.place_busy) + card.attack * self.place_attack

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
    def _score_awaken(self, view: PlayerView, action: Action) -> float:
        minion = view.minions[action.a]
        assert minion is not None and minion.card is not None     # ours, face down
        return self.awaken + self.awaken_attack * minion.card.attack \
            - self.awaken_cost * minion.card.cost

    def _score_item(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        effects = [e for a in card.by_trigger.get("use", ()) for e in a["effects"]]
        return self._effects_value(view, effects) - card.cost * self.item_cost + self.item

    def _score_hero_skill(self, view: PlayerView, action: Action) -> float:
        ability = view.hero.by_trigger["active"][action.a]
        cost: int = ability["cost"]
        return self._effects_value(view, ability["effects"]) - cost * 0.5 + self.hero_skill

    def _score_skill(self, view: PlayerView, action: Action) -> float:
        minion = view.minions[action.a]
        assert minion is not None and minion.card is not None     # ours, face up
        ability = minion.card.by_trigger["active"][action.b]
        cost: int = ability["cost"]
        return self._effects_value(view, ability["effects"], minion) - cost * 0.5 + self.skill

    def _effects_value(self, view: PlayerView, effects: Iterable[dict[str, Any]],
                       source: MinionView | None = None) -> float:
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
        assert mine is not None and mine.card is not None         # a legal attacker: ours
        if action.b == HERO:
            damage = mine.attack
            assert damage is not None
            if has_advantage(mine.card.attribute, view.enemy_hero.attribute):
                damage += mine.card.attack
            if damage <= 0:
                return -1
            if damage >= view.enemy_hp:
                return 100
            return self.face + damage * self.face_damage \
                + damage * self.face_share / max(view.enemy_hp, 1)
        theirs = view.enemy_minions[action.b]
        assert theirs is not None                                 # a legal target
        ours, their = combat_values(mine, theirs)
        # Losing our minion costs more when the board is thin: an empty board loses (R3.2).
        filled, spare = self._board(view)
        risk = self.risk + self.risk_thin / max(1, filled + spare)
        if theirs.card is None:
            return self.hidden + 2 * (ours - HIDDEN_ATTACK_GUESS) \
                - (risk if ours <= HIDDEN_ATTACK_GUESS else 0)
        # Killing what threatens our hero matters more the lower our HP is.
        urgency = self.urgency + self.urgency_hp / max(view.hp, 1)
        if ours > their:
            return self.kill + self.kill_cost * theirs.card.cost \
                + self._threat(view, theirs) * urgency
        if ours == their:
            return self._threat(view, theirs) * urgency + self.kill_cost * theirs.card.cost \
                - risk + self.trade
        return -10 - risk

    # -------------------------------------------------------------- answers
    def _score_target(self, view: PlayerView, action: Action) -> float:
        board = view.minions if action.a == view.player else view.enemy_minions
        minion = board[action.b]
        assert minion is not None                                 # a legal target
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

    def _score_discard(self, view: PlayerView, action: Action) -> float:
        card = view.hand[action.a]
        return card.cost - (3 if card.kind == "minion" else 0)

    def _score_discard_display(self, view: PlayerView, action: Action) -> float:
        return view.display[action.a].cost


def _zero(agent: GreedyAgent, view: PlayerView, action: Action) -> float:
    return 0


_SCORERS: Final[dict[str, Callable[[GreedyAgent, PlayerView, Action], float]]] = {
    name[len("_score_"):]: fn for name, fn in vars(GreedyAgent).items()
    if name.startswith("_score_")}
