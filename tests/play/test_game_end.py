"""The end of a game between people, as each player sees it: "You won" or "You lost" (or a
draw), and what next — a rematch, the replay, back to Play. A rematch one player offers shows,
marked as a rematch, on the finished game the other is looking at and on their Play page. A
challenge says who moves first in words; a hint never shows a win rate over 0 games."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from play.models import Challenge, PlayGame
from tests.play.test_friends import carol, challenge, game_between  # noqa: F401

pytestmark = pytest.mark.django_db


def _finished(client_for, alice, bob) -> PlayGame:
    uid = game_between(client_for, alice, bob)["uid"]
    version = PlayGame.objects.get(uid=uid).version
    conceded = client_for(alice).post(f"/api/play/{uid}/concede/", {"version": version},
                                      format="json")
    assert conceded.status_code == 200, conceded.json()
    return PlayGame.objects.get(uid=uid)


def _page(client, user, url: str) -> str:
    client.force_login(user)
    return client.get(url).content.decode()


def _text(client, user, url: str) -> str:
    """The page's words, links' tags taken out."""
    return re.sub(r"</?a[^>]*>", "", _page(client, user, url))


def test_each_player_reads_their_own_outcome_and_what_next(client_for, alice, bob, client):
    game = _finished(client_for, alice, bob)
    won = _page(client, bob, game.get_absolute_url())
    lost = _page(client, alice, game.get_absolute_url())
    assert 'data-outcome="won"' in won and "You won" in won and "You lost" not in won
    assert 'data-outcome="lost"' in lost and "You lost" in lost
    for page in (won, lost):
        assert 'data-testid="rematch"' in page and 'data-testid="back-to-lobby"' in page
        assert f"/play/{game.uid}/replay/" in page


def test_a_draw_is_a_draw_for_both(client_for, alice, bob, client):
    game = _finished(client_for, alice, bob)
    PlayGame.objects.filter(pk=game.pk).update(result={"winner": None, "reason": "turns"})
    for user in (alice, bob):
        assert 'data-outcome="drawn"' in _page(client, user, f"/play/{game.uid}/end/")


def test_a_rematch_offer_shows_on_the_finished_game_the_other_player_sees(
        client_for, alice, bob, client):
    game = _finished(client_for, alice, bob)
    client.force_login(alice)
    offered = client.post(f"/play/{game.uid}/rematch/")
    assert offered.status_code == 302
    offer = Challenge.objects.get(rematch_of=game)
    theirs = _page(client, bob, f"/play/{game.uid}/end/")
    assert "alice offers a rematch (seats swapped)." in theirs
    assert offer.get_absolute_url() in theirs and 'data-testid="rematch"' not in theirs
    assert "alice offers a rematch (seats swapped)." in _page(client, bob, game.get_absolute_url())
    assert "alice offers a rematch" in _page(client, bob, "/play/")
    mine = _page(client, alice, f"/play/{game.uid}/end/")
    assert "Your rematch offer waits for bob" in mine
    shown = _page(client, bob, offer.get_absolute_url())
    assert 'data-testid="challenge-rematch"' in shown


def test_the_end_of_a_game_is_for_its_players_once_it_is_over(client_for, alice, bob, carol,  # noqa: F811
                                                             client):
    uid = game_between(client_for, alice, bob)["uid"]
    client.force_login(alice)
    assert client.get(f"/play/{uid}/end/").status_code == 404      # still being played
    game = _finished(client_for, alice, bob)
    client.force_login(carol)
    assert client.get(f"/play/{game.uid}/end/").status_code == 404


@pytest.mark.parametrize(("first", "words"), [
    ("me", "alice (P1) moves first, bob (P2) second."),
    ("them", "bob (P2) moves first, alice (P1) second."),
    ("random", "Drawn at random when the game starts: alice plays P1, bob P2, and either may "
               "move first."),
])
def test_a_challenge_says_who_moves_first_in_words(client_for, alice, bob, client, first, words):
    made = challenge(client_for(alice), first=first)
    assert words in _text(client, bob, made["url"])


def test_an_open_link_names_the_one_who_accepts(client_for, alice, bob, client):
    made = challenge(client_for(alice), opponent="", first="random")
    assert "alice plays P1, the one who accepts P2" in _text(client, bob, made["url"])


def test_a_hint_rates_no_move_over_0_games():
    html = render_to_string("play/_hint.html", {"rows": [
        {"label": "Keep the hand", "rating": 0.0, "games": 0, "pick": True},
        {"label": "Put back card 1", "rating": 0.5, "games": 4, "pick": False}]})
    assert "of 0 games" not in html and "not rated" in html
    assert "wins 50" in html and "of 4 games" in html

