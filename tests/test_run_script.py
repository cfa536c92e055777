"""``./run.sh`` serves the site as production does, on the embedded defaults, and restarts without
reinstalling; ``./run.sh --dev`` keeps Django's runserver with DEBUG on; a worker that dies is
restarted, and one that keeps dying stops the script loudly. Marked ``contract`` (it starts the
real script, worker included: about a minute each)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
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
    """Status, headers (their names as Title-Case: uvicorn sends them in lower case) and body."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return (response.status, {k.title(): v for k, v in response.headers.items()},
                    response.read().decode())
    except urllib.error.HTTPError as exc:
        return exc.code, {k.title(): v for k, v in exc.headers.items()}, exc.read().decode()


class Site:
    def __init__(self, var_dir: Path, *args: str, **env: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_BROKER_URL",
                                         "CACHE_URL", "CARDLAB_REINSTALL", "CARDLAB_WORKER_"))}
        self.env.update({"PORT": str(self.port), "CARDLAB_VAR_DIR": str(var_dir),
                         "WEB_CONCURRENCY": "1",
                         "CARDLAB_CELERY_QUEUE": f"run-script-test-{self.port}", **env})
        self.log = var_dir / f"run-{self.port}.log"
        self.process = subprocess.Popen(["./run.sh", *args], cwd=REPO_ROOT, env=self.env,
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

    def wait_for(self, condition, what: str, timeout: float = 300) -> None:
        """Poll ``condition`` until a deadline; the log's tail if it never holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                return
            time.sleep(0.25)
        pytest.fail(f"timed out waiting for {what}:\n{self.log.read_text()[-4000:]}")

    def worker_pids(self) -> list[int]:
        """The Celery workers ./run.sh has started, in order (it prints each one's pid)."""
        return [int(pid) for pid in
                re.findall(r"Celery worker running \(pid (\d+)\)", self.log.read_text())]

    def simulate(self) -> dict:
        """A small run submitted to the site's workers with ``simulate --via-celery``."""
        done = subprocess.run(
            [sys.executable, "manage.py", "simulate", "--via-celery", "--deck-a", "Ember Rush",
             "--deck-b", "Tidewall", "--games", "4", "--chunk-size", "2", "--agent-a", "random",
             "--agent-b", "random", "--seed", "1", "--json", "--timeout", "240"],
            cwd=REPO_ROOT, env=self.env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr + self.log.read_text()[-4000:]
        return json.loads(done.stdout)

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


@pytest.mark.long
def test_run_sh_serves_like_production_and_restarts_without_reinstalling(tmp_path):
    site = Site(tmp_path)
    try:
        site.wait()
        status, headers, page = _get(site.url + "/no/such/page/")
        assert status == 404 and '<nav class="site-nav"' in page and "Page not found" in page
        assert "URLconf" not in page and "DEBUG" not in page         # not Django's debug page
        assert headers.get("Server", "").startswith("uvicorn")  # gunicorn's ASGI workers
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


# Two games between people at their start, written into the database ./run.sh serves, and what
# the test needs to open their streams as the players: the games' ids and the sessions.
LIVE_GAMES = """
import json
from tools import play_load
from tools.management.commands.loadtest import public_deck
from decks.selectors import deck_counts
deck = public_deck()
games = play_load.live_games_make(2, {"name": deck.name, "hero": deck.hero.code,
                                      "cards": deck_counts(deck)})
print(json.dumps([[g.uid, [[p.name, p.session, p.csrf] for p in g.players]] for g in games]))
"""


@pytest.mark.long
def test_run_sh_answers_a_browsers_parallel_kept_alive_requests_without_5xx(tmp_path):
    """./run.sh as production (two processes), asked as browsers ask — eight connections kept
    alive, pages, card art, hashed static files and the API at once — while two games between
    people have both players' streams open: no answer is a 5xx, the streams stay open and
    still carry the moves (tests/test_serving.py asks the same of the test server)."""
    from tests.test_serving import ask_in_parallel
    from tools import play_load

    site = Site(tmp_path, WEB_CONCURRENCY="2")
    try:
        site.wait()
        # DEBUG off, as ./run.sh serves: the sessions are signed with the site's own key.
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c", LIVE_GAMES],
                              cwd=REPO_ROOT, env={**site.env, "DJANGO_DEBUG": "0"},
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        games = [play_load.LiveGame(uid, tuple(play_load.Player(*p) for p in players))
                 for uid, players in json.loads(made.stdout.strip().splitlines()[-1])]
        home = _get(site.url + "/")[2]
        cards = _get(site.url + "/cards/")[2]
        static = re.findall(r'(?:href|src)="(/static/[^"]+)"', home)
        art = re.findall(r'<img src="(/cards/[^"]+)"', cards)[:3]
        card_pages = re.findall(r'class="gallery-card" href="(/cards/[^"]+)"', cards)[:3]
        assert static and art and card_pages
        paths = ["/", "/cards/", "/cards/?q=k%3Aminion", "/rules/", "/api/cards/", "/health/",
                 "/play/", "/no/such/page/", *static, *art, *card_pages]
        streams = play_load.Streams("127.0.0.1", site.port, games)
        try:
            streams.open()
            statuses = ask_in_parallel("127.0.0.1", site.port, paths)
            open_after = streams.alive()
            delays, missed = play_load.propagation("127.0.0.1", site.port, games, streams, 2,
                                                   pause=0)
        finally:
            streams.close()
    finally:
        log = site.stop()
    assert not [s for s in statuses if not s.isdigit() or s >= "500"], (statuses, log[-4000:])
    assert statuses["200"] and statuses["404"] and statuses["302"]
    assert open_after == 4 and len(delays) == 2 and missed == 0, (delays, missed)
    assert "Traceback" not in log, log[-4000:]


@pytest.mark.long
def test_run_sh_dev_keeps_runserver_with_debug(tmp_path):
    site = Site(tmp_path, "--dev")
    try:
        site.wait()
        status, headers, page = _get(site.url + "/no/such/page/")
        assert status == 404 and "URLconf" in page              # Django's debug page
        assert not headers.get("Server", "").startswith(("gunicorn", "uvicorn"))
    finally:
        site.stop()


@pytest.mark.long
def test_run_sh_restarts_a_worker_that_died_and_stops_loudly_if_it_keeps_dying(tmp_path):
    site = Site(tmp_path, CARDLAB_WORKER_RESTARTS="1")
    try:
        site.wait()
        site.wait_for(lambda: site.log.read_text().count(" ready.") == 1, "the worker")
        (first,) = site.worker_pids()
        os.kill(first, signal.SIGKILL)               # the worker dies: runs could only queue
        site.wait_for(lambda: len(site.worker_pids()) == 2, "the worker to be restarted")
        assert "The Celery worker died (exit status 137); restarting it" in site.log.read_text()
        site.wait_for(lambda: site.log.read_text().count(" ready.") == 2,
                      "the new worker to be ready")
        assert site.simulate()["games"] == 4       # the new worker plays what is submitted

        os.kill(site.worker_pids()[1], signal.SIGKILL)   # a second death: one restart allowed
        status = site.process.wait(timeout=120)
        log = site.log.read_text()
        assert status == 1, log[-4000:]
        assert "The Celery worker died (exit status 137), 2 times within 600 s: stopping" in log
        assert len(site.worker_pids()) == 2                       # not restarted again
        with pytest.raises(OSError):
            _get(site.url + "/")                                  # the site is down with it
    finally:
        site.stop()
