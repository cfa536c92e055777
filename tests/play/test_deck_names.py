"""A game's title tells a player's deck from a starter deck of the same name, in the reader's
language; the same deck in both seats keeps its name."""

from __future__ import annotations

from django.utils import translation

from play.models import PlayGame

STARTER = {"name": "Ember Rush", "name_zh": "余烬突袭", "hero": "C001", "cards": {},
           "uid": None, "version": None, "source": "starter:CORE"}
ALICES = {"name": "Ember Rush", "hero": "C001", "cards": {}, "uid": "Xk3abc", "version": 2,
          "source": "deck", "owner": "alice"}


def test_a_players_deck_named_like_a_starter_is_told_apart_in_the_title():
    game = PlayGame(decks=[ALICES, STARTER])
    assert str(game) == "Ember Rush (alice) vs Ember Rush (starter)"
    assert game.deck_names == ["Ember Rush (alice)", "Ember Rush (starter)"]
    with translation.override("zh-hans"):         # the starter reads 余烬突袭 there: no clash
        assert game.deck_names == ["Ember Rush", "余烬突袭"]
    assert str(PlayGame(decks=[STARTER, STARTER])) == "Ember Rush vs Ember Rush"
