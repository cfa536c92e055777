"""A player's record: games against people beside games against each AI player."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from play.models import NO_SHOW, PlayGame, PlayStatus

RECENT = 20


@dataclass
class Tally:
    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)


@dataclass
class Record:
    people: Tally = field(default_factory=Tally)
    agents: dict[str, Tally] = field(default_factory=dict)
    recent: list[dict[str, Any]] = field(default_factory=list)


def outcome_for(game: PlayGame, seat: int) -> str:
    """``won``, ``lost`` or ``drawn`` for the player of ``seat`` in a finished game, or
    ``called_off`` for a game a player never opened (it counts for neither)."""
    if (game.result or {}).get("reason") == NO_SHOW:
        return "called_off"
    winner = (game.result or {}).get("winner")
    if winner is None:
        return "drawn"
    return "won" if winner == seat else "lost"


def player_record(user: Any) -> Record:
    """Every finished game of ``user``: against people (with the latest ones listed) and against
    each AI player; hot-seat games and games called off before they began count in neither."""
    record = Record()
    games = (PlayGame.objects.filter(Q(owner=user) | Q(guest=user))
             .exclude(status=PlayStatus.PLAYING).select_related("owner", "guest")
             .only("uid", "owner", "guest", "seats", "result", "status", "is_shared",
                   "updated_at", "owner__username", "guest__username")
             .order_by("-updated_at"))
    for game in games.iterator(chunk_size=500):
        if (game.result or {}).get("reason") == NO_SHOW:
            continue                       # called off before it began: played by neither
        if game.friendly:
            seat = game.seat_of(user)
            if seat is None:
                continue
            outcome = outcome_for(game, seat)
            record.people.add(outcome)
            if len(record.recent) < RECENT:
                record.recent.append({"game": game, "outcome": outcome,
                                      "opponent": game.player_name(1 - seat),
                                      "reason": (game.result or {}).get("reason", "")})
        elif not game.hot_seat and game.human_seats:
            seat = game.human_seats[0]
            agent = str(game.seats[1 - seat])
            record.agents.setdefault(agent, Tally()).add(outcome_for(game, seat))
    record.agents = dict(sorted(record.agents.items()))
    return record
