"""Data migrations keep what frozen runs play."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK

UNASKED = importlib.import_module("simulations.migrations.0005_runs_keep_unasked_optional_skills")


@pytest.mark.django_db
def test_runs_from_before_rule_r6_1_keep_every_optional_skill_unasked(alice, catalogue):
    """Rule R6.1: a run frozen before awaken skills and last words were asked keeps playing
    them unasked; a run that names the option keeps its own value."""
    old = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=4)
    new = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=4)
    assert new.ruleset["always_use_optional_skills"] is False
    old.ruleset = {k: v for k, v in old.ruleset.items() if k != UNASKED.OPTION}
    old.save(update_fields=["ruleset"])
    UNASKED.keep_unasked(apps, None)
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.ruleset["always_use_optional_skills"] is True
    assert old.ruleset["hero_advantage"] is True                    # the rest is kept
    assert new.ruleset["always_use_optional_skills"] is False
