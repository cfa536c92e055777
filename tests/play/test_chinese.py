"""The play pages, rendered for a Chinese browser, are Chinese (the site-wide check of
tests/test_chinese_pages.py: no English word left in the text people read)."""

from __future__ import annotations

import pytest

from play.models import PlayGame
from play.services import play_act
from tests.test_chinese_pages import ZH, english_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def web(client, catalogue):
    from tests.fixtures import UserFactory

    client.force_login(UserFactory(username="xiaoming"))     # a name the check allows
    return client


def _start(web, **fields):
    body = {"deck": "starter:Dawn Test", "opponent_deck": "starter:Dusk Test",
            "opponent": "greedy", "first": "me", "seed": "5", "rule_turn_limit": "30",
            **fields}
    response = web.post("/play/", body, **ZH)
    assert response.status_code == 302, response.content.decode()[:500]
    return PlayGame.objects.get(uid=response["Location"].strip("/").split("/")[-1])


def _advance(record, moves):
    from play.engine.adapter import agent_rng, game_at
    from rules.ai.agents import make_agent

    greedy = make_agent("greedy")
    for _ in range(moves):
        game = game_at(record)
        if game.over or record.seats[game.to_move] != "human":
            break
        action = greedy.choose(game.view(game.to_move), game.legal_actions(),
                               agent_rng(record.seed, len(record.actions)))
        record = play_act(record=record, action=action, version=record.version)
    return record


def _english(web, urls):
    problems = {}
    for url in urls:
        response = web.get(url, **ZH)
        assert response.status_code == 200, url
        found = english_words(response.content.decode())
        if found:
            problems[url] = found
    return problems


def test_the_play_pages_have_no_english_words_in_chinese(web):
    game = _advance(_start(web), 12)
    hot = _advance(_start(web, opponent="human"), 3)
    problems = _english(web, [
        "/play/", game.get_absolute_url(), f"/play/{game.uid}/hint/",
        f"/play/{hot.uid}/board/?seat=0", f"/play/{hot.uid}/board/?seat=1",
        "/accounts/profile/"])
    web.post(f"/play/{game.uid}/concede/", {"version": PlayGame.objects.get(pk=game.pk)
                                            .version, "seat": "0"})
    problems.update(_english(web, [f"/play/{game.uid}/replay/?step=8",
                                   game.get_absolute_url()]))
    assert not problems, "\n".join(f"{url}:\n  " + "\n  ".join(words)
                                   for url, words in problems.items())
