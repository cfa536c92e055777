"""Configuration: production passes Django's deployment checklist, development needs no servers,
and Celery is set up for long simulations whose results live in the database."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config import celery_app
from config.settings import ENV_MUST_BE, SECRET_KEY_REQUIRED

REPO_ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_passes_the_deployment_checklist(tmp_path):
    # A release's static files are collected (the manifest is what the check looks for;
    # tests/test_static_files.py shows the warning without it).
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1", "hash": ""}')
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="cardlab.example",
        DJANGO_STATIC_ROOT=str(tmp_path),
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output and "ERROR" not in output, output


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage("check", DJANGO_ENV="production", DJANGO_ALLOWED_HOSTS="cardlab.example")
    assert result.returncode != 0
    assert SECRET_KEY_REQUIRED in result.stderr


def test_a_misspelt_environment_is_refused():
    result = _manage("check", DJANGO_ENV="prod")
    assert result.returncode != 0
    assert ENV_MUST_BE.format(value="prod") in result.stderr


def test_request_bodies_are_capped():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024


def test_celery_keeps_no_results_and_survives_lost_workers():
    conf = celery_app.conf
    assert celery_app.main == "config"
    assert conf.task_ignore_result is True
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_always_eager is False
    assert conf.broker_url == settings.CELERY_BROKER_URL


def test_the_configured_broker_carries_a_message():
    """Whatever CELERY_BROKER_URL says (the filesystem default, or Redis), a message goes in and
    comes back out."""
    name = f"cardlab-test-{uuid.uuid4().hex}"
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=3)
        queue = conn.SimpleQueue(name)
        try:
            queue.put({"ping": name})
            message = queue.get(timeout=10)
            message.ack()
            assert message.payload == {"ping": name}
        finally:
            queue.clear()
            queue.queue.delete()
            queue.close()


@pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith("filesystem://"),
    reason="only the default broker keeps its queue in var/",
)
def test_default_broker_keeps_its_queue_in_var():
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    var = Path(settings.VAR_DIR)
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        folder = Path(options[key])
        assert folder.is_dir() and var in folder.parents, key


@pytest.mark.django_db
def test_the_database_named_by_database_url_is_the_one_in_use():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    if url and not url.startswith(("postgres://", "postgresql://", "sqlite:")):
        pytest.skip(f"no expectation for {url.split(':')[0]} databases")
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_long_job_is_acknowledged_when_it_starts_and_its_pieces_when_played():
    """A balance job's coordinator would otherwise hold one of the worker's prefetch places for
    hours (its pieces reaching that worker one broker round trip at a time) and be delivered
    again by a broker timeout while it runs; its lapsed lease brings it back if it dies."""
    from balance.tasks import balance_job_run, balance_piece_run
    from simulations.tasks import simulation_chunk_run

    assert balance_job_run.acks_late is False
    assert balance_piece_run.acks_late is True and simulation_chunk_run.acks_late is True
