#!/usr/bin/env bash
# Install everything, prepare the database, load the card set, start a Celery worker and the site.
#   PORT=8000 (default)   the port the site listens on (all interfaces)
#   PYTHON=python3        the interpreter used to create .venv (Python >= 3.11)
set -euo pipefail
cd "$(dirname "$0")"

PORT="${PORT:-8000}"
PYTHON="${PYTHON:-python3}"

if [ ! -x .venv/bin/python ]; then
  echo "==> Creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
# shellcheck disable=SC1091
source .venv/bin/activate

echo "==> Installing the project and its dependencies"
python -m pip install --quiet -e ".[dev]"
echo "==> Game engine: $(python -m rules.engine.compiled)"

echo "==> Preparing the database"
python manage.py migrate --noinput

if python manage.py help load_cards >/dev/null 2>&1; then
  echo "==> Loading the card set"
  python manage.py load_cards
fi

echo "==> Starting a Celery worker"
celery -A config worker -l info --concurrency 2 &
WORKER_PID=$!
SERVER_PID=""

# Whatever ends the script (the server stopping, Ctrl-C, a TERM), stop both processes.
cleanup() {
  trap - EXIT INT TERM
  for pid in $SERVER_PID $WORKER_PID; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $SERVER_PID $WORKER_PID; do
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "==> Starting the site on http://127.0.0.1:${PORT}/ (Ctrl-C stops it and the worker)"
# In the background with `wait`, so a signal to this script is handled at once.
python manage.py runserver "0.0.0.0:${PORT}" &
SERVER_PID=$!
wait "$SERVER_PID"
