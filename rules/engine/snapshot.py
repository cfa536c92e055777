"""The scenario API's data form: a whole game state as JSON, and a game built from one.

``snapshot(game)`` is the true state (both hands, deck order): it is for tests, scenarios and
replays, never for an agent (agents get ``game.view(player)``). ``from_snapshot`` accepts the
same shape with most fields optional, so a scenario states only what matters to it. Decks are
listed top card first. A built game stands at the active player's main phase (``"phase":
"main"``, the default) or at the start of their turn (``"phase": "turn_start"``: the draw and
energy phases run first).

Invariants: ``from_snapshot(snapshot(g))`` at a main-phase decision gives a game whose snapshot
is equal; every problem in a snapshot is reported at once (CardDataError).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from rules.engine.basics import KEYWORDS, CardDataError
from rules.engine.cards import CardDef, Ruleset
from rules.engine.core import (
    Decision,
    GameState,
    board_changed,
    check_victory,
    new_minion,
    push,
)
from rules.engine.state import Minion, Player
from rules.localized import Sentence, gettext_noop

SNAPSHOT_VERSION = 1
PHASES = ("main", "turn_start")

# What is wrong with a snapshot, as sentences (rules.localized.Sentence; path: where).
MSG_UNKNOWN_CODE = gettext_noop("unknown card code {code!r}")
MSG_NOT_HERO = gettext_noop("{code!r} is not a hero")
MSG_HERO_HERE = gettext_noop("a hero card cannot be here")
MSG_NOT_MINION = gettext_noop("{code!r} is not a minion")
MSG_CODE_LIST = gettext_noop("must be a list of card codes")
MSG_WHOLE_NUMBER = gettext_noop("must be a whole number >= {low}")
MSG_PHASE = gettext_noop("must be one of {phases}")
MSG_PLAYER_NUMBERS = gettext_noop("players are numbered 0 and 1")
MSG_TWO_PLAYERS = gettext_noop("must be a list of exactly two players")
MSG_OBJECT = gettext_noop("must be an object")
MSG_LIST = gettext_noop("must be a list")
MSG_SLOT_RANGE = gettext_noop("must be 0 to {last}")
MSG_SLOT_TAKEN = gettext_noop("slot {slot} is already taken")
MSG_CODE_OR_OBJECT = gettext_noop("must be a card code or an object")
MSG_KEYWORDS = gettext_noop("keywords are {keywords}")

G = TypeVar("G", bound=GameState)


def _minion_dict(game: GameState, minion: Minion) -> dict[str, Any]:
    return {"card": minion.card.code, "awake": minion.awake,
            "awakened_this_turn": minion.awake and minion.awake_turn == game.turn,
            "attacks_left": minion.attacks_left, "attacked": minion.attacked,
            "reacted": minion.reacted, "skill_used": minion.skill_used,
            "regenerated_this_turn": minion.regen_turn == game.turn,
            "attack_buff": minion.perm_attack, "turn_attack_buff": minion.turn_attack,
            "keywords": sorted(minion.keywords), "turn_keywords": sorted(minion.turn_granted),
            "removed_turn_keywords": sorted(minion.turn_removed), "public": minion.public,
            "changed_control_this_turn": minion.controlled_turn == game.turn}


def snapshot(game: GameState) -> dict[str, Any]:
    players = []
    for player in game.players:
        players.append({
            "hero": player.hero.code, "hp": player.hp, "energy": player.energy,
            "hand": [c.code for c in player.hand],
            "deck": [c.code for c in reversed(player.deck)],
            "display": [c.code for c in player.display],
            "graveyard": [c.code for c in player.graveyard],
            "minions": [None if m is None else _minion_dict(game, m) for m in player.minions],
            "hero_skill_used": player.hero_skill_used, "skip_draw": player.skip_draw,
            "turns_taken": player.turns_taken, "mulligan_marked": list(player.marked),
        })
    decision = game.decision
    return {
        "version": SNAPSHOT_VERSION, "ruleset": game.ruleset.to_dict(), "turn": game.turn,
        "active": game.active, "first_player": game.first_player, "phase": game.phase,
        "decision": None if decision is None else _decision_dict(decision),
        "result": game.result, "players": players,
    }


def _decision_dict(decision: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": decision.kind, "player": decision.player}
    if decision.kind == "optional":            # R4.4, R4.5: the card and skill offered
        out["card"] = decision.data[0]
        out["trigger"] = decision.data[1]["trigger"]
    return out


class _Reader:
    """Reads one snapshot, collecting every problem instead of stopping at the first."""

    def __init__(self, cards: Mapping[str, CardDef]) -> None:
        self.cards = cards
        self.problems: list[Sentence] = []

    def card(self, code: Any, where: str, kind: str | None = None) -> CardDef | None:
        card = self.cards.get(code) if isinstance(code, str) else None
        if card is None:
            self.problems.append(Sentence(MSG_UNKNOWN_CODE, {"code": code}, where))
        elif kind == "hero" and card.kind != "hero":
            self.problems.append(Sentence(MSG_NOT_HERO, {"code": code}, where))
        elif kind == "not_hero" and card.kind == "hero":
            self.problems.append(Sentence(MSG_HERO_HERE, path=where))
        elif kind == "minion" and card.kind != "minion":
            self.problems.append(Sentence(MSG_NOT_MINION, {"code": code}, where))
        return card

    def cards_of(self, codes: Any, where: str) -> list[CardDef]:
        if not isinstance(codes, list):
            self.problems.append(Sentence(MSG_CODE_LIST, path=where))
            return []
        found = [self.card(c, f"{where}[{i}]", "not_hero") for i, c in enumerate(codes)]
        return [c for c in found if c is not None]

    def integer(self, data: Mapping[str, Any], key: str, default: int, where: str,
                low: int = 0) -> int:
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            self.problems.append(Sentence(MSG_WHOLE_NUMBER, {"low": low}, f"{where}.{key}"))
            return default
        return value


def from_snapshot(new_game: Callable[[None], G], data: Mapping[str, Any],
                  cards: Mapping[str, CardDef], seed: int = 0, log: bool = True) -> G:
    """The game ``data`` describes, built on ``new_game(None)`` (a blank ``Game``), standing
    before its first task runs (``Game.from_snapshot`` runs them)."""
    if not isinstance(data, Mapping):
        raise CardDataError([Sentence(MSG_OBJECT, path="snapshot")])
    ruleset = Ruleset.from_dict(data.get("ruleset"))
    game = new_game(None)
    game._init_state(cards, seed, ruleset, log)
    reader = _Reader(cards)
    game.turn = reader.integer(data, "turn", 1, "snapshot", low=1)
    game.active = reader.integer(data, "active", 0, "snapshot")
    game.first_player = reader.integer(data, "first_player", game.active, "snapshot")
    phase = data.get("phase", "main")
    if phase not in PHASES:
        reader.problems.append(Sentence(MSG_PHASE, {"phases": ", ".join(PHASES)},
                                        "snapshot.phase"))
    if game.active > 1 or game.first_player > 1:
        reader.problems.append(Sentence(MSG_PLAYER_NUMBERS, path="snapshot"))
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or len(raw_players) != 2:
        reader.problems.append(Sentence(MSG_TWO_PLAYERS, path="snapshot.players"))
        raise CardDataError(reader.problems)
    players = [_read_player(game, reader, i, raw) for i, raw in enumerate(raw_players)]
    if reader.problems:
        raise CardDataError(reader.problems)
    game.players = [p for p in players if p is not None]     # all of them: no problem
    in_play = [c for p in game.players for c in [p.hero, *p.hand, *p.deck, *p.display]]
    in_play += [m.card for p in game.players for m in p.minions if m is not None]
    game._auras = any("aura" in c.by_trigger for c in in_play)
    board_changed(game)
    game.start = {"snapshot": dict(data), "seed": seed}
    game._started = True
    if phase == "turn_start":
        game.turn -= 1
        game.players[game.active].turns_taken -= 1
        push(game, ("turn_begin", game.active))
    else:
        game.phase = "main"
    check_victory(game)
    return game


def _read_player(game: GameState, reader: _Reader, index: int, raw: Any) -> Player | None:
    where = f"snapshot.players[{index}]"
    if not isinstance(raw, Mapping):
        reader.problems.append(Sentence(MSG_OBJECT, path=where))
        return None
    hero = reader.card(raw.get("hero"), f"{where}.hero", "hero")
    player = Player(index, hero if hero is not None else _placeholder_hero(), game.ruleset.slots)
    player.hp = reader.integer(raw, "hp", player.hero.hp, where, low=-99)
    player.energy = reader.integer(raw, "energy", game.ruleset.energy_cap, where)
    player.hand = reader.cards_of(raw.get("hand", []), f"{where}.hand")
    player.deck = list(reversed(reader.cards_of(raw.get("deck", []), f"{where}.deck")))
    player.display = reader.cards_of(raw.get("display", []), f"{where}.display")
    player.graveyard = reader.cards_of(raw.get("graveyard", []), f"{where}.graveyard")
    player.hero_skill_used = bool(raw.get("hero_skill_used", False))
    player.skip_draw = bool(raw.get("skip_draw", False))
    default_turns = (game.turn + (1 if index == game.first_player else 0)) // 2
    player.turns_taken = reader.integer(raw, "turns_taken", default_turns, where)
    minions = raw.get("minions", [])
    if not isinstance(minions, list):
        reader.problems.append(Sentence(MSG_LIST, path=f"{where}.minions"))
        return player
    for i, entry in enumerate(minions):
        if entry is None:
            continue
        spot = f"{where}.minions[{i}]"
        slot = entry.get("slot", i) if isinstance(entry, Mapping) else i
        if not isinstance(slot, int) or not 0 <= slot < game.ruleset.slots:
            reader.problems.append(Sentence(MSG_SLOT_RANGE, {"last": game.ruleset.slots - 1},
                                            f"{spot}.slot"))
        elif player.minions[slot] is not None:
            reader.problems.append(Sentence(MSG_SLOT_TAKEN, {"slot": slot}, f"{spot}.slot"))
        else:
            minion = _read_minion(game, reader, index, entry, spot)
            if minion is not None:
                player.minions[slot] = minion
    return player


def _read_minion(game: GameState, reader: _Reader, index: int, entry: Any,
                 where: str) -> Minion | None:
    if isinstance(entry, str):
        entry = {"card": entry}
    if not isinstance(entry, Mapping):
        reader.problems.append(Sentence(MSG_CODE_OR_OBJECT, path=where))
        return None
    card = reader.card(entry.get("card"), f"{where}.card", "minion")
    if card is None:
        return None
    minion = new_minion(game, card)
    minion.awake = bool(entry.get("awake", False))
    fresh = bool(entry.get("awakened_this_turn", False))
    minion.awake_turn = game.turn if fresh else (game.turn - 1 if minion.awake else -1)
    ready = 1 if minion.awake and index == game.active else 0
    minion.attacks_left = reader.integer(entry, "attacks_left", ready, where)
    minion.attacked = bool(entry.get("attacked", False))
    minion.reacted = bool(entry.get("reacted", False))
    minion.skill_used = bool(entry.get("skill_used", False))
    minion.regen_turn = game.turn if entry.get("regenerated_this_turn") else -1
    minion.perm_attack = reader.integer(entry, "attack_buff", 0, where, low=-99)
    minion.turn_attack = reader.integer(entry, "turn_attack_buff", 0, where, low=-99)
    minion.public = bool(entry.get("public", minion.awake))
    minion.controlled_turn = game.turn if entry.get("changed_control_this_turn") else -1
    for key, attr in (("keywords", "keywords"), ("turn_keywords", "turn_granted"),
                      ("removed_turn_keywords", "turn_removed")):
        if key in entry:
            values = entry[key]
            bad = [k for k in values if k not in KEYWORDS] if isinstance(values, list) else [1]
            if bad:
                reader.problems.append(Sentence(MSG_KEYWORDS, {"keywords": ", ".join(KEYWORDS)},
                                                f"{where}.{key}"))
            else:
                setattr(minion, attr, frozenset(values))
    return minion


def _placeholder_hero() -> CardDef:
    return CardDef(code="?", kind="hero", name_en="?", name_zh="?", hp=1)
