"""The simulation API as a client uses it: submit, follow the status, read the results, cancel,
what-if, kept games — and the refusals (400 with the field, 404 for another user's private run,
403 for someone else's public run, 429 past the submission rate)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from simulations.models import SimulationRun
from simulations.sources import UNKNOWN_DECK
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db

BODY = {"decks": [DAWN, DUSK], "games": 12, "agent_a": "greedy", "agent_b": "random",
        "seed": 3, "chunk_size": 4}


@pytest.fixture
def api(alice, catalogue):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def other(bob):
    client = APIClient()
    client.force_authenticate(bob)
    return client


def submit(api, **changes):
    return api.post("/api/simulations/", {**BODY, **changes}, format="json")


def test_submit_then_follow_the_status(api, alice):
    response = submit(api)
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["status"] == "queued" and data["owner"] == "alice" and not data["public"]
    assert [d["name"] for d in data["decks"]] == ["Dawn Test", "Dusk Test"]
    assert data["progress"]["games_done"] == 0 and data["progress"]["games_total"] == 12
    assert data["progress"]["chunks_total"] == 3
    assert data["url"] == f"/simulations/{data['uid']}/"
    run = SimulationRun.objects.get(uid=data["uid"])
    play_all(run)
    data = api.get(f"/api/simulations/{run.uid}/").json()
    assert data["status"] == "done" and data["progress"]["fraction"] == 1.0
    assert data["finished_at"]


def test_results_of_a_finished_run(api):
    run = SimulationRun.objects.get(uid=submit(api).json()["uid"])
    play_all(run)
    data = api.get(f"/api/simulations/{run.uid}/results/").json()
    assert data["final"] is True and data["what_if"] is None
    (matchup,) = data["matchups"]
    assert matchup["games"] == 12 and len(matchup["outcomes"]) == 12
    assert {"rate", "low", "high", "games"} <= set(matchup["win_rate"])
    assert matchup["cards_a"][0]["name"] and "matrix" not in data


def test_results_while_running_cover_the_chunks_finished_so_far(api):
    run = SimulationRun.objects.get(uid=submit(api).json()["uid"])
    from simulations.execution import chunk_execute

    chunk_execute(chunk_id=run.chunks.get(index=0).pk, claim="x", worker="w")
    data = api.get(f"/api/simulations/{run.uid}/results/").json()
    assert data["final"] is False and data["matchups"][0]["games"] == 4


@pytest.mark.parametrize("changes, field, message", [
    ({"decks": ["nope123", DUSK]}, "decks", UNKNOWN_DECK.format(spec="nope123")),
    ({"decks": [DAWN]}, "decks", "Ensure this field has at least 2 elements."),
    ({"games": 1}, "games", "Ensure this value is greater than or equal to 2."),
    ({"agent_a": "genius"}, "agent_a", '"genius" is not a valid choice.'),
    ({"ruleset": {"turn_limit": 0}}, "ruleset", "ruleset option 'turn_limit' must be at least 1"),
    ({"kind": "round_robin"}, "decks", "A round-robin needs at least three decks."),
    ({"games": 10**6}, "games", "is more than the limit"),
])
def test_bad_input_is_a_400_naming_the_field(api, changes, field, message):
    response = submit(api, **changes)
    assert response.status_code == 400
    errors = response.json()[field]
    assert any(message in error for error in errors), errors


def test_anonymous_clients_cannot_submit(catalogue):
    assert APIClient().post("/api/simulations/", BODY, format="json").status_code in (401, 403)


def test_another_users_private_run_is_a_404(api, other):
    uid = submit(api).json()["uid"]
    for path in ("", "results/", "replays/", "replays/1/"):
        assert other.get(f"/api/simulations/{uid}/{path}").status_code == 404, path
    assert other.post(f"/api/simulations/{uid}/cancel/").status_code == 404
    assert other.post(f"/api/simulations/{uid}/what-if/", {}, format="json").status_code == 404
    assert APIClient().get(f"/api/simulations/{uid}/").status_code == 404


def test_a_public_run_is_readable_by_all_but_cancelled_only_by_its_owner(api, other):
    uid = submit(api, public=True).json()["uid"]
    assert other.get(f"/api/simulations/{uid}/").status_code == 200
    assert APIClient().get(f"/api/simulations/{uid}/results/").status_code == 200
    response = other.post(f"/api/simulations/{uid}/cancel/")
    assert response.status_code == 403 and "owner" in response.json()["detail"]


def test_cancel(api):
    uid = submit(api).json()["uid"]
    response = api.post(f"/api/simulations/{uid}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    again = api.post(f"/api/simulations/{uid}/cancel/")
    assert again.status_code == 400 and "already finished" in again.json()["non_field_errors"][0]


def test_what_if(api):
    base = SimulationRun.objects.get(uid=submit(api).json()["uid"])
    play_all(base)
    response = api.post(f"/api/simulations/{base.uid}/what-if/",
                        {"deck": 0, "card_out": "T-M02", "card_in": "T-M05"}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["base_run"] == base.uid and data["seed"] == base.seed
    assert data["swap"] == {"deck": 0, "out": "T-M02", "in": "T-M05"}
    play_all(SimulationRun.objects.get(uid=data["uid"]))
    what_if = api.get(f"/api/simulations/{data['uid']}/results/").json()["what_if"]
    assert what_if["card_out"] == "T-M02" and len(what_if["pairings"]) == 1
    bad = api.post(f"/api/simulations/{base.uid}/what-if/",
                   {"card_out": "T-M09", "card_in": "T-M05"}, format="json")
    assert bad.status_code == 400 and "has no Tide Caller to swap out" in bad.json()["card_out"][0]


def test_kept_games_can_be_fetched_with_their_log(api):
    run = SimulationRun.objects.get(uid=submit(api).json()["uid"])
    play_all(run)
    games = api.get(f"/api/simulations/{run.uid}/replays/").json()
    assert [g["number"] for g in games] == [1, 2] and games[0]["a_first"] is True
    game = api.get(f"/api/simulations/{run.uid}/replays/2/").json()
    assert game["game_index"] == 1 and game["log"]["actions"]
    assert api.get(f"/api/simulations/{run.uid}/replays/3/").status_code == 404


def test_a_round_robin_reports_a_matrix_and_a_ranking(api, make_deck, alice):
    deck = make_deck(alice)
    data = submit(api, kind="round_robin", decks=[deck.uid, DAWN, DUSK], games=4).json()
    play_all(SimulationRun.objects.get(uid=data["uid"]))
    results = api.get(f"/api/simulations/{data['uid']}/results/").json()
    assert len(results["matchups"]) == 3 and len(results["matrix"]) == 3
    assert results["matrix"][1][1] is None and results["matrix"][0][1]["games"] >= 0
    assert [r["place"] for r in results["ranking"]] == [1, 2, 3]


def test_list_shows_mine_and_public_and_filters_by_deck(api, other, make_deck, alice):
    deck = make_deck(alice)
    mine = submit(api, decks=[deck.uid, DUSK]).json()["uid"]
    theirs_private = submit(other).json()["uid"]
    theirs_public = submit(other, public=True).json()["uid"]
    uids = [r["uid"] for r in api.get("/api/simulations/").json()["results"]]
    assert mine in uids and theirs_public in uids and theirs_private not in uids
    by_deck = api.get("/api/simulations/", {"deck": deck.uid}).json()["results"]
    assert [r["uid"] for r in by_deck] == [mine]
    only_mine = api.get("/api/simulations/", {"mine": "1"}).json()["results"]
    assert [r["uid"] for r in only_mine] == [mine]


def test_submissions_are_throttled(api, settings):
    settings.SIMULATIONS_SUBMIT_RATE = "2/hour"
    settings.SIMULATIONS_MAX_ACTIVE_PER_USER = 10
    assert submit(api).status_code == 201
    assert submit(api).status_code == 201
    response = submit(api)
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many simulation submissions from you")
    assert int(response["Retry-After"]) > 0


def test_options_and_reads_never_use_up_the_submission_budget(api, settings, client, alice):
    settings.SIMULATIONS_SUBMIT_RATE = "2/hour"
    settings.SIMULATIONS_MAX_ACTIVE_PER_USER = 10
    base = submit(api).json()["uid"]
    for _ in range(5):
        assert api.options(f"/api/simulations/{base}/what-if/").status_code == 200
        assert api.options("/api/simulations/").status_code == 200
        assert api.get("/api/simulations/").status_code == 200
    assert submit(api).status_code == 201                     # the second of two
    client.force_login(alice)                                  # the page shares the budget
    page = client.post("/simulations/new/", {
        "kind": "match", "deck": DAWN, "opponents": [DUSK], "games": "10",
        "agent_a": "greedy", "agent_b": "random"})
    assert page.status_code == 400 and SimulationRun.objects.count() == 2


def test_the_cap_on_runs_in_flight_is_a_400(api, settings):
    settings.SIMULATIONS_MAX_ACTIVE_PER_USER = 1
    assert submit(api).status_code == 201
    response = submit(api)
    assert response.status_code == 400
    assert "limit is 1" in response.json()["non_field_errors"][0]


def test_the_schema_describes_every_operation(client):
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    for path in ("/api/simulations/", "/api/simulations/{uid}/",
                 "/api/simulations/{uid}/results/", "/api/simulations/{uid}/cancel/",
                 "/api/simulations/{uid}/what-if/", "/api/simulations/{uid}/replays/",
                 "/api/simulations/{uid}/replays/{number}/"):
        assert path in paths
    assert "post" in paths["/api/simulations/"] and "get" in paths["/api/simulations/"]
