"""Every kind of work — simulation chunks, balance jobs, their pieces — holds the one lease
definition of ``work.models.LeasedWork``: the same columns, the same sizes, labels in both
languages, and the reaper's sign-of-life column indexed on each."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import translation

from balance.models import BalanceJob, JobPiece
from simulations.models import Chunk
from work.models import LeasedWork
from work.protocol import kinds

LEASE_COLUMNS = ("claim", "worker", "lease_until", "attempts", "sends", "sent_at", "touched_at",
                 "cpu_seconds", "started_at")
KINDS_OF_WORK = (Chunk, BalanceJob, JobPiece)


def test_every_registered_kind_of_work_is_leased_work():
    assert {kind.model for kind in kinds()} == set(KINDS_OF_WORK)
    assert all(issubclass(model, LeasedWork) for model in KINDS_OF_WORK)


@pytest.mark.parametrize("model", KINDS_OF_WORK, ids=lambda m: m.__name__)
@pytest.mark.parametrize("name", LEASE_COLUMNS)
def test_each_lease_column_has_one_definition(model, name):
    shared = LeasedWork._meta.get_field(name).deconstruct()[1:]
    assert model._meta.get_field(name).deconstruct()[1:] == shared


@pytest.mark.parametrize("model", KINDS_OF_WORK, ids=lambda m: m.__name__)
def test_a_claim_holds_any_task_id_and_touched_at_is_indexed(model):
    """A claim is a Celery task id, or a coordinator's ``<task id>/<piece id>`` (a piece it
    plays itself): 200 characters on every kind, as the worker's name."""
    assert model._meta.get_field("claim").max_length == 200
    assert model._meta.get_field("worker").max_length == 200
    assert model._meta.get_field("touched_at").db_index


@pytest.mark.django_db
@pytest.mark.parametrize("model", KINDS_OF_WORK, ids=lambda m: m.__name__)
def test_the_database_has_the_index_the_stall_check_reads(model):
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    assert any(c["index"] and c["columns"] == ["touched_at"] for c in constraints.values())


@pytest.mark.parametrize("model", KINDS_OF_WORK, ids=lambda m: m.__name__)
def test_the_lease_columns_are_labelled_in_chinese(model):
    with translation.override("zh-hans"):
        labels = {name: str(model._meta.get_field(name).verbose_name) for name in LEASE_COLUMNS}
        helps = [str(model._meta.get_field(name).help_text) for name in LEASE_COLUMNS
                 if model._meta.get_field(name).help_text]
    assert labels["claim"] == "认领" and labels["lease_until"] == "租约到期"
    assert all(label != name.replace("_", " ") for name, label in labels.items()), labels
    assert helps and all(not text.isascii() for text in helps), helps


def test_a_pieces_own_columns_are_labelled_in_chinese_too():
    with translation.override("zh-hans"):
        untranslated = [field.name for field in JobPiece._meta.get_fields()
                        if getattr(field, "verbose_name", None) and field.name != "id"
                        and str(field.verbose_name).isascii()]
        name = str(JobPiece._meta.verbose_name)
    assert untranslated == [] and name == "任务分片"
