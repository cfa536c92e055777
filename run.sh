#!/usr/bin/env bash
# Install what changed, prepare the database, load the card set, start a Celery worker and the
# site, served as in production: gunicorn, DEBUG off, the site's own error pages, static files
# collected and served by WhiteNoise, a secret key generated once into var/secret_key.
#   ./run.sh --dev        Django's runserver instead: reloads on edits, DEBUG on
#   ./run.sh --with-sample-games   also load the four other games' rule books and sample card
#                         sets (load_formats rules/data/games/*.yaml); combines with --dev
#   PORT=8000 (default)   the port the site listens on
#   HOST=127.0.0.1 (default) the address it listens on: this machine only; HOST=0.0.0.0 for
#                         every interface (behind a firewall or a TLS proxy)
#   WEB_CONCURRENCY=2     gunicorn worker processes
#   PYTHON=python3        the interpreter used to create .venv (Python >= 3.11)
#   CARDLAB_WORKER_RESTARTS=5, CARDLAB_WORKER_RESTART_WINDOW=600
#                         a worker that dies is restarted, up to this many times within this
#                         many seconds; one more death stops the whole script (status 1)
set -euo pipefail
cd "$(dirname "$0")"

PORT="${PORT:-8000}"
HOST="${HOST:-127.0.0.1}"
PYTHON="${PYTHON:-python3}"
MODE="production"
SAMPLE_GAMES=""
for arg in "$@"; do
  case "$arg" in
    --dev) MODE="development" ;;
    --with-sample-games) SAMPLE_GAMES=1 ;;
    *) echo "usage: ./run.sh [--dev] [--with-sample-games]" >&2; exit 2 ;;
  esac
done

# shellcheck source=scripts/install.sh
source scripts/install.sh
cardlab_install dev
# shellcheck disable=SC1091
source .venv/bin/activate

if [ "$MODE" = "production" ]; then
  # DEBUG off on the embedded defaults (SQLite, filesystem broker, this machine's addresses);
  # settings read the secret key from var/secret_key, made on first use.
  export DJANGO_DEBUG="${DJANGO_DEBUG:-0}"
fi

if [ "$MODE" = "production" ]; then
  # First: with DEBUG off, the commands below warn (cardlab.W001) while nothing is collected.
  echo "==> Collecting static files"
  python manage.py collectstatic --noinput -v 0
fi

echo "==> Preparing the database"
python manage.py migrate --noinput    # makes the throttles' cache table too (without Redis)
python manage.py createcachetable     # a no-op after migrate; kept for a cache switched later

if python manage.py help load_cards >/dev/null 2>&1; then
  echo "==> Loading the card set"
  python manage.py load_cards
fi

if [ -n "$SAMPLE_GAMES" ]; then
  echo "==> Loading the other games' rule books and sample card sets"
  python manage.py load_formats rules/data/games/*.yaml
fi

RESTARTS="${CARDLAB_WORKER_RESTARTS:-5}"
RESTART_WINDOW="${CARDLAB_WORKER_RESTART_WINDOW:-600}"
WORKER_PID=""
SERVER_PID=""
NAP_PID=""

start_worker() {
  celery -A config worker -l info --concurrency 2 &
  WORKER_PID=$!
  echo "==> Celery worker running (pid $WORKER_PID)"
}

# Whatever ends the script (the server stopping, Ctrl-C, a TERM, a worker that keeps dying),
# stop both processes.
cleanup() {
  trap - EXIT INT TERM
  for pid in $SERVER_PID $WORKER_PID $NAP_PID; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $SERVER_PID $WORKER_PID; do
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "==> Starting a Celery worker"
start_worker

echo "==> Starting the site ($MODE) on http://${HOST}:${PORT}/ (Ctrl-C stops it and the worker)"
# In the background with `wait`, so a signal to this script is handled at once.
if [ "$MODE" = "production" ]; then
  # --limit-request-line: gunicorn's largest (its default, 4094, is below the site's own
  # 4,096-character query limit), so an over-long address gets the site's 414 page, not a bare one.
  # ASGI (uvicorn's worker under gunicorn): a game between people is followed by server-sent
  # events, open connections that wait; under ASGI each is a coroutine, not a held worker.
  gunicorn config.asgi:application -k config.asgi_worker.Worker \
    --bind "${HOST}:${PORT}" --workers "${WEB_CONCURRENCY:-2}" \
    --access-logfile - --graceful-timeout 10 --limit-request-line 8190 &
else
  python manage.py runserver "${HOST}:${PORT}" &
fi
SERVER_PID=$!

# Watch both: a site whose worker is gone would take simulations that only ever queue. A dead
# worker is restarted, with a message; if it keeps dying, everything stops, loudly.
DEATHS=""          # when the worker died ($SECONDS), within the last RESTART_WINDOW seconds
while kill -0 "$SERVER_PID" 2>/dev/null; do
  if ! kill -0 "$WORKER_PID" 2>/dev/null; then
    status=0
    wait "$WORKER_PID" || status=$?
    recent=""
    count=0
    for t in $DEATHS $SECONDS; do
      if [ $((SECONDS - t)) -lt "$RESTART_WINDOW" ]; then
        recent="$recent $t"
        count=$((count + 1))
      fi
    done
    DEATHS="$recent"
    if [ "$count" -gt "$RESTARTS" ]; then
      {
        echo "!!! The Celery worker died (exit status $status), $count times within" \
          "${RESTART_WINDOW} s: stopping the site, whose simulations could only queue."
        echo "!!! Read the worker's log above for why, fix it, then start ./run.sh again."
      } >&2
      exit 1
    fi
    echo "==> The Celery worker died (exit status $status); restarting it" \
      "(restart $count of at most $RESTARTS within ${RESTART_WINDOW} s)" >&2
    start_worker
  fi
  sleep 1 &
  NAP_PID=$!
  wait "$NAP_PID" || true
  NAP_PID=""
done
wait "$SERVER_PID"
