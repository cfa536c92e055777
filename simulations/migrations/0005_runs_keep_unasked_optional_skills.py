"""Runs submitted before awaken skills and last words became a decision (ruling R6.1) were
played with every one used unasked. Their frozen ruleset gets the option that plays them so
(``always_use_optional_skills``), so their remaining chunks, replays and what-ifs play the same
games as before; a ruleset that names the option already is left alone."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

OPTION = "always_use_optional_skills"


def keep_unasked(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    SimulationRun = apps.get_model("simulations", "SimulationRun")
    for run in SimulationRun.objects.only("pk", "ruleset").iterator():
        ruleset = run.ruleset if isinstance(run.ruleset, dict) else {}
        if OPTION not in ruleset:
            run.ruleset = {**ruleset, OPTION: True}
            run.save(update_fields=["ruleset"])


class Migration(migrations.Migration):

    dependencies = [
        ("simulations", "0004_translated_model_names"),
    ]

    operations = [
        migrations.RunPython(keep_unasked, migrations.RunPython.noop),
    ]
