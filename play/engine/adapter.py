"""A stored game back into the engine: start it from its frozen setup, replay its actions.

The engine is deterministic, so the state after ``actions[:k]`` is rebuilt exactly by replaying
them; nothing but the setup and the actions is stored (``play.models``). A replay of a whole game
is a few milliseconds of the compiled engine.

**One replay per request, and often none**: the replayed game is kept in a small in-process
cache (``HISTORY_CACHE`` entries) under its (game id, version, number of actions) — every
change raises the version, so an entry is never stale. Each reader gets its own copy of the
game (``Game.copy`` plus the event log), the snapshots being shared and never changed. A change
that plays an action on the cached game stores the result under the new version
(``history_store``), so the state read after an action or an agent's move replays nothing. The
card definitions are built once per game id (its cards are frozen with it).

**An earlier step** (``?step=``, ``game_at_step``) is rebuilt from the kept snapshots, not
replayed from the start: a snapshot holds the whole game at a main-phase decision before the
turn's first main action (``rules.engine.snapshot``; the count of main actions is not in it),
except the random-number state, which the replay keeps beside it in memory (``History.marks``,
never stored). The nearest such step at or before the one asked is rebuilt, given the engine
RNG's state it had there, and the actions from there on are played: the same game, draw for
draw, as a replay from the start.

Also here: where each turn began (the undo point) and the seeded random source of an agent's
decision, so an agent plays the same move at the same point of the same game after an undo, a
restart or on another server.
"""

from __future__ import annotations

import random
import threading
from array import array
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Action, Game
from rules.engine.cards import CardDef, DeckList, Ruleset
from rules.engine.game import rng_from_state

# The engine RNG's state at a step, packed (``rng_pack``): a Mersenne Twister's 624 words and
# its index as 32-bit words (2,500 bytes; ``getstate()``'s tuple of Python ints is 24.5 KB).
RngState = tuple[int, bytes, float | None]


@dataclass
class History:
    """A game replayed to its last action, with the snapshot before each action."""

    game: Game
    snapshots: list[dict[str, Any]]        # snapshots[k]: the state after k actions
    turn_starts: dict[int, int] = field(default_factory=dict)   # turn → its first step
    # step → the engine RNG's state there, at each step whose snapshot holds the whole game
    # (``whole_at``: one a turn): 2.7 KB each, 90 KB for a game of 34 turns and 206 actions,
    # beside its snapshots' 1.8 MB (deep ``sys.getsizeof``). Shared between copies like the
    # snapshots, never changed.
    marks: dict[int, RngState] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return len(self.snapshots) - 1


HISTORY_CACHE = 64          # games kept replayed (a whole game's history is 1–2 MB)
CARDS_CACHE = 64

_lock = threading.Lock()
_histories: OrderedDict[tuple[str, int, int], History] = OrderedDict()
_cards: OrderedDict[str, dict[str, CardDef]] = OrderedDict()


def card_defs(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, CardDef]:
    return {code: CardDef.from_dict(data) for code, data in cards.items()}


def _record_cards(record: Any) -> dict[str, CardDef]:
    """The game's card definitions, built once per game id (its cards never change)."""
    uid = getattr(record, "uid", None)
    if not uid:
        return card_defs(record.cards)
    with _lock:
        found = _cards.get(uid)
        if found is not None:
            _cards.move_to_end(uid)
            return found
    built = card_defs(record.cards)
    with _lock:
        _cards[uid] = built
        while len(_cards) > CARDS_CACHE:
            _cards.popitem(last=False)
    return built


def _key(record: Any) -> tuple[str, int, int] | None:
    uid = getattr(record, "uid", None)
    version = getattr(record, "version", None)
    if not uid or version is None:
        return None
    return (str(uid), int(version), len(record.actions))


def _own_copy(history: History) -> History:
    """A history whose game the caller may play on (the snapshots are shared, read-only)."""
    game = history.game.copy()
    game.events = list(history.game.events or [])
    return History(game=game, snapshots=history.snapshots, turn_starts=dict(history.turn_starts),
                   marks=history.marks)


def history_store(record: Any, history: History) -> None:
    """Keep ``history`` as the replay of ``record`` at its version (a copy: the caller may go on
    playing on its own)."""
    key = _key(record)
    if key is None or history.steps != len(record.actions):
        return
    kept = _own_copy(history)
    with _lock:
        _histories[key] = kept
        _histories.move_to_end(key)
        while len(_histories) > HISTORY_CACHE:
            _histories.popitem(last=False)


def history_forget() -> None:
    """Empty the caches (tests, the benchmark's cold reads)."""
    with _lock:
        _histories.clear()
        _cards.clear()


def history_after(history: History, action: Action) -> History:
    """``history`` with ``action`` played on its game (the caller's own copy)."""
    history.game.apply(action, check=False)
    snapshots = [*history.snapshots, history.game.snapshot()]
    starts = dict(history.turn_starts)
    starts.setdefault(history.game.turn, len(snapshots) - 1)
    marks = dict(history.marks)
    _mark(marks, history.game, len(snapshots) - 1)
    return History(game=history.game, snapshots=snapshots, turn_starts=starts, marks=marks)


