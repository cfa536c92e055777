"""The ``standard`` format of RULES.md R5: exactly 1 hero, exactly 30 minion or item cards,
at most 1 copy of a UR card (by name) and 3 of any other, an empty ban list, every set legal.

The values are written out here (not imported from rules.decks.legality) so this migration means the
same thing forever, whatever the code later says.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

STANDARD = {
    "name": "Standard",
    "description": ("The format of the rule book (R5): 1 hero; exactly 30 minion and item "
                    "cards; at most 1 copy of a UR card and 3 of any other; no ban list."),
    "hero_count": 1, "deck_min": 30, "deck_max": 30,
    "minions_allowed": True, "items_allowed": True, "heroes_allowed_in_deck": False,
    "limit_n": 3, "limit_r": 3, "limit_sr": 3, "limit_ssr": 3, "limit_ur": 1,
    "is_active": True,
}


def create_standard(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Format = apps.get_model("decks", "Format")
    Format.objects.get_or_create(code="standard", defaults=STANDARD)


def remove_standard(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Format = apps.get_model("decks", "Format")
    Format.objects.filter(code="standard", decks__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]

    operations = [migrations.RunPython(create_standard, remove_standard)]
