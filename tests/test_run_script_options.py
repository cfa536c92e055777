"""``./run.sh``'s options, run against stand-ins: a copy of the script in a temporary folder
whose install step, virtualenv and commands (python, celery, gunicorn) only write down how
they were called — nothing is installed or served. ``--with-sample-games`` adds one step that
loads the four other games' rule books; without it the steps are as before."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
STAND_IN = '#!/usr/bin/env bash\necho "$(basename "$0") $*" >> "$RUN_LOG"\n'


@pytest.fixture
def stage(tmp_path: Path) -> Path:
    shutil.copy(REPO_ROOT / "run.sh", tmp_path / "run.sh")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "install.sh").write_text("cardlab_install() { :; }\n")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "activate").write_text(f'export PATH="{bin_dir}:$PATH"\n')
    for name in ("python", "celery", "gunicorn"):
        path = bin_dir / name
        path.write_text(STAND_IN)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    games = tmp_path / "rules" / "data" / "games"
    games.mkdir(parents=True)
    for name in ("duwushi", "sorcery"):
        (games / f"{name}.yaml").write_text("")
    return tmp_path


def run(stage: Path, *args: str) -> tuple[int, list[str], str]:
    log = stage / "calls.log"
    env = {**os.environ, "RUN_LOG": str(log), "PORT": "8123"}
    done = subprocess.run(["bash", str(stage / "run.sh"), *args], cwd=stage, env=env,
                          capture_output=True, text=True, timeout=60)
    calls = log.read_text().splitlines() if log.exists() else []
    return done.returncode, calls, done.stdout + done.stderr


def test_with_sample_games_loads_the_other_games_rule_books(stage):
    code, calls, output = run(stage, "--dev", "--with-sample-games")
    assert code == 0, output
    assert ("python manage.py load_formats rules/data/games/duwushi.yaml "
            "rules/data/games/sorcery.yaml") in calls
    # After the core set, before the site starts.
    assert calls.index("python manage.py load_cards") < calls.index(
        next(c for c in calls if "load_formats" in c)) < calls.index(
        "python manage.py runserver 127.0.0.1:8123")


def test_the_option_combines_in_either_order_and_alone(stage):
    code, calls, output = run(stage, "--with-sample-games", "--dev")
    assert code == 0, output
    assert any("load_formats" in c for c in calls)


def test_without_the_option_nothing_more_is_loaded(stage):
    code, calls, output = run(stage, "--dev")
    assert code == 0, output
    assert not any("load_formats" in c for c in calls)
    assert "python manage.py load_cards" in calls


def test_an_unknown_option_names_the_known_ones(stage):
    code, calls, output = run(stage, "--with-samples")
    assert code == 2 and calls == []
    assert "usage: ./run.sh [--dev] [--with-sample-games]" in output


def test_gunicorn_reads_request_lines_longer_than_the_sites_query_limit():
    """The site's own 414 needs the request to reach it: gunicorn's default request line limit
    (4094 bytes) is below the site's query limit, and its own 414 is a bare page."""
    from config.middleware import MAX_QUERY_STRING

    served = re.search(r"^\s*gunicorn .*?(?=&$)", (REPO_ROOT / "run.sh").read_text(),
                       flags=re.MULTILINE | re.DOTALL)
    assert served, "run.sh starts no gunicorn"
    limit = re.search(r"--limit-request-line (\d+)", served.group(0))
    assert limit, "gunicorn runs with its default request line limit"
    # Method, path and protocol around the query: "GET /api/cards/?… HTTP/1.1".
    assert MAX_QUERY_STRING + 200 <= int(limit.group(1)) <= 8190      # 8190: gunicorn's most
