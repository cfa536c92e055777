"""A spectator learns nothing a player hid (R1.1: a hand is hidden; R3.x: a face-down minion is
unknown until revealed): whole games between two people, played in several agents' styles, are
read by a spectator at every step — the whole game so far, the ``?since=`` answer and the live
stream's event — and no answer names a card of either hand or deck, nor a face-down minion
that was never shown, by code or by name; every move from a hand says ``hand-theirs``. The
same check run on a player's own answer finds their hand: it can fail."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from common.language import localized_value
from play.engine.adapter import game_history
from play.friends import services as friend_services
from play.models import PlayGame
from play.seat.log_text import SPECTATOR, _visible_codes, redact_snapshot, step_lines
from play.spectators.presence import spectators_forget
from rules.ai.agents import make_agent
from rules.engine import Action
from tests.play.test_hand_positions import HAND_INDEXED, MAX_STEPS, _choice
from tests.play.test_spectators import watched_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_presence():
    spectators_forget()
    yield
    spectators_forget()


@pytest.fixture(autouse=True)
def _one_dealt_game(monkeypatch):
    """Every run plays the same games: a game seeded at random can end in under the 20 steps
    these tests ask for (17 in a random-style game seen in CI), and a short game hides too
    little to test."""
    monkeypatch.setattr(friend_services, "secrets", SimpleNamespace(randbits=lambda bits: 20261129))


@pytest.fixture
def carol(db):
    from tests.fixtures import UserFactory

    return UserFactory(username="carol")


def _known(record: PlayGame, upto: int) -> set[str]:
    """Every card a spectator was shown up to step ``upto`` (face-up minions, displays,
    graveyards, heroes)."""
    history = game_history(record)
    return set().union(*(_visible_codes(redact_snapshot(s, SPECTATOR))
                         for s in history.snapshots[:upto + 1]))


def hidden_cards(record: PlayGame) -> set[str]:
    """The cards at the game's latest step that a spectator may not know: in a hand or a
    deck, or a face-down minion's, never shown to both players so far."""
    history = game_history(record)
    now = history.snapshots[history.steps]
    codes: set[str] = set()
    for player in now["players"]:
        codes.update(player["hand"])
        codes.update(player["deck"])
        codes.update(m["card"] for m in player["minions"]
                     if m and not (m.get("awake") or m.get("public")))
    return codes - _known(record, history.steps)


def leaks(text: str, record: PlayGame, secret: set[str]) -> set[str]:
    """The cards of ``secret`` that ``text`` names, by code or by (English) name."""
    names = {code: localized_value(data, "name", "en") or code
             for code, data in record.cards.items()}
    shown = sorted((names[c] for c in names if c not in secret), key=len, reverse=True)
    plain = text
    for name in shown:          # a known card's name may contain a hidden one's: not a leak
        if not any(name in names[c] and name != names[c] for c in secret):
            plain = plain.replace(name, "")
    return {c for c in secret if f'"{c}"' in text
            or re.search(rf"\b{re.escape(names[c])}\b", plain)}


def assert_sees_nothing_hidden(answer: Mapping[str, Any], record: PlayGame) -> None:
    view = answer["view"]
    history = game_history(record)
    now = history.snapshots[history.steps]
    for seen, true in zip(view["players"], now["players"], strict=True):
        assert seen["hand"] == len(true["hand"]) and seen["deck"] == len(true["deck"])
        for shown, minion in zip(seen["minions"], true["minions"], strict=True):
            if minion and not (minion.get("awake") or minion.get("public")):
                assert shown == {"hidden": True}
    for move in answer.get("moves") or []:
        if move["action"]["kind"] in HAND_INDEXED and "card" in move["action"]:
            assert move["action"]["card"] == "hand-theirs", move
    found = leaks(json.dumps(answer, ensure_ascii=False), record, hidden_cards(record))
    assert not found, (found, answer["steps"])


