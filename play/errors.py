"""What the play services refuse, as exceptions the views and the API turn into 4xx answers.

Every sentence play refuses with is here, the action reader's (``play.engine.action_input``)
too: one place to read, reuse in tests and check against the translations."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

NOT_LEGAL = gettext_lazy("The engine refuses {action}: it is not a legal action now. "
                         "Legal now: {legal}.")
NOT_YOUR_DECISION = gettext_lazy("It is not your decision: {agent} is playing P{seat} now.")
GAME_OVER = gettext_lazy("The game is over: start a new one or restart this one.")
STALE = gettext_lazy("The game moved on (in another tab?): this is where it stands now.")
NOTHING_TO_UNDO = gettext_lazy("There is nothing to undo: your turn has not begun yet.")
BAD_ACTION = gettext_lazy("Not an action: {problem}.")
UNKNOWN_AGENT = gettext_lazy("No AI player {name!r}: choose one of {known}.")
BAD_RULESET = gettext_lazy("The ruleset is not valid: {problems}.")
UNPLAYABLE = gettext_lazy("These decks cannot be played: {problems}.")
NO_DRAFT = gettext_lazy("There is no deck in the builder to play: build one first.")
AGENT_FAILED = gettext_lazy("The AI could not make its move ({problem}). Let it try again, "
                            "or undo, restart or concede.")
HINT_NO_DECISION = gettext_lazy("There is nothing to decide now, so nothing to hint.")
SEAT_CHOICE = gettext_lazy("Give 0 (P1) or 1 (P2).")
STEP_RANGE = gettext_lazy("Give a step, a whole number from 0 to {steps} (the game's steps).")
NOTHING_TO_RETRY = gettext_lazy("The AI is not to move, so there is nothing to retry.")
HINT_NOT_SEAT = gettext_lazy("P{seat} has nothing to decide now: ask for the seat to move.")
NOT_A_PLAYER = gettext_lazy("Only the game's two players may allow or refuse spectators.")
NOT_YOUR_SEAT = gettext_lazy("P{seat} is played by {agent}: you may concede only for your own "
                             "seat, P{own}.")

# A sent action, read strictly (play.engine.action_input)
NOT_AN_OBJECT = gettext_lazy('Send the action as a JSON object, e.g. {"kind": "end"}.')
UNKNOWN_KIND = gettext_lazy("Give one of the action kinds ({known}), not {value}.")
NEEDED = gettext_lazy("{kind} needs this field.")
NOT_TAKEN = gettext_lazy("{kind} takes no {field}: its fields are {fields}.")
NO_FIELDS = gettext_lazy("nothing but kind")
WHOLE_NUMBER = gettext_lazy("Give a whole number from 0 to {max} (a JSON integer), not {value}.")
SLOT_OR_HERO = gettext_lazy('Give a slot, a whole number from 0 to {max}, or "hero" for the '
                            "enemy hero, not {value}.")


class PlayError(ValueError):
    """A request the play services refuse; ``str()`` says what to fix. ``field`` names the input
    at fault when there is one."""

    status = 400

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class PlayConflict(PlayError):
    """The game's version is not the one the request read: another action came first."""

    status = 409


class PlayForbidden(PlayError):
    """A change for a seat the player does not play (an agent's)."""

    status = 403

NO_PLAYER = gettext_lazy("There is no player named {name!r}: check the spelling (names are "
                         "case-sensitive), or leave it empty for an open link.")
NOT_YOURSELF = gettext_lazy("You cannot challenge yourself: name another player, or play "
                            "hot-seat.")
UNKNOWN_FORMAT = gettext_lazy("There is no format {code!r}: choose one of {known}.")
CHALLENGER_DECK_GONE = gettext_lazy("The challenger's deck can no longer be played (a card of "
                                    "it has changed or gone): ask them for a new challenge.")
DECK_NOT_LEGAL = gettext_lazy("This deck is not legal in {format}: fix every problem listed, "
                              "or pick another deck.")
TOO_MANY_CHALLENGES = gettext_lazy("You have {count} challenges waiting for an answer, the most "
                                   "at once ({limit}): withdraw one or wait for its answer.")
TOO_MANY_GAMES = gettext_lazy("{who} has {count} games against people in progress, the most "
                              "at once ({limit}): finish one first.")
CHALLENGE_CLOSED = gettext_lazy("This challenge is no longer open ({status}).")
NOT_FOR_YOU = gettext_lazy("This challenge is for another player.")
OPEN_NOT_DECLINED = gettext_lazy("An open link is for anyone to accept, so nobody declines it: "
                                 "leave it, and only its maker may withdraw it.")
OWN_CHALLENGE = gettext_lazy("This is your own challenge: send its link to the player you "
                             "want to play.")
NOT_YOUR_TURN = gettext_lazy("It is P{seat}'s decision, not yours: you play P{own}.")
NO_UNDO_BETWEEN_PEOPLE = gettext_lazy("There is no undo in a game between two people: a move "
                                      "played is played.")
NO_RESTART_BETWEEN_PEOPLE = gettext_lazy("A game between two people cannot be restarted: ask "
                                         "for a rematch once it is over.")
NO_HINT_BETWEEN_PEOPLE = gettext_lazy("The planner gives no hints in a game between two "
                                      "people.")
CONCEDE_OWN_SEAT = gettext_lazy("You play P{own}: you may concede only for your own seat.")
NO_REMATCH = gettext_lazy("A rematch is offered once a game between two people is over.")


class DeckProblems(PlayError):
    """A deck refused by the challenge's format: every problem, as the builder lists them."""

    def __init__(self, message: str, problems: list[dict[str, Any]], field: str = "deck"):
        super().__init__(message, field)
        self.problems = problems
