"""Games between two people: a challenge, accepting it with a checked deck, and the rights of
each player (only your seat, no undo, no restart, no hint, concede your own; nobody else sees
the game)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from play.models import Challenge, PlayGame
from tests.play.conftest import DAWN, DUSK

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(db):
    from tests.fixtures import UserFactory

    return UserFactory(username="carol")


def challenge(client, **fields):
    body = {"opponent": "bob", "deck": DAWN, "first": "me", **fields}
    response = client.post("/api/play/challenges/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def game_between(client_for, alice, bob):
    made = challenge(client_for(alice))
    accepted = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                    {"deck": DUSK}, format="json")
    assert accepted.status_code == 201, accepted.json()
    return accepted.json()


def test_a_challenge_names_its_player_and_hides_the_deck(client_for, alice, bob):
    made = challenge(client_for(alice))
    assert made["opponent"] == "bob" and made["status"] == "pending"
    assert made["deck"] == "Dawn Test"                    # the challenger sees their deck
    seen = client_for(bob).get("/api/play/challenges/").json()
    assert [c["uid"] for c in seen["incoming"]] == [made["uid"]]
    assert "deck" not in seen["incoming"][0]              # the other player does not


def test_the_play_page_shows_a_challenge_to_you(client_for, alice, bob, client):
    made = challenge(client_for(alice))
    client.force_login(bob)
    page = client.get("/play/").content.decode()
    assert made["url"] in page and "alice challenges you" in page
    shown = client.get(made["url"]).content.decode()
    assert "Hidden until it is played." in shown and "<dd>Dawn Test" not in shown


def test_accepting_starts_a_game_each_sees_their_own_seat(client_for, alice, bob):
    state = game_between(client_for, alice, bob)
    assert state["seat"] == 1 and state["players"] == ["alice", "bob"]
    game = PlayGame.objects.get(uid=state["uid"])
    assert game.owner == alice and game.guest == bob and game.first_player == 0
    mine = client_for(alice).get(f"/api/play/{game.uid}/?seat=1").json()
    assert mine["seat"] == 0                               # never the other seat's view
    assert client_for(bob).get(f"/api/play/{game.uid}/").json()["seat"] == 1


def test_a_deck_not_legal_in_the_format_is_refused_with_every_problem(
        client_for, alice, bob, monkeypatch):
    made = challenge(client_for(alice))
    from play.friends import services as friends

    monkeypatch.setattr(friends, "deck_problems", lambda deck, code: [
        {"code": "deck_too_small", "rule": "R1", "message": "Too few cards.", "fix": "Add.",
         "cards": []},
        {"code": "copy_limit", "rule": "R2", "message": "Too many copies.", "fix": "Cut.",
         "cards": ["C001"]}])
    refused = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                   {"deck": DUSK}, format="json")
    assert refused.status_code == 400
    assert [p["code"] for p in refused.json()["problems"]] == ["deck_too_small", "copy_limit"]
    assert Challenge.objects.get(uid=made["uid"]).status == "pending"


def test_only_the_named_player_may_accept_and_anyone_else_sees_nothing(
        client_for, alice, bob, carol):
    made = challenge(client_for(alice))
    assert client_for(carol).get(f"/api/play/challenges/{made['uid']}/").status_code == 404
    assert client_for(carol).post(f"/api/play/challenges/{made['uid']}/accept/",
                                  {"deck": DUSK}, format="json").status_code == 404
    own = client_for(alice).post(f"/api/play/challenges/{made['uid']}/accept/",
                                 {"deck": DUSK}, format="json")
    assert own.status_code == 400


def test_an_open_link_is_taken_by_the_first_who_accepts(client_for, alice, bob, carol):
    made = challenge(client_for(alice), opponent="")
    assert made["opponent"] is None
    first = client_for(carol).post(f"/api/play/challenges/{made['uid']}/accept/",
                                   {"deck": DUSK}, format="json")
    second = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                  {"deck": DUSK}, format="json")
    assert first.status_code == 201 and second.status_code == 400
    assert "no longer open" in second.json()["detail"][0]


def test_a_stranger_cannot_decline_an_open_link_for_everyone(client_for, client, alice, bob,
                                                             carol):
    """Nobody is named in an open link, so nobody declines it: carol's "no", through the API or
    the page, leaves it open and bob still accepts it; alice, its maker, may withdraw one."""
    made = challenge(client_for(alice), opponent="")
    refused = client_for(carol).post(f"/api/play/challenges/{made['uid']}/decline/",
                                     format="json")
    assert refused.status_code == 400 and "open link" in refused.json()["detail"][0]
    client.force_login(carol)
    page = client.post(f"{made['url']}decline/")
    assert page.status_code == 400 and "open link" in page.content.decode()
    assert Challenge.objects.get(uid=made["uid"]).status == "pending"
    accepted = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                    {"deck": DUSK}, format="json")
    assert accepted.status_code == 201
    other = challenge(client_for(alice), opponent="")
    withdrawn = client_for(alice).post(f"/api/play/challenges/{other['uid']}/decline/",
                                       format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "cancelled"


def test_decline_withdraw_and_expiry(client_for, alice, bob):
    one, two, three = (challenge(client_for(alice)) for _ in range(3))
    assert client_for(bob).post(f"/api/play/challenges/{one['uid']}/decline/"
                                ).json()["status"] == "declined"
    assert client_for(alice).post(f"/api/play/challenges/{two['uid']}/decline/"
                                  ).json()["status"] == "cancelled"
    Challenge.objects.filter(uid=three["uid"]).update(expires_at=timezone.now()
                                                      - timedelta(seconds=1))
    late = client_for(bob).post(f"/api/play/challenges/{three['uid']}/accept/",
                                {"deck": DUSK}, format="json")
    assert late.status_code == 400 and "Expired" in late.json()["detail"][0]
    assert client_for(bob).get("/api/play/challenges/").json()["incoming"] == []


def test_limits_are_said_with_their_numbers(client_for, alice, bob, settings):
    settings.PLAY_MAX_OPEN_CHALLENGES = 2
    challenge(client_for(alice))
    challenge(client_for(alice))
    third = client_for(alice).post("/api/play/challenges/", {"opponent": "bob", "deck": DAWN},
                                   format="json")
    assert third.status_code == 400
    assert "2 challenges waiting" in third.json()["detail"][0] and "(2)" in third.json()[
        "detail"][0]
    settings.PLAY_MAX_OPEN_CHALLENGES = 5
    settings.PLAY_MAX_FRIEND_GAMES = 1
    game_between(client_for, alice, bob)
    again = client_for(alice).post("/api/play/challenges/", {"opponent": "bob", "deck": DAWN},
                                   format="json")
    assert again.status_code == 400 and "1 games against people" in again.json()["detail"][0]


def test_unknown_player_and_yourself_are_400s(client_for, alice):
    nobody = client_for(alice).post("/api/play/challenges/", {"opponent": "nobody",
                                                              "deck": DAWN}, format="json")
    assert nobody.status_code == 400 and "nobody" in nobody.json()["opponent"][0]
    me = client_for(alice).post("/api/play/challenges/", {"opponent": "alice", "deck": DAWN},
                                format="json")
    assert me.status_code == 400 and "yourself" in me.json()["opponent"][0]


def test_only_the_seat_owner_acts_and_no_undo_restart_or_hint(client_for, alice, bob, carol):
    state = game_between(client_for, alice, bob)
    uid = state["uid"]
    client_for(bob).get(f"/api/play/{uid}/")            # both here: the clock starts
    here = client_for(alice).get(f"/api/play/{uid}/").json()
    assert here["actions"], "P1 decides first"
    assert here["clock"]["started"] and here["clock"]["to_move"] == 0
    action = here["actions"][0]["action"]
    wrong = client_for(bob).post(f"/api/play/{uid}/actions/",
                                 {"version": here["version"], "action": action}, format="json")
    assert wrong.status_code == 403
    played = client_for(alice).post(f"/api/play/{uid}/actions/",
                                    {"version": here["version"], "action": action},
                                    format="json")
    assert played.status_code == 200 and played.json()["seat"] == 0
    version = played.json()["version"]
    for path in ("undo", "restart"):
        refused = client_for(alice).post(f"/api/play/{uid}/{path}/", {"version": version},
                                         format="json")
        assert refused.status_code == 400, path
    assert client_for(alice).get(f"/api/play/{uid}/hint/").status_code == 400
    assert client_for(carol).get(f"/api/play/{uid}/").status_code == 404
    assert client_for(carol).post(f"/api/play/{uid}/concede/", {"version": version},
                                  format="json").status_code == 404


def test_concede_is_for_your_own_seat(client_for, alice, bob):
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    other = client_for(bob).post(f"/api/play/{uid}/concede/", {"version": version, "seat": 0},
                                 format="json")
    assert other.status_code == 403
    done = client_for(bob).post(f"/api/play/{uid}/concede/", {"version": version},
                                format="json")
    assert done.status_code == 200 and done.json()["result"]["winner"] == 0


def test_a_rematch_swaps_the_seats(client_for, alice, bob):
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    client_for(alice).post(f"/api/play/{uid}/concede/", {"version": version}, format="json")
    offered = client_for(bob).post(f"/api/play/{uid}/rematch/")
    assert offered.status_code == 201 and offered.json()["opponent"] == "alice"
    twice = client_for(bob).post(f"/api/play/{uid}/rematch/")        # a second click
    mirrored = client_for(alice).post(f"/api/play/{uid}/rematch/")   # alice asks for one too
    assert twice.json()["uid"] == mirrored.json()["uid"] == offered.json()["uid"]
    assert Challenge.objects.filter(rematch_of__uid=uid).count() == 1
    again = client_for(alice).post(f"/api/play/challenges/{offered.json()['uid']}/accept/",
                                   {"deck": DAWN}, format="json").json()
    game = PlayGame.objects.get(uid=again["uid"])
    assert (game.owner, game.guest) == (bob, alice) and game.rematch_of.uid == uid


def test_record_against_people_beside_each_ai(client_for, alice, bob, start, client):
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    client_for(bob).post(f"/api/play/{uid}/concede/", {"version": version}, format="json")
    ai = start(alice)
    client_for(alice).post(f"/api/play/{ai['uid']}/concede/", {"version": ai["version"]},
                           format="json")
    from play.friends.records import player_record

    record = player_record(alice)
    assert (record.people.won, record.people.lost) == (1, 0)
    assert (record.agents["greedy"].won, record.agents["greedy"].lost) == (0, 1)
    assert player_record(bob).people.lost == 1
    page = client.get("/players/alice/").content.decode()
    assert 'Won against <a href="/players/bob/" class="names-user">bob</a>' in page
    client.force_login(bob)
    assert "against a person" in client.get("/accounts/profile/").content.decode()


def test_the_replay_is_private_to_the_two_until_shared(client_for, alice, bob, carol, client):
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    client_for(alice).post(f"/api/play/{uid}/concede/", {"version": version}, format="json")
    client.force_login(carol)
    assert client.get(f"/play/{uid}/replay/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/play/{uid}/replay/").status_code == 200
    client_for(bob).post(f"/api/play/{uid}/share/", {"shared": True}, format="json")
    client.force_login(carol)
    assert client.get(f"/play/{uid}/replay/").status_code == 200


def test_challenge_pages_by_form(client, alice, bob, catalogue):
    client.force_login(alice)
    assert client.get("/play/challenge/?to=bob").status_code == 200
    made = client.post("/play/challenge/", {"opponent": "bob", "deck": DAWN,
                                            "format": "standard", "first": "random"})
    assert made.status_code == 302, made.content.decode()[:2000]
    url = made["Location"]
    client.force_login(bob)
    assert "Accept and play" in client.get(url).content.decode()
    accepted = client.post(url + "accept/", {"deck": DUSK})
    assert accepted.status_code == 302 and "/play/" in accepted["Location"]
    page = client.get(accepted["Location"]).content.decode()
    assert "alice vs bob" in page and "Dawn Test" not in page


def test_a_challenge_is_e_mailed_only_to_a_player_who_asked_for_it(
        client_for, alice, bob, client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        challenge(client_for(alice))
    assert mailoutbox == []                       # bob has not asked for e-mails
    client.force_login(bob)
    saved = client.post("/accounts/profile/", {"email": "bob@example.com",
                                               "email_challenges": "on"})
    assert saved.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(client_for(alice))
    [mail] = mailoutbox
    assert mail.to == ["bob@example.com"] and "alice challenges you" in mail.subject
    assert f"http://testserver{made['url']}" in mail.body       # a link a mail reader opens


def test_a_challenges_e_mail_is_in_the_language_its_reader_chose(
        client_for, alice, bob, client, mailoutbox, django_capture_on_commit_callbacks):
    """Bob asked for e-mails while reading the site in Chinese: alice, in English, challenges
    him and the e-mail is written in Chinese."""
    client.force_login(bob)
    saved = client.post("/accounts/profile/", {"email": "bob@example.com",
                                               "email_challenges": "on"},
                        headers={"accept-language": "zh-hans"})
    assert saved.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        challenge(client_for(alice), first="them")
    [mail] = mailoutbox
    assert mail.subject == "alice 在 Cardlab 上向你发起对局挑战"
    assert "向你发起对局挑战" in mail.body and "challenges you" not in mail.body


def test_a_retry_never_shows_the_other_players_hand(client_for, alice, bob, client):
    """The retry controls (for a failed AI move) answer a player between people with their
    own seat's board and state, whatever seat the request names: the other seat's hand never
    leaves the server (R4.1)."""
    state = game_between(client_for, alice, bob)
    record = PlayGame.objects.get(uid=state["uid"])
    alices = client_for(alice).get(f"/api/play/{record.uid}/").json()
    bobs = client_for(bob).get(f"/api/play/{record.uid}/").json()
    assert alices["seat"] == 0 and bobs["seat"] == 1
    stale = client_for(bob).post(f"/api/play/{record.uid}/retry/",
                                 {"version": record.version + 100}, format="json")
    assert stale.status_code == 409, stale.json()
    assert stale.json()["state"]["seat"] == 1
    assert stale.json()["state"]["view"]["me"]["hand"] == bobs["view"]["me"]["hand"]
    client.force_login(bob)
    board = client.post(f"/play/{record.uid}/retry/?seat=0", {"seat": "0"},
                        HTTP_HX_REQUEST="true")
    assert board.status_code == 200
    page = board.content.decode()
    assert 'data-seat="1"' in page and 'data-seat="0"' not in page


def test_the_profile_says_a_called_off_game_was_called_off_not_drawn(client_for, alice, bob,
                                                                    client):
    """A game one player never opened counts for neither (play.friends.records); the profile's
    list of games says so instead of "a draw", and it has no replay to show either deck."""
    state = game_between(client_for, alice, bob)
    PlayGame.objects.filter(uid=state["uid"]).update(
        status="finished", to_move=None,
        result={"winner": None, "reason": "no_show", "turns": 0, "absent": [1]})
    client.force_login(alice)
    games = client.get("/accounts/profile/").content.decode()
    listed = games[games.index('data-testid="profile-games"'):]
    listed = listed[:listed.index("</ul>")]
    assert "called off" in listed and "a draw" not in listed
    assert f"/play/{state['uid']}/replay/" not in listed      # nothing was played: no replay
    for player in (alice, bob):                # neither learns the other's deck from one
        assert client_for(player).get(f"/play/{state['uid']}/replay/").status_code == 404
    board = client.get(f"/play/{state['uid']}/").content.decode()
    assert 'data-testid="called-off"' in board and "replay-link" not in board


def test_a_challengers_deck_gone_bad_is_refused_without_naming_its_cards(client_for, alice,
                                                                         bob):
    """The challenger's deck stays hidden until played: when one of its cards has gone since
    the challenge, accepting is a 400 that names none of them; a fault of the accepting
    player's own deck is still said in full."""
    made = challenge(client_for(alice))
    found = Challenge.objects.get(uid=made["uid"])
    found.deck = {**found.deck, "cards": {**found.deck["cards"], "T-GONE": 1}}
    found.save(update_fields=["deck"])
    answer = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                  {"deck": DUSK}, format="json")
    assert answer.status_code == 400
    text = str(answer.json())
    assert "ask them for a new challenge" in text
    assert "T-GONE" not in text and "Dawn" not in text
    assert not PlayGame.objects.filter(guest=bob).exists()


