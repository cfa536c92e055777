"""The per-card totals recorded before figures were kept per agent, ruleset and card-data
version survive the migration that splits them (cards 0004): each card's totals become one
"not recorded" slice, and nothing is lost going back either."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("cards", "0003_keyword_help_from_registry")]
AFTER = [("cards", "0004_card_stats_per_agent_ruleset_version")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_the_old_totals_become_one_not_recorded_slice_per_card():
    old_apps = migrate(BEFORE)
    card_set = old_apps.get_model("cards", "CardSet").objects.create(
        code="MIG", name_en="Migration", name_zh="迁移")
    card = old_apps.get_model("cards", "Card").objects.create(
        code="MIG-1", card_set=card_set, position=1, kind="minion", name_en="Old Guard",
        name_zh="老卫兵", rarity="N", cost=1, attack=1, attribute="fire")
    old_apps.get_model("cards", "CardStats").objects.create(
        card=card, games_played_in=40, times_played=55, times_awakened=7, wins_when_played=21)

    new_apps = migrate(AFTER)
    (piece,) = new_apps.get_model("cards", "CardStatsSlice").objects.filter(card_id=card.pk)
    assert (piece.agent, piece.ruleset_key, piece.card_data_version) == ("", "", "")
    assert (piece.games_played_in, piece.times_played, piece.times_awakened,
            piece.wins_when_played) == (40, 55, 7, 21)

    back = migrate(BEFORE)
    restored = back.get_model("cards", "CardStats").objects.get(card_id=card.pk)
    assert (restored.games_played_in, restored.wins_when_played) == (40, 21)
    migrate(AFTER)
