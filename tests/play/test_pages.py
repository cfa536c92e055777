"""The play pages as a browser without scripts sees them: the form, the board, the actions as
buttons, refusals and conflicts in words, the hot-seat cover, the replay and who may see it."""

from __future__ import annotations

import json
import re

import pytest

from play.models import PlayGame

pytestmark = pytest.mark.django_db

DAWN, DUSK = "starter:Dawn Test", "starter:Dusk Test"


@pytest.fixture
def web(client, alice, catalogue):
    client.force_login(alice)
    return client


def _start(web, **fields):
    body = {"deck": DAWN, "opponent_deck": DUSK, "opponent": "greedy", "first": "me",
            "seed": "5", "rule_turn_limit": "30", "rule_hero_advantage": "on",
            "rule_face_down_last_words": "on", "rule_sleeping_keywords": "on", **fields}
    response = web.post("/play/", body)
    assert response.status_code == 302, response.content.decode()[:2000]
    return PlayGame.objects.get(uid=response["Location"].strip("/").split("/")[-1])


def _buttons(html):
    return [json.loads(v.replace("&quot;", '"'))
            for v in re.findall(r'name="action" value="([^"]+)"', html)]


def test_the_form_offers_decks_agents_with_their_strength_and_rules(web):
    html = web.get("/play/?deck=" + DAWN).content.decode()
    assert 'value="starter:Dawn Test" selected' in html
    assert "Elo" in html and "hot-seat" in html
    assert "awaken skills and last words always resolve" in html        # R6.1's option


def test_a_game_starts_and_its_board_offers_the_engines_actions(web):
    game = _start(web)
    html = web.get(game.get_absolute_url()).content.decode()
    assert [a["kind"] for a in _buttons(html)][-1] == "keep"
    assert 'data-testid="enemy-hand"' in html and "card-back" in html
    response = web.post(f"/play/{game.uid}/act/", {"version": game.version,
                                                   "action": '{"kind": "keep"}', "seat": "0"},
                        HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.actions[0] == {"kind": "keep"} or {"kind": "keep"} in game.actions


def test_a_refused_action_and_a_stale_tab_are_said_in_words(web):
    game = _start(web)
    refused = web.post(f"/play/{game.uid}/act/", {"version": game.version,
                                                  "action": '{"kind": "end"}'},
                       HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "The engine refuses end()" in refused.content.decode()
    web.post(f"/play/{game.uid}/act/", {"version": game.version, "action": '{"kind": "keep"}'})
    stale = web.post(f"/play/{game.uid}/act/", {"version": game.version,
                                                "action": '{"kind": "keep"}'},
                     HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert "The game moved on" in stale.content.decode()
    garbage = web.post(f"/play/{game.uid}/act/", {"version": "x", "action": "{nope"},
                       HTTP_HX_REQUEST="true")
    assert garbage.status_code == 400


def test_hot_seat_covers_the_board_when_the_other_seat_must_decide(web):
    game = _start(web, opponent="human", first="opponent")
    seat = 1 if PlayGame.objects.get(pk=game.pk) and 'data-seat="1"' in \
        web.get(game.get_absolute_url()).content.decode() else 0
    other = 1 - seat
    covered = web.get(f"/play/{game.uid}/board/?seat={other}").content.decode()
    assert 'data-testid="cover"' in covered and 'data-testid="my-hand"' not in covered
    shown = web.get(f"/play/{game.uid}/board/?seat={seat}").content.decode()
    assert 'data-testid="my-hand"' in shown


def test_another_users_game_and_private_replay_are_404(web, client, bob):
    game = _start(web)
    web.post(f"/play/{game.uid}/concede/", {"version": game.version, "seat": "0"})
    game.refresh_from_db()
    assert game.status == "conceded"
    assert web.get(f"/play/{game.uid}/replay/").status_code == 200
    client.force_login(bob)
    assert client.get(f"/play/{game.uid}/").status_code == 404
    assert client.get(f"/play/{game.uid}/replay/").status_code == 404
    game.is_shared = True
    game.save()
    assert client.get(f"/play/{game.uid}/replay/?step=3").status_code == 200


def test_the_hint_panel_names_the_planners_pick(web):
    game = _start(web)
    html = web.get(f"/play/{game.uid}/hint/").content.decode()
    assert "the planner&#x27;s pick" in html or "the planner's pick" in html


def test_the_deck_pages_builder_nav_and_profile_lead_to_play(web, alice):
    from decks.drafts import Draft
    from decks.services import deck_create
    from tests.fixtures import LEGAL_CARDS

    deck = deck_create(owner=alice, draft=Draft(name="Mine", hero="T-H01",
                                                cards=dict(LEGAL_CARDS)))
    assert f'href="/play/?deck={deck.uid}"' in web.get(deck.get_absolute_url()).content.decode()
    assert 'href="/play/?deck=starter%3ADawn%20Test"' in \
        web.get("/decks/starter/dawn-test/").content.decode()
    assert 'href="/play/?deck=draft"' in web.get("/decks/build/").content.decode()
    assert 'href="/play/"' in web.get("/").content.decode()
    game = _start(web, deck=deck.uid)
    profile = web.get("/accounts/profile/").content.decode()
    assert game.get_absolute_url() in profile and 'data-testid="profile-games"' in profile


def test_the_builders_draft_can_be_played(web):
    from decks.drafts import Draft
    from decks.session import NEW
    from tests.fixtures import LEGAL_CARDS

    session = web.session
    draft = Draft(name="Drafty", hero="T-H01", cards=dict(LEGAL_CARDS))
    session["deck_drafts"] = {NEW: draft.to_session()}
    session.save()
    html = web.get("/play/?deck=draft").content.decode()
    assert "Drafty (in the builder)" in html
    game = _start(web, deck="draft")
    assert game.decks[0]["name"] == "Drafty" and game.decks[0]["cards"] == LEGAL_CARDS


def test_an_agent_that_fails_is_said_on_the_board_instead_of_waiting(web, settings,
                                                                     monkeypatch):
    from play.ai import runner, turn

    settings.PLAY_AI_INLINE = False
    game = _start(web, first="opponent")                    # the agent must decide first
    monkeypatch.setattr(turn, "make_agent", lambda name: 1 / 0)
    monkeypatch.setattr(runner, "agent_schedule", lambda uid: runner._advance(uid) or True)
    # The pool's work runs here in the request's own thread, whose connection holds the test's
    # transaction: closing it as a pool thread does would end the test's database on PostgreSQL.
    monkeypatch.setattr(runner, "close_old_connections", lambda: None)
    monkeypatch.setattr("play.views.agent_schedule", runner.agent_schedule)
    web.get(f"/play/{game.uid}/board/?seat=0")              # schedules it: it fails
    board = web.get(f"/play/{game.uid}/board/?seat=0").content.decode()
    assert "The AI could not make its move (ZeroDivisionError" in board
    assert 'data-pending=""' in board
    assert runner.agent_failure(game.uid, game.version) is not None
    monkeypatch.undo()
    settings.PLAY_AI_INLINE = True
    web.get(game.get_absolute_url())                        # a reload tries again: it moves
    game.refresh_from_db()
    assert game.actions and runner.agent_failure(game.uid, game.version) is None