def test_the_play_page_asks_for_its_challenges_and_swaps_them_only_when_they_change(
        client_for, alice, bob, client):
    """An open Play page polls its lists of challenges: nothing to swap (204) while they are
    the ones it shows, the new lists once a challenge comes."""
    client.force_login(bob)
    page = client.get("/play/").content.decode()
    seen = re.search(r'/play/challenges/\?seen=(\w+)', page).group(1)
    assert client.get("/play/challenges/", {"seen": seen}).status_code == 204
    challenge(client_for(alice))
    fresh = client.get("/play/challenges/", {"seen": seen})
    assert fresh.status_code == 200 and "alice challenges you" in fresh.content.decode()
    assert seen not in fresh.content.decode()
    client.logout()                 # a session that ended: the log-in page is not swapped in
    assert client.get("/play/challenges/", {"seen": seen}).status_code == 204


def test_a_game_between_people_resumes_after_the_server_restarts(client_for, alice, bob):
    """Nothing of a game lives in a server process but caches: with them emptied, as a new
    process starts, each player reads their seat where it stood (the same step, version, clock
    and legal actions) and the player to move plays on."""
    from play.engine.adapter import history_forget

    uid = game_between(client_for, alice, bob)["uid"]
    client_for(bob).get(f"/api/play/{uid}/")            # both here: the clock starts
    here = client_for(alice).get(f"/api/play/{uid}/").json()
    played = client_for(alice).post(f"/api/play/{uid}/actions/",
                                    {"version": here["version"],
                                     "action": here["actions"][0]["action"]}, format="json")
    assert played.status_code == 200
    before = {who.username: client_for(who).get(f"/api/play/{uid}/").json()
              for who in (alice, bob)}
    history_forget()                                    # a restarted process has no caches
    for who in (alice, bob):
        after = client_for(who).get(f"/api/play/{uid}/").json()
        was = before[who.username]
        assert (after["steps"], after["version"], after["seat"]) == \
            (was["steps"], was["version"], was["seat"])
        assert after["view"] == was["view"] and after["actions"] == was["actions"]
        assert after["clock"]["to_move"] == was["clock"]["to_move"]
    mover = alice if before["alice"]["actions"] else bob
    state = before[mover.username]
    moved = client_for(mover).post(f"/api/play/{uid}/actions/",
                                   {"version": state["version"],
                                    "action": state["actions"][0]["action"]}, format="json")
    assert moved.status_code == 200 and moved.json()["steps"] > state["steps"]


