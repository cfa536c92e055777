"""Paired comparisons (a what-if, any two runs on the same seeds), the unpaired fallback, and
the meta view of a gauntlet or round-robin — every figure checked against an independent
computation from the per-game outcomes (numpy, statsmodels, scipy)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from rest_framework.test import APIClient
from scipy import stats as sp
from statsmodels.regression.linear_model import OLS

from simulations.comparison import NOT_SAME_GAMES, NOT_SAME_SEED, compare_runs
from simulations.results import run_results
from simulations.services import simulation_request, simulation_what_if
from tests.simulations.helpers import DAWN, DUSK, play_all
from work.models import WorkStatus

pytestmark = pytest.mark.django_db
Z = 1.959963984540054


@pytest.fixture(autouse=True)
def _cards(catalogue):
    return catalogue


def submit(user, specs=(DAWN, DUSK), **kw):
    args = {"kind": "match", "games": 40, "agent_a": "greedy", "agent_b": "random", "seed": 4,
            "chunk_size": 10}
    args.update(kw)
    run = simulation_request(user=user, deck_specs=list(specs), **args)
    play_all(run)
    return run


def cluster_mean(values: list[float], groups: list[int]) -> tuple[float, float]:
    """Mean and cluster-robust standard error (CR1 with only the G/(G−1) factor)."""
    fit = OLS(np.array(values, dtype=float), np.ones((len(values), 1))).fit(
        cov_type="cluster", cov_kwds={"groups": np.array(groups), "use_correction": False})
    g = len(set(groups))
    return float(fit.params[0]), float(np.sqrt(fit.cov_params()[0, 0] * g / (g - 1)))


def independent_paired(before: str, after: str, side: str) -> dict:
    diffs, groups, gained, lost = [], [], 0, 0
    for game, (old, new) in enumerate(zip(before, after, strict=True)):
        if old in "abd" and new in "abd":
            diffs.append(int(new == side) - int(old == side))
            groups.append(game // 2)
            gained += old != side and new == side
            lost += old == side and new != side
    mean, se = cluster_mean(diffs, groups)
    return {"change": mean, "low": mean - Z * se, "high": mean + Z * se,
            "p": sp.binomtest(gained, gained + lost, 0.5).pvalue if gained + lost else 1.0,
            "gained": gained, "lost": lost}


def outcomes(run) -> list[str]:
    return [m.result["outcomes"] for m in run.matchups.order_by("index")]


def test_a_what_if_is_compared_game_by_game(alice):
    base = submit(alice)
    what_if = simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-M02",
                                 card_in="T-M12")
    play_all(what_if)
    report = run_results(what_if)["what_if"]
    assert report["method"] == "paired" and report["problems"] == []
    (row,) = report["pairings"]
    expected = independent_paired(outcomes(base)[0], outcomes(what_if)[0], "a")
    assert row["change"] == pytest.approx(expected["change"])
    assert (row["change_low"], row["change_high"]) == (pytest.approx(expected["low"]),
                                                       pytest.approx(expected["high"]))
    assert row["p_value"] == pytest.approx(expected["p"])
    assert (row["gained"], row["lost"]) == (expected["gained"], expected["lost"])
    assert row["pairs"] == 20 and row["method"] == "paired"


def test_the_deck_followed_as_deck_b_is_seen_from_its_side(alice):
    base = submit(alice)
    what_if = simulation_what_if(base=base, owner=alice, deck_index=1, card_out="T-M03",
                                 card_in="T-M02")
    play_all(what_if)
    (row,) = run_results(what_if)["what_if"]["pairings"]
    expected = independent_paired(outcomes(base)[0], outcomes(what_if)[0], "b")
    assert row["change"] == pytest.approx(expected["change"])
    assert row["flips"]["lost_to_won"] == sum(
        (o, n) == ("a", "b") for o, n in zip(outcomes(base)[0], outcomes(what_if)[0],
                                             strict=True))


def test_any_two_runs_on_the_same_seeds_are_paired(alice):
    greedy, random_b = submit(alice), submit(alice, agent_b="greedy")
    comparison = compare_runs(greedy, random_b)
    assert comparison["method"] == "paired"
    (row,) = comparison["rows"]
    expected = independent_paired(outcomes(greedy)[0], outcomes(random_b)[0], "a")
    assert row["change"] == pytest.approx(expected["change"])
    assert row["p_value"] == pytest.approx(expected["p"])


def test_runs_on_other_seeds_say_why_and_fall_back_to_unpaired(alice):
    first, second = submit(alice), submit(alice, seed=99, games=20)
    comparison = compare_runs(first, second)
    assert comparison["method"] == "unpaired"
    assert str(NOT_SAME_SEED).format(a=4, b=99) in comparison["problems"]
    assert str(NOT_SAME_GAMES).format(a=40, b=20) in comparison["problems"]
    (row,) = comparison["rows"]
    assert row["method"] == "unpaired" and row["p_value"] is None and row["flips"] is None
    before, after = row["before"], row["after"]
    assert row["change"] == pytest.approx(after["rate"] - before["rate"])
    assert row["change_low"] == pytest.approx(
        row["change"] - np.hypot(after["rate"] - after["low"], before["high"] - before["rate"]))


def test_compare_api_and_page(alice, client):
    first, second, other = submit(alice), submit(alice, agent_b="greedy"), submit(alice, seed=8)
    api = APIClient()
    api.force_authenticate(alice)
    data = api.get("/api/simulations/compare/", {"before": first.uid,
                                                 "after": second.uid}).json()
    assert data["method"] == "paired" and data["rows"][0]["p_value"] is not None
    assert api.get("/api/simulations/compare/", {"before": first.uid,
                                                 "after": other.uid}).json()["method"] == \
        "unpaired"
    assert api.get("/api/simulations/compare/", {"before": first.uid}).status_code == 400
    assert api.get("/api/simulations/compare/", {"before": first.uid,
                                                 "after": first.uid}).status_code == 400
    assert api.get("/api/simulations/compare/", {"before": first.uid,
                                                 "after": "nope"}).status_code == 404
    client.force_login(alice)
    page = client.get("/simulations/compare/", {"before": first.uid, "after": other.uid})
    text = page.content.decode()
    assert page.status_code == 200 and "Unpaired comparison" in text
    assert str(NOT_SAME_SEED).format(a=4, b=8) in text
    paired = client.get("/simulations/compare/", {"before": first.uid, "after": second.uid})
    assert "Paired: both runs played the same" in paired.content.decode()
    # The heading names the "before" run first, then the "after" run, each so marked.
    heading = re.search(r'<h2 id="cmp-h">(.*?)</h2>', paired.content.decode(), re.S).group(1)
    assert heading.index(first.get_absolute_url()) < heading.index(second.get_absolute_url())
    assert re.search(r"Before:</span> <a [^>]*>[^<]*</a> <span[^>]*>→ after:", heading)
    assert "McNemar" in paired.content.decode()
    assert client.get("/simulations/compare/", {"before": "zzz", "after": first.uid}
                      ).status_code == 404
    assert client.get("/simulations/compare/").status_code == 200


def test_a_round_robins_field_rate_counts_each_seed_once(alice, make_deck):
    mine = make_deck(alice)
    run = submit(alice, [mine.uid, DAWN, DUSK], kind="round_robin", games=12, chunk_size=4)
    assert run.status == WorkStatus.DONE
    results = run_results(run)
    reports = results["matchups"]
    for row in results["ranking"]:
        values, groups = [], []
        for report in reports:
            if row["deck"] not in (report["a"], report["b"]):
                continue
            side = "a" if report["a"] == row["deck"] else "b"
            for game, letter in enumerate(report["outcomes"]):
                if letter in "abd":
                    values.append(int(letter == side))
                    groups.append(game // 2)     # the same seeds in every pairing
        mean, _ = cluster_mean(values, groups)
        assert row["rate"] == pytest.approx(mean)
        assert row["pairs"] == 6 and row["games"] == len(values) and row["whole_field"]
    cells = [c for line in results["matrix"] for c in line if c is not None]
    gaps = [abs(c["rate"] - 0.5) for c in cells]
    assert results["balance"]["max_distance"] == pytest.approx(max(gaps))
    assert results["balance"]["rms_distance"] == pytest.approx(np.sqrt(np.mean(np.square(gaps))))


def test_a_gauntlet_ranks_only_the_deck_that_played_the_whole_field(alice, make_deck):
    mine = make_deck(alice)
    run = submit(alice, [mine.uid, DAWN, DUSK], kind="gauntlet", games=8, chunk_size=4)
    ranking = run_results(run)["ranking"]
    assert [r["place"] for r in ranking] == [1, None, None]
    assert ranking[0]["deck"] == 0 and not ranking[1]["whole_field"]
