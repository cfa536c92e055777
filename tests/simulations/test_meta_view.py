"""The meta of a round-robin as a designer meets it: on the run's page (table, sentences in the
reader's language, charts, ε chosen in the address, "Balance this field") and in the API's
results: the default ε's stored on the run by the worker that finished it, any other ε's computed
once per (run, ε) and then read from the cache."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils.html import escape

from rules.lab import meta
from rules.lab.match import play_games
from simulations.meta import field as field_meta
from simulations.meta.field import BAD_EPSILON, epsilon_share
from simulations.services import simulation_request
from simulations.sources import engine_objects
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


@pytest.fixture
def round_robin(alice, make_deck):
    """Alice's saved deck and the test set's two starter decks, every pair, greedy on both
    sides, played by the service a worker calls."""
    deck = make_deck(alice, name="Ember Test")
    run = simulation_request(user=alice, kind="round_robin", deck_specs=[deck.uid, DAWN, DUSK],
                             games=20, agent_a="greedy", agent_b="greedy", seed=5,
                             chunk_size=10)
    play_all(run)
    return run


@pytest.fixture
def logged_in(client, alice):
    client.force_login(alice)
    return client


def engine_meta(run, epsilon=meta.DEFAULT_EPSILON) -> dict:
    """The meta computed apart from the site: every pairing played again by the engine's own
    runner on the run's seeds, its games fed to rules.lab.meta."""
    cards, decks = engine_objects(run.cards, run.decks)
    matchups = {}
    for a, b in ((0, 1), (0, 2), (1, 2)):
        games = meta.MatchupGames()
        for index, game in play_games(cards, decks[a], decks[b], seed=run.seed, start=0,
                                      stop=run.games, agent_a=run.agent_a, agent_b=run.agent_b):
            if game.error is None:
                games.add(index // 2, won=int(game.winner == "a"),
                          drawn=int(game.winner is None), counted=1)
        matchups[a, b] = games
    names = [d["name"] for d in run.decks]
    field = meta.Field(names, matchups, shared_seeds=True)
    return meta.meta_report(field, epsilon=epsilon).to_dict()


def meta_section(page: str) -> str:
    found = re.search(r'<section[^>]*data-testid="meta">.*?</section>', page, re.S)
    assert found, "no meta section on the page"
    return found.group(0)


def test_the_api_gives_the_meta_of_the_games_the_engine_plays(logged_in, round_robin):
    body = logged_in.get(f"/api/simulations/{round_robin.uid}/results/").json()
    got, expected = body["meta"], engine_meta(round_robin)
    assert got["decks"] == ["Ember Test", "Dawn Test", "Dusk Test"]
    for key in ("field_rates", "nash", "relaxed", "epsilon", "resamples", "played_share",
                "matchup_half_width"):
        assert got[key] == expected[key], key
    assert got["sentence"].startswith(("No deck wins more than", "Ember Test wins",
                                       "Dawn Test wins", "Dusk Test wins"))
    assert "A field that adapts would play" in got["sentence"]
    # the field rate is the one the ranking shows (the same pair-aware interval)
    ranked = {r["name"]: r for r in body["ranking"]}
    for name, rate in zip(got["decks"], got["field_rates"], strict=True):
        assert rate["rate"] == pytest.approx(ranked[name]["rate"])
        assert rate["low"] == pytest.approx(ranked[name]["low"])


def test_epsilon_is_chosen_in_points_and_bad_values_are_a_400_naming_it(logged_in,
                                                                         round_robin):
    client = logged_in
    url = f"/api/simulations/{round_robin.uid}/results/"
    one = client.get(url, {"epsilon": "1"}).json()["meta"]
    assert one["epsilon"] == 0.01
    assert one["relaxed"]["shares"] == pytest.approx(engine_meta(round_robin, 0.01)["relaxed"]
                                                     ["shares"])
    assert client.get(url).json()["meta"]["epsilon"] == 0.005
    assert list(client.get(url, {"epsilon": ""}).json()) == ["epsilon"]   # as for every query
    for bad in ("abc", "-1", "11", "0.25", "nan", "inf"):
        response = client.get(url, {"epsilon": bad})
        assert response.status_code == 400, bad
        assert response.json() == {"epsilon": [str(BAD_EPSILON)]}, bad
    chinese = client.get(url, {"epsilon": "abc"}, **ZH)
    assert chinese.status_code == 400 and "百分点" in chinese.json()["epsilon"][0]