def _style(name: str) -> Callable[[dict[str, Any], PlayGame, dict[int, int]], dict[str, Any]]:
    """How a player picks their move: the preference order of the hand-position tests, or
    an AI agent of the registry on the seat's own view."""
    if name == "preference":
        return lambda state, record, mulligans: _choice(state, mulligans)
    agent = make_agent(name)
    rng = random.Random(5)

    def choose(state: dict[str, Any], record: PlayGame, mulligans: dict[int, int]) -> dict:
        game = game_history(record).game
        legal = game.legal_actions()
        view = game.view(state["seat"]) if agent.needs_view else None
        chosen: Action = agent.choose(view, legal, rng)
        return chosen.to_dict()

    return choose


def _play_watched(client_for, alice, bob, carol, client, style: str, *,
                  check: Callable[[dict[str, Any], PlayGame], None],
                  stream: bool) -> int:
    uid = watched_game(client_for, alice, bob)
    players = {0: client_for(alice), 1: client_for(bob)}
    spectator = client_for(carol)
    client.force_login(carol)
    choose, mulligans, last, steps = _style(style), {}, 0, 0
    for steps in range(MAX_STEPS):
        record = PlayGame.objects.get(uid=uid)
        if not stream:
            check(spectator.get(f"/api/play/{uid}/watch/").json(), record)
            check(spectator.get(f"/api/play/{uid}/watch/?since={last}").json(), record)
        else:
            text = b"".join(client.get(f"/api/play/{uid}/watch/events/?since={last}")
                            .streaming_content).decode()
            for line in text.splitlines():
                if line.startswith("data: ") and '"view"' in line:
                    check(json.loads(line[6:]), record)
        last = len(record.actions)
        if record.over:
            return steps
        mover = game_history(record).game.to_move
        state = players[int(mover or 0)].get(f"/api/play/{uid}/").json()
        body = {"version": state["version"], "action": choose(state, record, mulligans)}
        done = players[state["seat"]].post(f"/api/play/{uid}/actions/", body, format="json")
        assert done.status_code == 200, done.json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("style", ["preference", "greedy", "random"])
def test_a_spectator_sees_no_hidden_card_at_any_step(client_for, alice, bob, carol, client,
                                                     style, settings):
    """Rule: R1.1 — neither hand, deck nor face-down minion reaches a spectator."""
    settings.PLAY_STREAM_HOLD = 0
    steps = _play_watched(client_for, alice, bob, carol, client, style,
                          check=assert_sees_nothing_hidden, stream=False)
    assert steps > 20


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_loop_running")
def test_no_stream_event_to_a_spectator_names_a_hidden_card(client_for, alice, bob, carol,
                                                             client, settings):
    """Rule: R1.1 — the live stream's events too, at every step of a whole game."""
    settings.PLAY_STREAM_HOLD = 0             # a stream answers what is new, then ends
    steps = _play_watched(client_for, alice, bob, carol, client, "greedy",
                          check=assert_sees_nothing_hidden, stream=True)
    assert steps > 20


def test_the_check_finds_a_players_own_hand_and_a_face_down_card(client_for, alice, bob,
                                                                  carol):
    """The leak check itself works: a player's own answer names their hand (by code), and
    the engine's true log names a face-down minion placed (by name)."""
    uid = watched_game(client_for, alice, bob)
    players, mulligans = {0: client_for(alice), 1: client_for(bob)}, {}
    record = PlayGame.objects.get(uid=uid)
    own = players[0].get(f"/api/play/{uid}/").json()
    assert leaks(json.dumps(own, ensure_ascii=False), record, hidden_cards(record))
    while not any(a["kind"] == "place" for a in record.actions):
        mover = game_history(record).game.to_move
        state = players[int(mover or 0)].get(f"/api/play/{uid}/").json()
        players[state["seat"]].post(f"/api/play/{uid}/actions/", {
            "version": state["version"], "action": _choice(state, mulligans)}, format="json")
        record = PlayGame.objects.get(uid=uid)
    history = game_history(record)
    true_log = " ".join(text for _, text in step_lines(
        events=list(history.game.events or []), snapshots=history.snapshots,
        names={c: localized_value(d, "name", "en") for c, d in record.cards.items()},
        viewer=None))
    assert '"' not in true_log and leaks(true_log, record, hidden_cards(record))   # by name
    watched = client_for(carol).get(f"/api/play/{uid}/watch/").json()
    assert not leaks(json.dumps(watched, ensure_ascii=False), record, hidden_cards(record))
