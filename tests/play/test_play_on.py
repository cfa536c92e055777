"""Play on from a replay's step: a new game against an AI player from that position, the
person's seat as it was, the other seat's hidden cards dealt anew (``play.replays.play_on``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.utils.html import escape

from play.engine.adapter import game_at, game_history, history_forget, record_start
from play.models import HUMAN, PlayGame, PlayStatus
from play.replays.play_on import NO_STEP, REFUSALS, SEAT_FIXED, SEAT_NEEDED
from rules.ai.agents import make_agent
from rules.engine.play_on import NOT_MAIN, shown_cards
from tests.play.test_friends import game_between

pytestmark = pytest.mark.django_db


def _finish(record: PlayGame) -> PlayGame:
    """``record`` played to its end by greedy in both seats, as a finished game."""
    game = record_start(record)
    agent, rng, actions = make_agent("greedy"), random.Random(1), []
    while not game.over:
        chosen = agent.choose(game.view(game.to_move), game.legal_actions(), rng)
        game.apply(chosen)
        actions.append(chosen.to_dict())
    PlayGame.objects.filter(pk=record.pk).update(actions=actions, status=PlayStatus.FINISHED,
                                                 result=game.result, version=99)
    history_forget()
    return PlayGame.objects.get(pk=record.pk)


@pytest.fixture
def finished(start, alice):
    return _finish(PlayGame.objects.get(uid=start(alice)["uid"]))


def _main_steps(record: PlayGame, seat: int | None = None) -> list[int]:
    """The steps at a main-phase decision (of ``seat`` when given), in the game's middle."""
    history = game_history(record)
    return [k for k, snap in enumerate(history.snapshots)
            if (snap.get("decision") or {}).get("kind") == "main" and snap["result"] is None
            and snap["turn"] >= 3 and (seat is None or snap["active"] == seat)]


def _post(client, record, **body):
    return client.post(f"/api/play/{record.uid}/play-on/", body, format="json")


def test_playing_on_keeps_the_position_as_the_seat_saw_it(alice, client_for, finished):
    step = _main_steps(finished, seat=0)[2]
    answer = _post(client_for(alice), finished, step=step, agent="planner")
    assert answer.status_code == 201, answer.json()
    new = PlayGame.objects.get(uid=answer.json()["uid"])
    assert new.played_on_from == finished and new.played_on_step == step
    assert new.seats == [HUMAN, "planner"] and new.actions == [] and new.seed != finished.seed
    old_view = game_at(finished, step).view(0).to_dict()
    assert answer.json()["view"] == game_at(new).view(0).to_dict() == old_view
    assert answer.json()["actions"]                  # the person may move at once


def test_the_ai_seat_gets_cards_dealt_from_its_list_not_its_real_ones(alice, client_for,
                                                                       finished):
    client, real = client_for(alice), game_history(finished)
    differs = 0
    for step in _main_steps(finished)[:12]:
        new = PlayGame.objects.get(uid=_post(client, finished, step=step,
                                             agent="greedy").json()["uid"])
        them, was = new.start["players"][1], real.snapshots[step]["players"][1]
        hidden = them["hand"] + them["deck"] + [m["card"] for m in them["minions"]
                                                if m and not m["public"]]
        left = Counter(finished.decks[1]["cards"]) - Counter(shown_cards(was))
        assert not Counter(hidden) - left
        differs += (them["hand"], them["deck"]) != (was["hand"], was["deck"])
    assert differs >= 11


def test_the_new_game_replays_and_can_be_restarted(alice, client_for, finished):
    step = _main_steps(finished, seat=0)[0]
    uid = _post(client_for(alice), finished, step=step, agent="greedy").json()["uid"]
    state = client_for(alice).get(f"/api/play/{uid}/").json()
    end = next(a["action"] for a in state["actions"] if a["action"]["kind"] == "end")
    moved = client_for(alice).post(f"/api/play/{uid}/actions/",
                                   {"version": state["version"], "action": end}, format="json")
    assert moved.status_code == 200, moved.json()
    history_forget()
    again = client_for(alice).get(f"/api/play/{uid}/").json()
    assert again["steps"] >= 1 and again["view"]["turn"] > state["view"]["turn"]


def test_a_step_inside_the_setup_or_past_the_end_is_a_400(alice, client_for, finished):
    client, steps = client_for(alice), len(finished.actions)
    setup = _post(client, finished, step=0, agent="greedy")
    assert setup.status_code == 400 and setup.json() == {"step": [str(REFUSALS[NOT_MAIN])]}
    past = _post(client, finished, step=steps + 5, agent="greedy")
    assert past.json() == {"step": [str(NO_STEP).format(step=steps + 5, steps=steps)]}
    unknown = _post(client, finished, step=_main_steps(finished)[0], agent="grandmaster")
    assert unknown.status_code == 400 and "grandmaster" in unknown.json()["agent"][0]
    extra = _post(client, finished, step=1, agent="greedy", oponent="x")
    assert extra.status_code == 400 and "oponent" in extra.json()
    assert PlayGame.objects.count() == 1


