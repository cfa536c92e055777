"""The game's one writer (``play.store``): every change, a person's or an agent's or the
clock's, raises the version and the date of the last change, and a write on a version someone
else moved past is refused the same way for every writer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from play import services
from play.clock.enforce import clock_enforce
from play.errors import PlayConflict
from play.models import PlayGame
from tests.play.test_friends import game_between

pytestmark = pytest.mark.django_db

LONG_AGO = timezone.now() - timedelta(days=3)


def _aged(uid: str) -> PlayGame:
    """The game as if its last change were days ago."""
    PlayGame.objects.filter(uid=uid).update(updated_at=LONG_AGO)
    return PlayGame.objects.get(uid=uid)


def test_a_move_an_undo_and_a_concession_each_date_the_game(alice, start):
    """The game's list shows the latest first by its last change (``updated_at``), not by its
    creation: a move, an undo and a concession each move the date on."""
    record = _aged(start(alice)["uid"])
    action = {"kind": "keep"}
    record = services.play_act(record=record, action=action, version=record.version, by=alice)
    assert record.updated_at > LONG_AGO
    record = _aged(record.uid)
    record = services.play_undo(record=record, seat=0, version=record.version)
    assert record.updated_at > LONG_AGO
    record = _aged(record.uid)
    record = services.play_concede(record=record, seat=0, version=record.version, by=alice)
    assert record.updated_at > LONG_AGO


def test_the_latest_changed_game_is_listed_first(alice, start, client_for):
    first, second = start(alice)["uid"], start(alice)["uid"]
    record = _aged(first)
    PlayGame.objects.filter(uid=second).update(updated_at=LONG_AGO + timedelta(hours=1))
    services.play_act(record=record, action={"kind": "keep"}, version=record.version, by=alice)
    listed = client_for(alice).get("/api/play/").json()["results"]
    assert [g["uid"] for g in listed[:2]] == [first, second]


def test_the_ais_moves_date_the_game(alice, start):
    """The agent's moves are written by the same writer (the AI moved first here)."""
    uid = start(alice, first="opponent")["uid"]
    record = PlayGame.objects.get(uid=uid)
    assert record.actions and record.updated_at > record.created_at


def test_a_move_on_a_version_someone_moved_past_is_refused(alice, start):
    record = PlayGame.objects.get(uid=start(alice)["uid"])
    stale = record.version
    services.play_act(record=record, action={"kind": "keep"}, version=stale, by=alice)
    old = PlayGame.objects.get(uid=record.uid)
    with pytest.raises(PlayConflict):
        services.play_restart(record=old, version=stale)
    assert PlayGame.objects.get(uid=record.uid).actions == old.actions


def test_the_clock_that_loses_a_race_reads_the_winners_game(client_for, alice, bob, settings):
    """Two enforce one clock at once: the one whose write comes second is refused by the
    writer (``PlayConflict``) and returns the game as the first left it, instead of writing
    over it or failing the request."""
    settings.PLAY_CLOCK = {"turn": 30, "reserve": 60, "away": 45}
    uid = game_between(client_for, alice, bob)["uid"]
    client_for(alice).get(f"/api/play/{uid}/")
    client_for(bob).get(f"/api/play/{uid}/")                 # the clock starts
    PlayGame.objects.filter(uid=uid).update(deadline=timezone.now() - timedelta(seconds=1))
    late = PlayGame.objects.get(uid=uid)                     # read by the slower of the two
    first = clock_enforce(PlayGame.objects.get(uid=uid))     # the faster ends the period
    assert first.version == late.version + 1 and first.to_move == 1
    after = clock_enforce(late)                              # its write is refused: no error
    assert after.version == first.version and after.actions == first.actions
    assert after.updated_at == first.updated_at
