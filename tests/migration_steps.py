"""Moving a test database between migrations, for the tests of a data migration: the state's
models at a target (to write rows as they were), and back to the latest migrations after."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: list[tuple[str, str]]) -> Apps:
    """Migrate the test database to ``target`` and return its models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def latest() -> None:
    """Leave the database at the latest migrations (later ones of every app depend on these)."""
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
