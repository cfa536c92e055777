"""Playing a game: start it, act, undo, restart, concede, share (an agent's moves:
``play.ai.turn``).

Every change is written by the game's one writer (``play.store``) with ``version`` as its
precondition: the request read the game at some version, and the write happens only if nobody
changed it since, else ``PlayConflict`` (409) — two tabs cannot both advance a game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from cards.game_words import says
from common.frozen import FrozenDeck
from play.clock.presence import seen_touch
from play.engine.action_input import action_read
from play.engine.adapter import game_at, game_history, game_start, history_after, undo_point
from play.errors import (
    BAD_RULESET,
    CONCEDE_OWN_SEAT,
    GAME_OVER,
    NO_RESTART_BETWEEN_PEOPLE,
    NO_UNDO_BETWEEN_PEOPLE,
    NOT_LEGAL,
    NOT_YOUR_DECISION,
    NOT_YOUR_SEAT,
    NOT_YOUR_TURN,
    NOTHING_TO_UNDO,
    STALE,
    UNKNOWN_AGENT,
    UNPLAYABLE,
    PlayConflict,
    PlayError,
    PlayForbidden,
)
from play.models import HUMAN, PlayGame, PlayStatus
from play.store import game_write, move_write
from rules.ai.agents import AGENT_NAMES
from rules.engine import Action
from rules.engine.cards import CardDataError, Ruleset
from simulations.sources import SourceError, cards_freeze

FIRST_CHOICES = ("me", "opponent", "random")
CONCEDED = "conceded"


def _ruleset(ruleset: Mapping[str, Any] | None) -> dict[str, Any]:
    try:
        return Ruleset.from_dict(dict(ruleset or {})).to_dict()
    except CardDataError as exc:
        raise PlayError(str(BAD_RULESET).format(problems=says(exc.problems)),
                        "ruleset") from None


@transaction.atomic
def play_start(*, owner: Any, deck: FrozenDeck, opponent_deck: FrozenDeck,
               opponent: str, ruleset: Mapping[str, Any] | None = None, first: str = "random",
               seed: int | None = None) -> PlayGame:
    """A new game: ``deck`` is the owner's (seat P1), ``opponent`` an agent's name or "human"
    (hot-seat: the owner plays both seats). Decks are frozen (``common.frozen``); the cards
    they use are frozen with them."""
    if opponent != HUMAN and opponent not in AGENT_NAMES:
        raise PlayError(str(UNKNOWN_AGENT).format(name=opponent,
                                                  known=", ".join(AGENT_NAMES)), "opponent")
    rules = _ruleset(ruleset)
    decks = [dict(deck), dict(opponent_deck)]
    try:
        cards = cards_freeze(decks)
    except SourceError as exc:
        raise PlayError(str(exc)) from None
    seed = secrets.randbits(31) if seed is None else int(seed)
    first_player = {"me": 0, "opponent": 1}.get(first)
    try:
        game_start(cards=cards, decks=decks, seed=seed, ruleset=rules, first_player=first_player)
    except CardDataError as exc:
        raise PlayError(str(UNPLAYABLE).format(problems=says(exc.problems))) from None
    record = PlayGame.objects.create(owner=owner, decks=decks, cards=cards,
                                     seats=[HUMAN, opponent], seed=seed, ruleset=rules,
                                     first_player=first_player)
    return record



def _check_version(record: PlayGame, version: int) -> None:
    if version != record.version:
        raise PlayConflict(str(STALE))



def play_act(*, record: PlayGame, action: Mapping[str, Any] | Action,
             version: int, by: Any = None) -> PlayGame:
    """Play a person's action; 400 if the engine refuses it, 409 if the game moved on. In a
    game between people ``by`` must be the player of the seat to move (403 otherwise)."""
    _check_version(record, version)
    if record.over:
        raise PlayError(str(GAME_OVER))
    chosen = action_read(action)
    history = game_history(record)
    game = history.game
    seat = game.to_move
    if seat is None:
        raise PlayError(str(GAME_OVER))
    if record.seats[seat] != HUMAN:
        raise PlayError(str(NOT_YOUR_DECISION).format(agent=record.seats[seat], seat=seat + 1))
    if record.friendly:
        own = record.seat_of(by)
        if own != seat:
            raise PlayForbidden(str(NOT_YOUR_TURN).format(seat=seat + 1,
                                                          own=(own or 0) + 1))
        seen_touch(record, own)
    legal = game.legal_actions()
    if chosen not in legal:
        raise PlayError(str(NOT_LEGAL).format(action=chosen,
                                              legal=", ".join(str(a) for a in legal)), "action")
    return move_write(record, version=version, history=history_after(history, chosen),
                      actions=[*record.actions, chosen.to_dict()])


def play_undo(*, record: PlayGame, seat: int, version: int) -> PlayGame:
    """Back to the start of ``seat``'s latest turn (or of the setup)."""
    _check_version(record, version)
    if record.friendly:
        raise PlayError(str(NO_UNDO_BETWEEN_PEOPLE))
    if record.over:
        raise PlayError(str(GAME_OVER))
    point = undo_point(game_history(record), seat)
    if point is None:
        raise PlayError(str(NOTHING_TO_UNDO))
    return game_write(record, version=version, actions=record.actions[:point])


def play_restart(*, record: PlayGame, version: int) -> PlayGame:
    """The same game from its first decision: same decks, seed, ruleset and first player. A
    shared replay is of the game that was finished: the new one is private until shared."""
    _check_version(record, version)
    if record.friendly:
        raise PlayError(str(NO_RESTART_BETWEEN_PEOPLE))
    return game_write(record, version=version, actions=[], status=PlayStatus.PLAYING, result=None,
                 is_shared=False)


def play_concede(*, record: PlayGame, seat: int, version: int, by: Any = None) -> PlayGame:
    """``seat`` gives up: the other seat wins. Only a seat the person plays may give up (in a
    game against an agent, not the agent's: that would be a win by fiat; between people, only
    your own)."""
    _check_version(record, version)
    if record.over:
        raise PlayError(str(GAME_OVER))
    if record.friendly and record.seat_of(by) != seat:
        raise PlayForbidden(str(CONCEDE_OWN_SEAT).format(own=(record.seat_of(by) or 0) + 1))
    if record.seats[seat] != HUMAN:
        own = record.human_seats[0] + 1 if record.human_seats else 1
        raise PlayForbidden(str(NOT_YOUR_SEAT).format(seat=seat + 1, agent=record.seats[seat],
                                                      own=own))
    game = game_at(record)
    result = {"winner": 1 - seat, "reason": CONCEDED, "turns": game.turn, "loser": seat}
    return game_write(record, version=version, status=PlayStatus.CONCEDED, result=result,
                 to_move=None, deadline=None)


def play_share(*, record: PlayGame, shared: bool) -> PlayGame:
    """Let anyone with the link watch the finished game's replay (or stop letting them)."""
    record.is_shared = shared
    record.save(update_fields=["is_shared", "updated_at"])
    return record
