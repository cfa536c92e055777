#!/usr/bin/env bash
# Run the whole test suite. Arguments go to pytest (e.g. ./test.sh tests/rules -x).
#   PYTHON=python3   the interpreter used to create .venv (Python >= 3.11)
set -euo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3}"

# shellcheck source=scripts/install.sh
source scripts/install.sh
cardlab_install dev        # skipped when nothing the install depends on changed
# shellcheck disable=SC1091
source .venv/bin/activate

# Browser tests drive Debian's Chromium (never a browser downloaded by Playwright), with a
# CJK font so Chinese card names render in the screenshots the tests keep; Debian's Node runs
# the page scripts' parity tests.
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing="$missing fonts-wqy-microhei"
# Node runs the run estimate's script beside the Python it mirrors (its parity test).
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> Installing Debian's$missing for the browser and script tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null || echo "==> could not install$missing"
  else
    echo "==> missing$missing and not root: browser and script tests may be skipped"
  fi
fi

echo "==> Running the tests"
python -m pytest "$@"