def test_a_replay_the_person_may_not_see_is_a_404(bob, client_for, finished):
    step = _main_steps(finished)[0]
    assert _post(client_for(bob), finished, step=step, agent="greedy").status_code == 404
    PlayGame.objects.filter(pk=finished.pk).update(is_shared=True)
    shared = _post(client_for(bob), finished, step=step, agent="greedy")
    assert shared.status_code == 400 and shared.json() == {"seat": [str(SEAT_NEEDED)]}
    chosen = _post(client_for(bob), finished, step=step, agent="greedy", seat=1)
    assert chosen.status_code == 201
    new = PlayGame.objects.get(uid=chosen.json()["uid"])
    assert new.owner == bob and new.seats == ["greedy", HUMAN]


def test_your_own_seat_is_fixed(alice, client_for, finished):
    answer = _post(client_for(alice), finished, step=_main_steps(finished)[0], agent="greedy",
                   seat=1)
    assert answer.json() == {"seat": [str(SEAT_FIXED).format(own=1)]}


def test_between_people_the_other_list_stays_hidden(alice, bob, client_for):
    record = _finish(PlayGame.objects.get(uid=game_between(client_for, alice, bob)["uid"]))
    step = _main_steps(record, seat=1)[3]
    answer = _post(client_for(bob), record, step=step, agent="greedy")
    assert answer.status_code == 201, answer.json()
    new = PlayGame.objects.get(uid=answer.json()["uid"])
    assert new.seats == ["greedy", HUMAN] and new.decks[0]["cards"] == {}
    assert new.decks[1] == record.decks[1]
    shown = set()
    for snapshot in game_history(record).snapshots[:step + 1]:
        shown |= set(shown_cards(snapshot["players"][0]))
    them = new.start["players"][0]
    assert set(them["hand"] + them["deck"]) <= shown
    assert set(new.cards) <= shown | set(record.decks[1]["cards"]) | {
        record.decks[0]["hero"], record.decks[1]["hero"]}
    assert answer.json()["view"] == game_at(record, step).view(1).to_dict()


def test_the_page_plays_on_and_names_where_it_came_from(alice, client, finished):
    client.force_login(alice)
    step = _main_steps(finished, seat=0)[1]
    page = client.get(f"/play/{finished.uid}/replay/?step={step}").content.decode()
    assert 'data-testid="play-on-start"' in page and 'name="seat"' not in page
    setup = client.get(f"/play/{finished.uid}/replay/?step=0").content.decode()
    assert 'data-testid="play-on-disabled"' in setup
    answer = client.post(f"/play/{finished.uid}/play-on/", {"step": step, "agent": "greedy"})
    new = PlayGame.objects.get(played_on_from=finished)
    assert answer.status_code == 302 and answer["Location"] == new.get_absolute_url()
    shown = client.get(answer["Location"]).content.decode()
    assert f"/play/{finished.uid}/replay/?step={step}" in shown
    assert f"at step {step}." in shown
    refused = client.post(f"/play/{finished.uid}/play-on/", {"step": 0, "agent": "greedy"})
    assert refused.status_code == 400
    assert escape(str(REFUSALS[NOT_MAIN])) in refused.content.decode()


def test_a_hot_seat_game_asks_for_the_seat_and_its_replay_names_the_ai(alice, client, start):
    record = _finish(PlayGame.objects.get(uid=start(alice, opponent=HUMAN)["uid"]))
    client.force_login(alice)
    step = _main_steps(record, seat=1)[0]
    page = client.get(f"/play/{record.uid}/replay/?step={step}").content.decode()
    assert 'name="seat"' in page
    missing = client.post(f"/play/{record.uid}/play-on/", {"step": step, "agent": "greedy"})
    assert missing.status_code == 400
    answer = client.post(f"/play/{record.uid}/play-on/",
                         {"step": step, "agent": "random", "seat": 1})
    new = PlayGame.objects.get(played_on_from=record)
    assert answer.status_code == 302 and new.seats == ["random", HUMAN]
    assert game_at(new).view(1).to_dict() == game_at(record, step).view(1).to_dict()
    game_page = client.get(new.get_absolute_url()).content.decode()
    assert "You play P2 against the AI" in game_page
    # Played to its end, the new game has its own replay, which says where it came from.
    _finish(new)
    replay = client.get(f"/play/{new.uid}/replay/?step=0").content.decode()
    assert "P1 was played by the AI" in replay and f"at step {step}." in replay
