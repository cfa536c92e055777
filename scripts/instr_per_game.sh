#!/usr/bin/env bash
# Instructions per game and per action of the engine, counted by callgrind (valgrind): a count
# that does not move with the machine's load, so a regression shows as a number, not a feeling.
# Run from the project root:  scripts/instr_per_game.sh [AGENT] [legacy]
# AGENT: random (default), greedy, or a planning agent (search, planner, lean: self-play too, a
# few minutes). "legacy" plays every optional skill unasked (the games of the engine before
# R6.1). Two runs (60 and 300 games; 2 and 8 for a planning agent, two games on each of the
# first pairings) are subtracted, so Python's start-up and imports cancel out. Figures and
# history: rules/engine/README.md, "Benchmark"; the planners: docs/lean-planner.md.
set -euo pipefail
agent="${1:-random}"; mode="${2:-}"
T="$(cd "$(dirname "$0")" && pwd)/instr_per_game.py"
PY="${PYTHON:-.venv/bin/python}"
run() {
  local out; out=$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PY" "$T" "$agent" "$1" $mode 2>&1)
  echo "$(sed -n 's/.*Collected : //p' <<<"$out") $(grep -E '^[0-9]+ [0-9]+$' <<<"$out" | tail -1)"
}
case "$agent" in random|greedy) few=60 many=300 ;; *) few=2 many=8 ;; esac
read -r ia ga aa <<<"$(run $few)"; read -r ib gb ab <<<"$(run $many)"
echo "$agent${mode:+ ($mode)}: $(( (ib - ia) / (gb - ga) )) instructions/game, $(( (ib - ia) / (ab - aa) )) instructions/action"