def _hands(response) -> list[list[str]]:
    """The replay board's hands, P1's first."""
    return [seat["hand"] for seat in sorted(response.context["seats"], key=lambda s: s["seat"])]


def test_a_replay_between_people_shows_each_only_what_they_could_see(
        client_for, alice, bob, carol, client):
    """The challenge keeps a deck hidden until played, and the replay keeps it so (R4.1): each
    player sees their own hand and the other's as unknown cards, a shared replay shows neither;
    the sides are named by their players and the seed (with the decks, the order of every
    draw) is not shown."""
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    client_for(alice).post(f"/api/play/{uid}/concede/", {"version": version}, format="json")
    unknown = "an unknown card"
    client.force_login(alice)
    page = client.get(f"/play/{uid}/replay/?step=0")
    text = page.content.decode()
    mine, theirs = _hands(page)
    assert mine and unknown not in mine and theirs and set(theirs) == {unknown}
    assert "alice vs bob" in text and "Dawn Test" not in text and "Dusk Test" not in text
    assert "Seed" not in text and "played by the AI" not in text
    assert "only the two players" in text and "bob won: the other seat conceded" in text
    client.force_login(bob)
    bobs = _hands(client.get(f"/play/{uid}/replay/?step=0"))
    assert set(bobs[0]) == {unknown} and unknown not in bobs[1]
    client_for(bob).post(f"/api/play/{uid}/share/", {"shared": True}, format="json")
    client.force_login(carol)
    shared = client.get(f"/play/{uid}/replay/?step=0")
    assert all(set(hand) == {unknown} for hand in _hands(shared))
    assert "Neither hand is shown" in shared.content.decode()


def test_each_player_is_a_link_to_their_page_from_the_game_and_the_challenge(
        client_for, alice, bob, client):
    """A player's public page (their record, a challenge button) is one click from every page
    that names them: the challenge, the board, the replay."""
    made = challenge(client_for(alice))
    client.force_login(bob)
    assert 'href="/players/alice/"' in client.get(made["url"]).content.decode()
    uid = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/", {"deck": DUSK},
                               format="json").json()["uid"]
    board = client.get(f"/play/{uid}/").content.decode()
    assert 'href="/players/alice/"' in board and 'href="/players/bob/"' in board
    version = PlayGame.objects.get(uid=uid).version
    client_for(bob).post(f"/api/play/{uid}/concede/", {"version": version}, format="json")
    replay = client.get(f"/play/{uid}/replay/").content.decode()
    assert 'href="/players/alice/"' in replay and 'href="/players/bob/"' in replay


def test_the_challenge_form_says_how_long_a_challenge_waits_in_whole_hours(
        client, alice, settings):
    client.force_login(alice)
    assert "waits 24 hours" in client.get("/play/challenge/").content.decode()
    settings.PLAY_CHALLENGE_HOURS = 1.5
    assert "waits 1.5 hours" in client.get("/play/challenge/").content.decode()
