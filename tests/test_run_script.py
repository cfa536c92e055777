"""``./run.sh`` serves the site as production does, on the embedded defaults, and restarts without
reinstalling; ``./run.sh --dev`` keeps Django's runserver with DEBUG on. Marked ``contract`` (it
starts the real script, worker included: about a minute)."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.contract

REPO_ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


class Site:
    def __init__(self, var_dir: Path, *args: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL",
                                    "CARDLAB_REINSTALL"))}
        env.update(PORT=str(self.port), CARDLAB_VAR_DIR=str(var_dir), WEB_CONCURRENCY="1",
                   CARDLAB_CELERY_QUEUE=f"run-script-test-{self.port}")
        self.log = var_dir / f"run-{self.port}.log"
        self.process = subprocess.Popen(["./run.sh", *args], cwd=REPO_ROOT, env=env,
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def wait(self) -> None:
        for _ in range(1200):
            if self.process.poll() is not None:
                pytest.fail(f"./run.sh stopped:\n{self.log.read_text()[-4000:]}")
            try:
                _get(self.url + "/")
                return
            except OSError:
                time.sleep(0.25)
        pytest.fail(f"./run.sh did not serve:\n{self.log.read_text()[-4000:]}")

    def stop(self) -> str:
        self.process.send_signal(signal.SIGTERM)       # run.sh stops the server and the worker
        try:
            self.process.wait(timeout=60)
        finally:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return self.log.read_text()


def test_run_sh_serves_like_production_and_restarts_without_reinstalling(tmp_path):
    site = Site(tmp_path)
    try:
        site.wait()
        status, headers, page = _get(site.url + "/no/such/page/")
        assert status == 404 and '<nav class="site-nav"' in page and "Page not found" in page
        assert "URLconf" not in page and "DEBUG" not in page         # not Django's debug page
        assert headers.get("Server", "").startswith("gunicorn")
        home = _get(site.url + "/")[2]
        css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home)
        assert css, "static files are not the collected, hashed ones"
        status, headers, _ = _get(site.url + css.group(1))
        assert status == 200 and "max-age" in headers.get("Cache-Control", "")   # WhiteNoise
        key = tmp_path / "secret_key"
        assert key.exists() and stat.S_IMODE(key.stat().st_mode) == 0o600
        first_key = key.read_text()
    finally:
        first_log = site.stop()
    assert "Starting a Celery worker" in first_log

    again = Site(tmp_path)
    try:
        again.wait()
        assert _get(again.url + "/cards/")[0] == 200
    finally:
        log = again.stop()
    assert "pip skipped" in log and "Installing the project" not in log
    assert key.read_text() == first_key                      # generated once, kept


def test_run_sh_dev_keeps_runserver_with_debug(tmp_path):
    site = Site(tmp_path, "--dev")
    try:
        site.wait()
        status, headers, page = _get(site.url + "/no/such/page/")
        assert status == 404 and "URLconf" in page              # Django's debug page
        assert not headers.get("Server", "").startswith("gunicorn")
    finally:
        site.stop()