def deck_lists(decks: Sequence[Mapping[str, Any]]) -> list[DeckList]:
    return [DeckList.from_counts(d["hero"], d["cards"], d.get("name", "")) for d in decks]


def game_start(*, cards: Mapping[str, Mapping[str, Any]], decks: Sequence[Mapping[str, Any]],
               seed: int, ruleset: Mapping[str, Any], first_player: int | None) -> Game:
    """The game before its first action (raises ``CardDataError`` on decks it cannot play)."""
    return Game(card_defs(cards), deck_lists(decks), seed=seed,
                ruleset=Ruleset.from_dict(dict(ruleset)), first_player=first_player)


def record_start(record: Any) -> Game:
    """``record``: anything with the fields of ``play.models.PlayGame``. A game played on from
    a replay starts at its ``start`` position (a snapshot at a main-phase decision) with its
    own seed, not from the decks."""
    start = getattr(record, "start", None)
    if start:
        return Game.from_snapshot(start, _record_cards(record), seed=int(record.seed))
    return Game(_record_cards(record), deck_lists(record.decks), seed=record.seed,
                ruleset=Ruleset.from_dict(dict(record.ruleset)),
                first_player=record.first_player)


def game_at(record: Any, step: int | None = None) -> Game:
    """The game after ``step`` of its actions (all of them by default): the caller's own."""
    if step is None or step >= len(record.actions):
        return game_history(record).game
    game = record_start(record)
    actions = record.actions if step is None else record.actions[:max(0, step)]
    for action in actions:
        game.apply(Action.from_dict(action), check=False)
    return game


def game_history(record: Any) -> History:
    """The whole game so far with every intermediate snapshot (for the log and the undo); its
    game is the caller's own to play on."""
    key = _key(record)
    if key is not None:
        with _lock:
            found = _histories.get(key)
            if found is not None:
                _histories.move_to_end(key)
        if found is not None:
            return _own_copy(found)
    history = _replay(record)
    if key is not None:
        history_store(record, history)
    return history


def _replay(record: Any) -> History:
    game = record_start(record)
    snapshots = [game.snapshot()]
    starts: dict[int, int] = {game.turn: 0}
    marks: dict[int, RngState] = {}
    _mark(marks, game, 0)
    for action in record.actions:
        game.apply(Action.from_dict(action), check=False)
        snapshots.append(game.snapshot())
        starts.setdefault(game.turn, len(snapshots) - 1)
        _mark(marks, game, len(snapshots) - 1)
    return History(game=game, snapshots=snapshots, turn_starts=starts, marks=marks)


def whole_at(game: Game) -> bool:
    """Whether ``game``'s snapshot holds all of it but its RNG: a main-phase decision (no
    effect half done) before the turn's first main action (``Ruleset.action_limit`` counts
    them, and the snapshot does not)."""
    decision = game.decision
    return (game.phase == "main" and decision is not None and decision.kind == "main"
            and game.main_actions == 0)


def _mark(marks: dict[int, RngState], game: Game, step: int) -> None:
    if whole_at(game):
        marks[step] = rng_pack(game.rng)


def rng_pack(rng: random.Random) -> RngState:
    version, words, gauss = rng.getstate()
    return version, array("I", words).tobytes(), gauss


def rng_unpack(state: RngState) -> random.Random:
    version, packed, gauss = state
    return rng_from_state((version, tuple(array("I", packed)), gauss))


def game_at_step(record: Any, history: History, step: int) -> Game:
    """The game after ``step`` of ``history``'s actions (``record``'s game replayed, kept):
    rebuilt at the nearest marked step at or before it from its snapshot and RNG state, then
    the actions up to ``step`` played (or from the start, before the first mark: the setup).
    Exactly ``game_at(record, step)``, but a turn's actions at most instead of the game's; the
    caller's own (its event log, if any, is not the game's: that is ``history``'s)."""
    if step >= history.steps:
        return history.game.copy()
    mark = max((at for at in history.marks if at <= step), default=None)
    if mark is None:
        game = record_start(record)
        mark = 0
    else:
        game = Game.from_snapshot(history.snapshots[mark], _record_cards(record),
                                  seed=int(record.seed), log=False)
        game.rng = rng_unpack(history.marks[mark])
    for action in record.actions[mark:step]:
        game.apply(Action.from_dict(action), check=False)
    return game


def undo_point(history: History, seat: int) -> int | None:
    """The step where the current turn (or the setup) began, if it is ``seat``'s and ``seat``
    has acted in it since; None when there is nothing to undo."""
    game = history.game
    turn = game.turn
    start = history.turn_starts.get(turn)
    if start is None or start >= history.steps or (turn != 0 and game.active != seat):
        return None
    if not any(_actor(history, step) == seat for step in range(start, history.steps)):
        return None
    return start


def _actor(history: History, step: int) -> int | None:
    """Who chose the action after ``step``."""
    decision = history.snapshots[step].get("decision") or {}
    return decision.get("player")


def agent_rng(seed: int, step: int) -> random.Random:
    """An agent's random source at ``step`` of the game seeded ``seed`` (a string seed is hashed
    the same way in every process)."""
    return random.Random(f"play:{seed}:{step}")
