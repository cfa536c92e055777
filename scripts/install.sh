# Sourced by ./run.sh and ./test.sh: create .venv, install the project into it when something the
# install depends on changed, and build the compiled engine when one of its sources changed.
#
# The last install's inputs are stamped in .venv/.cardlab-install: the interpreter, the extras
# and the hashes of INSTALL_INPUTS (the dependencies and the build hook). With an unchanged
# stamp, pip is skipped entirely. The engine is compiled by `python -m rules.compiled
# --build`, which does nothing when no engine source changed since the last build. So a restart
# with nothing changed takes seconds, not a reinstall and a recompile. CARDLAB_REINSTALL=1 forces
# the install.

INSTALL_INPUTS="pyproject.toml setup.py"
INSTALL_STAMP=".venv/.cardlab-install"

cardlab_install_stamp() {
  # $1: the extras installed, e.g. "dev"
  echo "python=$(.venv/bin/python -c 'import sys; print(sys.version.split()[0])')"
  echo "extras=$1"
  # shellcheck disable=SC2086
  sha256sum $INSTALL_INPUTS
}

cardlab_install_is_current() {
  [ -f "$INSTALL_STAMP" ] || return 1
  [ "${CARDLAB_REINSTALL:-0}" = "0" ] || return 1
  [ "$(cardlab_install_stamp "$1")" = "$(cat "$INSTALL_STAMP")" ]
}

cardlab_install() {
  # $1: the extras to install, e.g. "dev"
  local extras="$1"
  if [ ! -x .venv/bin/python ]; then
    echo "==> Creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
  fi
  if cardlab_install_is_current "$extras"; then
    echo "==> The installed project is up to date (pip skipped; CARDLAB_REINSTALL=1 forces it)"
  else
    echo "==> Installing the project and its dependencies"
    rm -f "$INSTALL_STAMP"
    # The engine is compiled by the next step, and only when its sources changed.
    CARDLAB_BUILD_ENGINE=0 .venv/bin/python -m pip install --quiet -e ".[$extras]"
    cardlab_install_stamp "$extras" > "$INSTALL_STAMP"
  fi
  echo "==> Game engine: $(.venv/bin/python -m rules.compiled --build)"
}
