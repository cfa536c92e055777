"""The shared cache's table (``cardlab_cache``), made by ``migrate`` like every other table.

Throttles count in Django's ``default`` cache; without Redis it is a table in the database, which
Django creates only by ``createcachetable``: a site set up with ``migrate`` alone answered every
log-in with a 500. This runs the same command for the database being migrated. It does nothing
when the table is already there, nor when no cache lives in the database (Redis configured);
``createcachetable`` stays safe to run (``./run.sh`` does), e.g. after switching from Redis.
"""

from django.core.management import call_command
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def create_cache_tables(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = []

    operations = [
        migrations.RunPython(create_cache_tables, migrations.RunPython.noop, elidable=False),
    ]
