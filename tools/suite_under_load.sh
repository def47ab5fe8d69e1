#!/usr/bin/env bash
# The flake hunt of docs/TESTING.md: run the README's test command RUNS times (default 3)
# with three CPU hogs beside it, so that the machine's load stays at 6 or more, as CI's
# shared machine can be; each run's result, time and load go to stdout, and a failing run's
# summary lines too. The database is the one TEST_DATABASE_URL names (SQLite without it);
# TEST_CLOCK moves every clock of the run (tests/clock/sitecustomize.py). Extra arguments
# go to pytest, e.g. `tools/suite_under_load.sh 3 -m "'not one_database'"`.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
hogs=()
for _ in 1 2 3; do
  ( while :; do :; done ) &
  hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
failed=0
for run in $(seq 1 "$runs"); do
  log=$(mktemp)
  started=$(date +%s)
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  make test PYTEST_ARGS="$*" >"$log" 2>&1
  status=$?
  took=$(( $(date +%s) - started ))
  echo "run $run: exit $status, $((took / 60)) min $((took % 60)) s, load $load_before → $(cut -d' ' -f1-3 /proc/loadavg): $(grep -E '^=+ .*(passed|failed|error).* =+$' "$log" | tail -1)"
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    grep -E "^(FAILED|ERROR) |^FAIL Required test coverage" "$log"
    grep -E "^E  " "$log" | head -40
  fi
  rm -f "$log"
done
echo "$failed of $runs runs failed"
[ "$failed" -eq 0 ]