def test_epsilon_share_accepts_tenths_of_a_point_up_to_ten():
    assert epsilon_share("0.5") == 0.005
    assert epsilon_share(" 2 ") == 0.02
    assert epsilon_share("10") == 0.1
    assert epsilon_share(None) == epsilon_share("") == 0.005
    assert epsilon_share("0") == 0
    for bad in ("0.05", "10.1", "-1", "x", "1e400"):
        with pytest.raises(field_meta.EpsilonError):
            epsilon_share(bad)


def test_a_match_and_a_gauntlet_have_no_meta(logged_in, alice, round_robin):
    gauntlet = simulation_request(user=alice, kind="gauntlet", deck_specs=[DAWN, DUSK,
                                                                           round_robin.decks[0]
                                                                           ["uid"]],
                                  games=4, agent_a="greedy", agent_b="greedy", seed=1)
    match = simulation_request(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=4,
                               agent_a="greedy", agent_b="greedy", seed=1)
    play_all(gauntlet)
    play_all(match)
    for run in (gauntlet, match):
        assert logged_in.get(f"/api/simulations/{run.uid}/results/").json()["meta"] is None
    page = logged_in.get(gauntlet.get_absolute_url()).content.decode()
    assert 'data-testid="meta"' not in page
    assert "A gauntlet has no meta: its opponents never play each other" in page


def test_the_run_page_shows_the_meta(logged_in, round_robin):
    page = logged_in.get(round_robin.get_absolute_url()).content.decode()
    section = meta_section(page)
    expected = engine_meta(round_robin)
    assert "Meta: is this field healthy?" in section
    assert section.count('<svg class="chart meta-chart"') == 2
    assert "Who a field that adapts plays" in section and "Win rate against the field" in section
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', section, re.S)
    assert [name for name, _ in rows] == ["Ember Test", "Dawn Test", "Dusk Test"]
    for (name, cells), d in zip(rows, range(3), strict=True):
        rate = expected["field_rates"][d]
        share = expected["nash"]["shares"][d]
        assert f"{rate['rate'] * 100:.1f} %" in cells, name
        assert f"{share * 100:.1f} %" in cells, name
    sentence = re.search(r'data-testid="meta-sentence">(.*?)</p>', section, re.S).group(1)
    assert "A field that adapts would play" in sentence
    assert "Allowing 0.5 points of win rate" in sentence
    assert "A typical matchup is measured to ±" in sentence
    assert 'name="epsilon"' in section and 'value="0.5"' in section
    assert "Evenness (entropy" in section


def test_the_sentence_reads_in_chinese(logged_in, round_robin):
    section = meta_section(logged_in.get(round_robin.get_absolute_url(), **ZH).content.decode())
    sentence = re.search(r'data-testid="meta-sentence">(.*?)</p>', section, re.S).group(1)
    assert "若玩家会随环境调整卡组选择" in sentence
    assert "允许让出 0.5 个百分点的胜率" in sentence
    assert "纳什均衡" in section and "对全场胜率" in section and "熵" in section


def test_the_page_takes_epsilon_from_the_address_and_says_what_is_wrong(logged_in,
                                                                        round_robin):
    url = round_robin.get_absolute_url()
    section = meta_section(logged_in.get(url, {"epsilon": "1"}).content.decode())
    assert "Allowing 1 point of win rate" in section and "ε = 1 point" in section
    assert 'value="1"' in section
    response = logged_in.get(url, {"epsilon": "lots"})
    assert response.status_code == 400
    section = meta_section(response.content.decode())
    assert escape(str(BAD_EPSILON)) in section
    assert "Allowing 0.5 points of win rate" in section      # the default is shown meanwhile


