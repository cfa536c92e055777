"""Per-card figures recorded before awaken skills and last words became a decision (ruling
R6.1) came from games that used every one unasked: their slices move to the ruleset that plays
so (``always_use_optional_skills``), next to the runs migrated the same way (simulations 0005),
so a filter never mixes games played under the two readings. Totals whose ruleset was not
recorded ("" key) stay as they are."""

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

OPTION = "always_use_optional_skills"


def ruleset_key(changes: Mapping[str, Any] | None) -> str:
    """As cards.card_stats.ruleset_key (kept here as it was when this migration was written)."""
    if not changes:
        return "standard"
    text = json.dumps(dict(changes), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def move_slices(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    CardStatsSlice = apps.get_model("cards", "CardStatsSlice")
    for row in CardStatsSlice.objects.exclude(ruleset_key="").iterator():
        changes = dict(row.ruleset or {})
        if OPTION in changes:
            continue
        changes[OPTION] = True
        row.ruleset = dict(sorted(changes.items()))
        row.ruleset_key = ruleset_key(row.ruleset)
        row.save(update_fields=["ruleset", "ruleset_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("cards", "0004_card_stats_per_agent_ruleset_version"),
    ]

    operations = [
        migrations.RunPython(move_slices, migrations.RunPython.noop),
    ]
