"""A run's title, deck names and patch name read in the reader's language, whatever the
language it was submitted in: they are written in each of the site's languages at submission."""

from __future__ import annotations

import pytest
from django.utils import translation

from simulations.services import simulation_request, simulation_what_if
from simulations.sweeps.services import sweep_submit
from tests.simulations.helpers import DAWN, DUSK

pytestmark = pytest.mark.django_db


def test_a_run_submitted_in_english_reads_in_chinese(client, alice, catalogue):
    with translation.override("en"):
        run = simulation_request(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=4,
                                 agent_a="greedy", agent_b="random", seed=1, is_public=True)
    assert run.label == "Dawn Test vs Dusk Test"
    with translation.override("zh-hans"):
        assert run.title == "晨曦测试 vs 暮色测试" and run.deck_name(1) == "暮色测试"
    page = client.get(run.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "晨曦测试 vs 暮色测试" in page and "Dawn Test" not in page
    listing = client.get("/simulations/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "晨曦测试 vs 暮色测试" in listing


def test_a_what_if_names_its_cards_and_deck_in_the_readers_language(alice, catalogue):
    base = simulation_request(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=4,
                              agent_a="greedy", agent_b="random", seed=1)
    with translation.override("en"):
        what_if = simulation_what_if(base=base, owner=alice, deck_index=0, card_out="T-M02",
                                     card_in="T-M05")
    with translation.override("zh-hans"):
        assert "荆棘野猪" in what_if.title and "Thorn Boar" not in what_if.title
        assert what_if.deck_name(0).startswith("晨曦测试 (荆棘野猪 → ")
    with translation.override("en"):
        assert "Thorn Boar" in what_if.title and what_if.deck_name(0).startswith("Dawn Test")


def test_a_sweeps_patched_runs_name_the_patch_in_the_readers_language(alice, catalogue):
    with translation.override("en"):
        sweep = sweep_submit(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=4,
                             agent_a="greedy", agent_b="random", card="T-M01", field="attack",
                             values=[1, 2], seed=6)
    patched = sweep.runs.exclude(patch=None).first()
    with translation.override("zh-hans"):
        assert "余烬幼犬" in patched.title and "attack" not in patched.title
        assert patched.patch_name.startswith("余烬幼犬 ")
    with translation.override("en"):
        assert "Ember Pup attack" in patched.title


def test_the_patch_pages_generated_patch_name_reads_in_the_readers_language(client, alice,
                                                                           catalogue):
    """The patch page names an unnamed patch in each language ("Ember Pup attack 4"), so a
    Chinese page shows the Chinese card and field, not the English name it was made in."""
    from simulations.models import SimulationRun
    client.force_login(alice)
    form = {"card": "T-M01", "attack": 4, "rarity": "N", "abilities": "[]", "kind": "match",
            "deck": DAWN, "opponents": [DUSK], "games": 4, "agent_a": "greedy",
            "agent_b": "random", "action": "run"}
    client.post("/simulations/patch/", form, HTTP_ACCEPT_LANGUAGE="en")
    run = SimulationRun.objects.get()
    with translation.override("en"):
        assert run.patch_name == "Ember Pup attack 4"
    with translation.override("zh-hans"):
        assert run.patch_name.startswith("余烬幼犬 ") and "attack" not in run.patch_name
        assert "Ember Pup" not in run.title
    page = client.get(run.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").text
    assert "Ember Pup attack 4" not in page