def test_the_meta_is_computed_once_per_run_and_epsilon(logged_in, round_robin, monkeypatch):
    calls = []
    real = meta.meta_report

    def counted(*args, **kwargs):
        calls.append(kwargs.get("epsilon"))
        return real(*args, **kwargs)

    monkeypatch.setattr(field_meta.meta, "meta_report", counted)
    url = round_robin.get_absolute_url()
    first = meta_section(logged_in.get(url).content.decode())
    again = meta_section(logged_in.get(url).content.decode())
    logged_in.get(f"/api/simulations/{round_robin.uid}/results/")
    assert calls == [0.005] and first == again
    logged_in.get(url, {"epsilon": "2"})
    logged_in.get(url, {"epsilon": "2.0"})
    assert calls == [0.005, 0.02]


def test_finishing_a_round_robin_computes_its_meta_so_the_first_page_view_does_not(
        logged_in, alice, make_deck, monkeypatch, django_capture_on_commit_callbacks):
    """The process that finishes the run computes the default ε's meta once its last write is
    committed; the page and the API then read it (and it is the engine's meta)."""
    calls = []
    real = meta.meta_report

    def counted(*args, **kwargs):
        calls.append(kwargs.get("epsilon"))
        return real(*args, **kwargs)

    monkeypatch.setattr(field_meta.meta, "meta_report", counted)
    deck = make_deck(alice, name="Ember Test")
    run = simulation_request(user=alice, kind="round_robin", deck_specs=[deck.uid, DAWN, DUSK],
                             games=20, agent_a="greedy", agent_b="greedy", seed=5,
                             chunk_size=10)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(run)
    assert calls == [0.005]
    run.refresh_from_db()
    page = logged_in.get(run.get_absolute_url()).content.decode()
    api = logged_in.get(f"/api/simulations/{run.uid}/results/").json()
    assert calls == [0.005] and "Nash" in meta_section(page)
    assert api["meta"]["field_rates"] == engine_meta(run)["field_rates"]


def test_the_meta_is_stored_on_the_run_so_a_cleared_cache_costs_no_recomputing(
        logged_in, alice, make_deck, monkeypatch, django_capture_on_commit_callbacks):
    """The report is stored on the run row (durable across restarts and cache evictions): with
    the cache emptied, the first view and the API still only read it."""
    from django.core.cache import cache

    deck = make_deck(alice, name="Ember Test")
    run = simulation_request(user=alice, kind="round_robin", deck_specs=[deck.uid, DAWN, DUSK],
                             games=20, agent_a="greedy", agent_b="greedy", seed=5,
                             chunk_size=10)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(run)
    run.refresh_from_db()
    stored = run.meta_report
    assert stored["stamp"].startswith("done:60:")
    assert stored["report"]["field_rates"] == engine_meta(run)["field_rates"]
    cache.clear()
    monkeypatch.setattr(field_meta, "compute_meta", lambda *a, **k: pytest.fail("recomputed"))
    page = logged_in.get(run.get_absolute_url())
    api = logged_in.get(f"/api/simulations/{run.uid}/results/").json()
    assert page.status_code == 200 and "Nash" in meta_section(page.content.decode())
    assert api["meta"]["nash"] == stored["report"]["nash"]
    assert api["meta"]["decks"] == ["Ember Test", "Dawn Test", "Dusk Test"]


def test_a_run_finished_before_reports_were_stored_gets_its_own_on_first_view(
        logged_in, round_robin, monkeypatch):
    """The fixture's run finished with no report stored (its commit hooks never ran): the
    first view works it out and stores it, and no later view does it again."""
    from django.core.cache import cache

    assert round_robin.meta_report is None
    first = meta_section(logged_in.get(round_robin.get_absolute_url()).content.decode())
    round_robin.refresh_from_db()
    assert round_robin.meta_report["report"]["nash"] == engine_meta(round_robin)["nash"]
    cache.clear()
    monkeypatch.setattr(field_meta, "compute_meta", lambda *a, **k: pytest.fail("recomputed"))
    assert meta_section(logged_in.get(round_robin.get_absolute_url()).content.decode()) == first


