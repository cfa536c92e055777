"""Submitting runs: what is frozen, how the work is split, what is refused and why; the
what-if, gauntlets and round-robins, and the figures people read."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks.drafts import Draft
from decks.services import deck_save
from rules.lab.intervals import Moments, cluster_rate, games_rate
from simulations import services
from simulations.comparison import unpaired_change
from simulations.results import run_results
from simulations.services import (
    SimulationInputError,
    simulation_cancel,
    simulation_request,
    simulation_what_if,
)
from simulations.sources import UNKNOWN_DECK
from tests.simulations.helpers import DAWN, DUSK, LEGAL_CARDS, play_all
from work.models import WorkStatus

pytestmark = pytest.mark.django_db


def submit(user, specs=(DAWN, DUSK), **kw):
    args = {"kind": "match", "games": 20, "agent_a": "random", "agent_b": "random", "seed": 1}
    args.update(kw)
    return simulation_request(user=user, deck_specs=list(specs), **args)


def test_a_players_deck_named_like_a_starter_is_told_apart_from_it(alice, make_deck):
    from django.utils import translation

    from simulations.sources import deck_choices

    deck = make_deck(alice, name="Dusk Test")
    run = submit(alice, [deck.uid, DUSK])
    assert run.title == "Dusk Test (alice) vs Dusk Test (starter)"
    labels = {c.spec: c.label for c in deck_choices(alice)}
    assert labels[deck.uid] == "Dusk Test (alice)"
    assert labels[DUSK] == "Dusk Test (starter)"
    assert labels[DAWN] == "Dawn Test"                 # no deck of its name: as it is
    mirror = submit(alice, [DUSK, DUSK])              # the same deck twice keeps its name
    assert mirror.title == "Dusk Test vs Dusk Test"
    zh = make_deck(alice, name="暮色测试")               # the starter's Chinese name
    with translation.override("zh-hans"):
        run = submit(alice, [zh.uid, DUSK])
        assert run.title == "暮色测试（alice） vs 暮色测试（预组）"


def test_a_run_freezes_its_decks_and_cards(alice, make_deck):
    deck = make_deck(alice)
    run = submit(alice, [deck.uid, DUSK])
    assert run.decks[0] == {"name": "Ember Test", "hero": "T-H01", "cards": LEGAL_CARDS,
                            "uid": deck.uid, "version": 1, "source": "deck",
                            "owner": "alice"}
    assert run.deck == deck and run.owner == alice and run.card_data_version
    frozen_attack = run.cards["T-M01"]["attack"]
    # Later edits of the deck and the card change nothing the run plays.
    deck_save(deck=deck, by=alice, draft=Draft(name="Changed", hero="T-H02",
                                               cards={"T-M01": 30}))
    Card.objects.filter(code="T-M01").update(attack=frozen_attack + 5)
    run.refresh_from_db()
    assert run.decks[0]["cards"] == LEGAL_CARDS and run.decks[0]["hero"] == "T-H01"
    assert run.cards["T-M01"]["attack"] == frozen_attack


def test_games_are_whole_seat_swapped_pairs_split_into_even_chunks(catalogue):
    run = submit(None, games=41, chunk_size=None)
    assert run.games == 42 and run.games_total == 42
    chunks = list(run.chunks.order_by("index"))
    assert all(c.size % 2 == 0 or c.stop == 42 for c in chunks)
    assert chunks[0].start == 0 and chunks[-1].stop == 42
    assert sum(c.size for c in chunks) == 42 and len(chunks) >= 4


@pytest.mark.parametrize("changes, field, message", [
    ({"kind": "duel"}, "kind", "Unknown kind of run 'duel'"),
    ({"agent_a": "genius"}, "agent_a", "unknown agent 'genius'"),
    ({"ruleset": {"turn_limit": "many"}}, "ruleset", "turn_limit"),
    ({"ruleset": {"colour": 1}}, "ruleset", "unknown ruleset option 'colour'"),
    ({"games": 1}, "games", services.GAMES_TOO_FEW),
    ({"games": 1_000_000}, "games", "is more than the limit of 100000 per run"),
    ({"stop_width": 0.9}, "stop_width", "between 0.01 and 0.5"),
    ({"seed": -1}, "seed", "The seed must be a whole number"),
    ({"kind": "round_robin"}, "decks", services.DECKS_FOR_KIND["round_robin"]),
])
def test_bad_input_is_refused_with_a_clear_message(catalogue, changes, field, message):
    with pytest.raises(SimulationInputError) as caught:
        submit(None, **changes)
    assert caught.value.field == field and str(message) in caught.value.message


def test_decks_that_cannot_be_simulated_are_refused(alice, bob, make_deck):
    private = make_deck(bob)
    with pytest.raises(SimulationInputError) as caught:
        submit(alice, [private.uid, DUSK])
    assert caught.value.message == UNKNOWN_DECK.format(spec=private.uid)
    with pytest.raises(SimulationInputError, match="No starter deck named 'Nope'"):
        submit(alice, ["starter:Nope", DUSK])
    heroless = make_deck(alice, hero=None)
    with pytest.raises(SimulationInputError, match="has no hero"):
        submit(alice, [heroless.uid, DUSK])


def test_a_public_deck_of_someone_else_can_be_an_opponent(alice, bob, make_deck):
    theirs = make_deck(bob, visibility="public", name="Bob's")
    run = submit(alice, [DAWN, theirs.uid])
    assert run.decks[1]["name"] == "Bob's"


def test_the_cap_on_runs_in_flight_is_per_user(alice, bob, catalogue, settings):
    settings.SIMULATIONS_MAX_ACTIVE_PER_USER = 2
    first = submit(alice)
    submit(alice)
    with pytest.raises(SimulationInputError, match=r"already have 2 simulations .* limit is 2"):
        submit(alice)
    submit(bob)                         # bob has his own allowance
    simulation_cancel(run=first)        # a finished run frees a place
    submit(alice)


def test_cancelling_a_finished_run_is_refused(catalogue):
    run = submit(None)
    play_all(run)
    with pytest.raises(SimulationInputError, match="already finished"):
        simulation_cancel(run=run)


def test_results_report_the_interval_draws_errors_seats_and_lengths(catalogue):
    run = submit(None, games=24, chunk_size=6)
    play_all(run)
    (report,) = run_results(run)["matchups"]
    done = report["wins"] + report["losses"] + report["draws"]
    assert done + report["errors"] == 24
    # The interval is the pair-aware one of the games' outcomes, two by two (one seed each).
    outcomes = report["outcomes"]
    pairs = [outcomes[i:i + 2] for i in range(0, len(outcomes), 2)]
    expected = cluster_rate(Moments.of((p.count("a"), sum(c in "abd" for c in p))
                                       for p in pairs))
    assert report["win_rate"] == expected and expected["pairs"] == 12
    assert report["draws_count_as"] == "not won"
    assert report["going_first"]["games"] + report["going_second"]["games"] == done
    assert sum(report["lengths"].values()) == done
    assert report["cards_a"] and report["cards_a"][0]["name"]


def test_a_what_if_replays_the_same_seeds_with_one_card_swapped(alice, catalogue):
    base = submit(alice, games=20, chunk_size=4, seed=9)
    play_all(base)
    what_if = simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-M02",
                                 card_in="T-M05")
    assert (what_if.seed, what_if.games, what_if.chunk_size) == (9, 20, 4)
    assert what_if.base_run == base and what_if.swap == {"deck": 0, "out": "T-M02",
                                                          "in": "T-M05"}
    counts = what_if.decks[0]["cards"]
    assert "T-M02" not in counts and counts["T-M05"] == base.decks[0]["cards"]["T-M02"]
    assert what_if.decks[1] == base.decks[1]
    assert what_if.decks[0]["name"] == f"{base.decks[0]['name']} (Thorn Boar → Dusk Stalker)"
    assert what_if.label.endswith("what if Thorn Boar → Dusk Stalker")
    play_all(what_if)
    report = run_results(what_if)["what_if"]
    (row,) = report["pairings"]
    flips = row["flips"]
    assert sum(flips.values()) == 20
    assert row["change"] == pytest.approx(row["after"]["rate"] - row["before"]["rate"])
    assert row["change_low"] <= row["change"] <= row["change_high"]


def test_a_what_if_can_swap_the_hero_but_only_for_a_hero(alice, catalogue):
    base = submit(alice)
    with pytest.raises(SimulationInputError, match="only be swapped for another hero"):
        simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-H01",
                           card_in="T-M01")
    with pytest.raises(SimulationInputError, match="has no Tide Caller to swap out"):
        simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-M09",
                           card_in="T-M01")
    run = simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-H01",
                             card_in="T-H02")
    assert run.decks[0]["hero"] == "T-H02"


def test_a_round_robin_plays_every_pair_and_ranks_the_decks(alice, make_deck):
    mine = make_deck(alice)
    run = submit(alice, [mine.uid, DAWN, DUSK], kind="round_robin", games=8, chunk_size=4)
    assert [(m.a, m.b) for m in run.matchups.order_by("index")] == [(0, 1), (0, 2), (1, 2)]
    assert run.games_total == 24 and run.agent_b == run.agent_a
    play_all(run)
    assert run.status == WorkStatus.DONE
    results = run_results(run)
    cells = results["matrix"]
    assert cells[0][0] is None
    for i, j in ((0, 1), (0, 2), (1, 2)):
        assert cells[i][j]["games"] == cells[j][i]["games"]
        assert cells[i][j]["wins"] + cells[j][i]["wins"] <= cells[i][j]["games"]
    ranking = results["ranking"]
    assert [r["place"] for r in ranking] == [1, 2, 3]
    assert ranking[0]["rate"] >= ranking[1]["rate"] >= ranking[2]["rate"]


def test_a_gauntlet_plays_one_deck_against_each_other(alice, make_deck):
    mine = make_deck(alice)
    run = submit(alice, [mine.uid, DAWN, DUSK], kind="gauntlet", games=4)
    assert [(m.a, m.b) for m in run.matchups.order_by("index")] == [(0, 1), (0, 2)]
    assert run.label == "Ember Test vs 2 decks (gauntlet)"


def test_the_unpaired_fallback_is_newcombes_interval():
    """With plain Wilson intervals on each side it is statsmodels' Newcombe interval."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    change = unpaired_change(games_rate(50, 100), games_rate(60, 100))
    low, high = confint_proportions_2indep(60, 100, 50, 100, method="newcomb")
    assert change["change"] == pytest.approx(0.1) and change["method"] == "unpaired"
    assert (change["low"], change["high"]) == (pytest.approx(low), pytest.approx(high))
    assert unpaired_change(games_rate(0, 0), games_rate(1, 2))["change"] is None


def test_a_public_run_cannot_show_someone_elses_unlisted_deck(alice, bob, make_deck):
    unlisted = make_deck(bob, visibility="unlisted", name="Bob's secret")
    with pytest.raises(SimulationInputError, match="Bob's secret is not public") as caught:
        submit(alice, [DAWN, unlisted.uid], is_public=True)
    assert caught.value.field == "public"
    assert submit(alice, [DAWN, unlisted.uid]).decks[1]["name"] == "Bob's secret"
    mine = make_deck(alice, visibility="private")
    assert submit(alice, [mine.uid, DUSK], is_public=True).is_public
