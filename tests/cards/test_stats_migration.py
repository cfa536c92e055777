"""The per-card totals recorded before figures were kept per agent, ruleset and card-data
version survive the migration that splits them (cards 0004): each card's totals become one
"not recorded" slice, and nothing is lost going back either."""

from __future__ import annotations

import pytest

from tests.migration_steps import latest, migrate

BEFORE = [("cards", "0003_keyword_help_from_registry")]
AFTER = [("cards", "0004_card_stats_per_agent_ruleset_version")]

pytestmark = pytest.mark.django_db(transaction=True)


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
    latest()


def test_slices_from_before_optional_skills_were_asked_move_to_that_ruleset():
    """Rule R6.1: figures recorded when every awaken skill and last words was used unasked are
    kept under the ruleset that plays so; "not recorded" totals stay; the keys are the
    service's own."""
    from cards.card_stats import ruleset_key

    old_apps = migrate(AFTER)
    card_set = old_apps.get_model("cards", "CardSet").objects.create(
        code="MIG", name_en="Migration", name_zh="迁移")
    card = old_apps.get_model("cards", "Card").objects.create(
        code="MIG-1", card_set=card_set, position=1, kind="minion", name_en="Old Guard",
        name_zh="老卫兵", rarity="N", cost=1, attack=1, attribute="fire")
    slices = old_apps.get_model("cards", "CardStatsSlice").objects
    slices.create(card=card, agent="greedy", ruleset_key="standard", ruleset={},
                  games_played_in=10)
    slices.create(card=card, agent="greedy", ruleset_key=ruleset_key({"turn_limit": 20}),
                  ruleset={"turn_limit": 20}, games_played_in=4)
    slices.create(card=card, agent="", ruleset_key="", ruleset={}, games_played_in=3)

    new_apps = migrate([("cards", "0005_card_stats_before_optional_skills")])
    moved = {row.games_played_in: (row.ruleset_key, row.ruleset) for row in
             new_apps.get_model("cards", "CardStatsSlice").objects.filter(card_id=card.pk)}
    unasked = {"always_use_optional_skills": True}
    assert moved == {
        10: (ruleset_key(unasked), unasked),
        4: (ruleset_key({**unasked, "turn_limit": 20}), {**unasked, "turn_limit": 20}),
        3: ("", {}),
    }
    latest()
