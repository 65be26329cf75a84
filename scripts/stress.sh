#!/usr/bin/env bash
# The HTTP server's and the HTTPS API's suites, again and again, with stress-ng keeping both cores busy
# (make stress; CI runs it): a server whose answers wait on something that a busy machine delays forever
# (a thread pool that blocking work fills) fails here, where it passed alone in 0.02 s (issue 46).
#   scripts/stress.sh [RUNS [LOAD_RUNS]]   (6 and 1: the load suite takes 30 s a run by design)
# Each run is `swift test --skip-build` on the debug build make test made. Stops at the first failure
# and prints its output.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-6} load_runs=${2:-1}
command -v stress-ng >/dev/null || { echo "scripts/stress.sh needs stress-ng (make stress installs it)" >&2; exit 69; }
log=$(mktemp)
stress-ng --cpu 2 --timeout 3600 --quiet & stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true; rm -f "$log"' EXIT
suite() { # suite NAME FILTER RUNS
  local i start
  for ((i = 1; i <= $3; i++)); do
    start=$(date +%s)
    if ! swift test --skip-build --filter "$2" > "$log" 2>&1; then
      cat "$log"
      echo "stress: $1 failed on run $i of $3 under stress-ng --cpu 2" >&2
      exit 1
    fi
    echo "stress: $1 run $i of $3 passed ($(( $(date +%s) - start )) s): $(grep -Eo 'Test run with [0-9]+ tests' "$log" | tail -1)"
  done
}
suite "HTTP server and API" 'HTTPServerTests|ConnectionTableTests|HTTPAPITests|HTTPAPIResourceTests' "$runs"
suite "API under load" 'HTTPAPILoadTests' "$load_runs"
echo "$(( runs + load_runs )) passed, 0 failed"
