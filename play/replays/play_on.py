"""Play on from a replay's step: a new game against an AI player from that position.

The person plays the seat they had (a game between people, or their game against an agent);
in a hot-seat game or someone else's shared replay they choose it. The new game starts at the
step's position as that seat could know it (``rules.engine.play_on``): its own cards as they
were, its deck shuffled anew, and every card it could not see — the other hand and deck, its
face-down minions — dealt anew from the other deck's list less the cards shown (a game against
an agent: the person chose both decks), or, where the list was kept hidden (between people),
from the cards the other seat showed up to that step. Never the real hidden cards. The new
game has a fresh seed, stores its start and remembers where it came from.

Only a main-phase decision can be played on: a snapshot holds nothing else (a choice inside an
effect, the setup), and an ended game has no move left (``play_on_refusal`` says why).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from play.engine.adapter import card_defs, game_history
from play.errors import UNKNOWN_AGENT, PlayError
from play.models import HUMAN, PlayGame
from rules.ai.agents import AGENT_NAMES
from rules.engine.play_on import (
    GAME_OVER,
    NOT_MAIN,
    NOTHING_SHOWN,
    PlayOnRefused,
    SeatKnowledge,
    play_on_snapshot,
    refusal,
    shown_cards,
)

# Why a step cannot be played on, by rules.engine.play_on's codes.
REFUSALS = {
    NOT_MAIN: gettext_lazy("A game can be played on only from a main-phase move: this step is "
                           "inside an effect's choice or the set-up. Step on to the next move "
                           "of a turn."),
    GAME_OVER: gettext_lazy("The game has ended at this step: step back to a move before the "
                            "end."),
    NOTHING_SHOWN: gettext_lazy("The other player has shown no card yet, so their hidden cards "
                                "cannot be dealt: play on from a later step."),
}
NO_STEP = gettext_lazy("There is no step {step} in this game: give a step from 0 to {steps}.")
SEAT_FIXED = gettext_lazy("You played P{own} in this game: play on from your own seat.")
SEAT_NEEDED = gettext_lazy("Choose the seat you play: 0 (P1) or 1 (P2).")


def play_on_seat(record: PlayGame, user: Any) -> int | None:
    """The seat ``user`` plays on from: the one they had in the game; None when they choose it
    (a hot-seat game, or someone else's shared replay)."""
    own = record.seat_of(user)
    if own is not None:
        return own
    if not record.friendly and not record.hot_seat and record.owner_id == getattr(user, "pk",
                                                                                  None):
        return record.human_seats[0] if record.human_seats else 0
    return None


def play_on_refusal(record: PlayGame, step: int) -> str | None:
    """Why ``step`` of ``record`` cannot be played on (a sentence), or None when it can."""
    history = game_history(record)
    if not 0 <= step <= history.steps:
        return str(NO_STEP).format(step=step, steps=history.steps)
    why = refusal(history.snapshots[step])
    return None if why is None else str(REFUSALS[why])


def play_on_start(*, record: PlayGame, user: Any, step: int, agent: str,
                  seat: int | None = None) -> PlayGame:
    """A new game of ``user`` against ``agent`` from ``step`` of ``record`` (a replay they may
    see: the caller read it with ``play_replay_get``). Refused with a ``PlayError``: a step that
    does not exist or cannot be played on, an unknown agent, a seat not theirs to choose."""
    if agent not in AGENT_NAMES:
        raise PlayError(str(UNKNOWN_AGENT).format(name=agent, known=", ".join(AGENT_NAMES)),
                        "agent")
    seat = _seat(record, user, seat)
    history = game_history(record)
    if not 0 <= step <= history.steps:
        raise PlayError(str(NO_STEP).format(step=step, steps=history.steps), "step")
    cards = card_defs(record.cards)
    knowledge = _knowledge(record, user, seat, history.snapshots[:step + 1])
    # The deal draws from a source of its own: the new game's seed is shown on its page, and
    # the dealt hidden cards must not be worked out from it (the start is stored, not redrawn).
    seed = secrets.randbits(31)
    try:
        start = play_on_snapshot(history.snapshots[step], cards=cards, seats=knowledge,
                                 rng=random.Random(secrets.randbits(64)))
    except PlayOnRefused as exc:
        raise PlayError(str(REFUSALS[exc.code]), "step") from None
    decks = [_deck_as_known(record.decks[i], knowledge[i]) for i in (0, 1)]
    seats = [HUMAN, agent] if seat == 0 else [agent, HUMAN]
    return PlayGame.objects.create(
        owner=user, decks=decks, cards=_cards_used(record.cards, start, decks), seats=seats,
        seed=seed, ruleset=record.ruleset, first_player=start.get("first_player"),
        start=start, played_on_from=record, played_on_step=step)


def _seat(record: PlayGame, user: Any, asked: int | None) -> int:
    fixed = play_on_seat(record, user)
    if fixed is not None:
        if asked is not None and asked != fixed:
            raise PlayError(str(SEAT_FIXED).format(own=fixed + 1), "seat")
        return fixed
    if asked not in (0, 1):
        raise PlayError(str(SEAT_NEEDED), "seat")
    return int(asked)


def _knowledge(record: PlayGame, user: Any, seat: int,
               snapshots: Sequence[Mapping[str, Any]]) -> list[SeatKnowledge]:
    """What the person knew of each seat. Against an agent or hot-seat they chose both decks
    and saw their seat's cards; between people each list stays hidden from all but its player,
    and a spectator of a shared replay saw neither hand."""
    own = record.seat_of(user) if record.friendly else seat
    known = []
    for index in (0, 1):
        deck_known = not record.friendly or index == own
        shown: list[str] = []
        for snapshot in snapshots:
            shown += shown_cards(snapshot["players"][index])
        known.append(SeatKnowledge(
            hidden=index != own,
            deck_list=dict(record.decks[index]["cards"]) if deck_known else None,
            shown=sorted(set(shown))))
    return known


def _deck_as_known(deck: Mapping[str, Any], known: SeatKnowledge) -> dict[str, Any]:
    """The frozen deck the new game keeps for a seat: the whole list where the person knew it,
    else only its hero (a list kept hidden stays hidden in the new game too)."""
    if known.deck_list is not None:
        return dict(deck)
    return {"hero": deck["hero"], "cards": {}, "name": ""}


def _cards_used(cards: Mapping[str, Any], start: Mapping[str, Any],
                decks: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The card data the new game needs: the known lists' and every card of its start."""
    wanted = {code for deck in decks for code in deck["cards"]}
    for player in start["players"]:
        wanted |= {player["hero"], *player["hand"], *player["deck"], *player["display"],
                   *player["graveyard"]}
        wanted |= {m["card"] for m in player["minions"] if m is not None}
    return {code: cards[code] for code in sorted(wanted) if code in cards}
