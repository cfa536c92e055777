#!/usr/bin/env bash
# Install what changed, prepare the database, load the card set, start a Celery worker and the
# site, served as in production: gunicorn, DEBUG off, the site's own error pages, static files
# collected and served by WhiteNoise, a secret key generated once into var/secret_key.
#   ./run.sh --dev        Django's runserver instead: reloads on edits, DEBUG on
#   ./run.sh --with-sample-games   also load the four other games' rule books and sample card
#                         sets (load_formats rules/data/games/*.yaml); combines with --dev
#   PORT=8000 (default)   the port the site listens on (all interfaces)
#   WEB_CONCURRENCY=2     gunicorn worker processes
#   PYTHON=python3        the interpreter used to create .venv (Python >= 3.11)
set -euo pipefail
cd "$(dirname "$0")"

PORT="${PORT:-8000}"
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

echo "==> Preparing the database"
python manage.py migrate --noinput
python manage.py createcachetable     # the shared cache for throttles (when no Redis is set)

if python manage.py help load_cards >/dev/null 2>&1; then
  echo "==> Loading the card set"
  python manage.py load_cards
fi

if [ -n "$SAMPLE_GAMES" ]; then
  echo "==> Loading the other games' rule books and sample card sets"
  python manage.py load_formats rules/data/games/*.yaml
fi

if [ "$MODE" = "production" ]; then
  echo "==> Collecting static files"
  python manage.py collectstatic --noinput -v 0
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

echo "==> Starting the site ($MODE) on http://127.0.0.1:${PORT}/ (Ctrl-C stops it and the worker)"
# In the background with `wait`, so a signal to this script is handled at once.
if [ "$MODE" = "production" ]; then
  gunicorn config.wsgi --bind "0.0.0.0:${PORT}" --workers "${WEB_CONCURRENCY:-2}" \
    --access-logfile - --graceful-timeout 10 &
else
  python manage.py runserver "0.0.0.0:${PORT}" &
fi
SERVER_PID=$!
wait "$SERVER_PID"