def test_a_stored_report_of_another_state_of_the_run_is_not_shown(logged_in, round_robin):
    """A report is stamped with the run's final state; one that does not match it (the run's
    figures changed since) is worked out again."""
    round_robin.meta_report = {"stamp": "done:1:-", "report": {"stale": True}}
    round_robin.save(update_fields=["meta_report"])
    api = logged_in.get(f"/api/simulations/{round_robin.uid}/results/").json()
    assert api["meta"]["nash"] == engine_meta(round_robin)["nash"]
    round_robin.refresh_from_db()
    assert "stale" not in round_robin.meta_report["report"]


def test_a_match_finishing_computes_no_meta(alice, make_deck, monkeypatch,
                                            django_capture_on_commit_callbacks):
    monkeypatch.setattr(field_meta.meta, "meta_report", lambda *a, **k: pytest.fail("computed"))
    deck = make_deck(alice, name="Ember Test")
    run = simulation_request(user=alice, kind="match", deck_specs=[deck.uid, DAWN], games=4,
                             agent_a="greedy", agent_b="greedy", seed=5, chunk_size=4)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(run)
    run.refresh_from_db()
    assert run.status == "done"


def test_balance_this_field_opens_the_search_form_filled_in(logged_in, round_robin):
    section = meta_section(logged_in.get(round_robin.get_absolute_url()).content.decode())
    href = re.search(r'<a class="button" href="([^"]+)" data-testid="balance-field">',
                     section).group(1).replace("&amp;", "&")
    address = urlsplit(href)
    query = parse_qs(address.query)
    assert address.path == "/balance/new/"
    assert query == {"decks": [round_robin.decks[0]["uid"], DAWN, DUSK], "agent": ["greedy"],
                     "objective": ["meta"]}
    form = logged_in.get(href).content.decode()
    for spec in query["decks"]:
        assert re.search(rf'value="{re.escape(escape(spec))}"[^>]*checked', form), spec
    assert re.search(r'<option value="greedy" selected>', form)


def test_the_button_is_for_people_who_can_start_a_search(client, alice, round_robin):
    round_robin.is_public = True
    round_robin.save(update_fields=["is_public"])
    section = meta_section(client.get(round_robin.get_absolute_url()).content.decode())
    assert "Balance this field" not in section


def test_the_schema_documents_the_meta_and_epsilon(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    results = schema["paths"]["/api/simulations/{uid}/results/"]["get"]
    (epsilon,) = [p for p in results["parameters"] if p["name"] == "epsilon"]
    assert epsilon["in"] == "query" and epsilon["schema"]["maximum"] == 10
    assert "400" in results["responses"]
    meta_field = schema["components"]["schemas"]["Results"]["properties"]["meta"]
    assert meta_field.get("nullable") is True
    assert {"decks", "field_rates", "nash", "relaxed", "epsilon", "sentence"} <= set(
        schema["components"]["schemas"]["Meta"]["properties"])


def test_a_share_under_one_percent_is_said_as_the_table_shows_it():
    """A deck the equilibrium gives 0.8 % is played rarely, not "not played" (the table beside
    the sentence shows 0.8 %); a deck at 0 is never played."""
    from simulations.meta.view import meta_sentence

    rate = {"rate": 0.5, "low": 0.45, "high": 0.55}
    report = {"decks": ["Ember Rush", "Tidewall", "Dawn Crusade"], "field_rates": [rate] * 3,
              "epsilon": 0.005, "resamples": 0,
              "nash": {"shares": [0.0, 0.008, 0.992]},
              "relaxed": {"shares": [0.0, 0.008, 0.992], "entropy_ratio": 0.1}}
    text = meta_sentence(report)
    assert "and never Ember Rush." in text
    assert "even so Ember Rush would not be played." in text
    assert text.count("That field would play Tidewall less than 1 % of the time.") == 2
    assert "Tidewall would not be played" not in text and "never Ember Rush, Tidewall" not in text
    report["relaxed"]["shares"] = [0.3, 0.008, 0.692]
    assert ("even so Tidewall would be played less than 1 % of the time."
            in meta_sentence(report))
