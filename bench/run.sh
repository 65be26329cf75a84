#!/usr/bin/env bash
# Runs every benchmark: in full (make bench, the figures of docs/performance.md), or in quick mode
# (make bench-quick, which .ci/run runs after make test): small counts, on the debug build make test
# made, to prove that each script still runs to the end. Quick mode asserts no speed.
#   bench/run.sh [--quick]
# Fails when a script fails or prints no ratio: each compares tbrd's code with a reference and prints
# the comparison as a figure like "4.10x"; a script that prints none (or 0.00x) measured nothing.
# Each script's output is also kept in bench/build/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1-} in
  "") quick=0 ;;
  --quick) quick=1 ;;
  *) echo "usage: bench/run.sh [--quick]" >&2; exit 64 ;;
esac

# name, then the command: its quick mode, or its full run.
if [ "$quick" -eq 1 ]; then
  export BENCH_BUILD=debug
  runs=("dbus|env CALLS=500 bench/dbus.sh"
        "meshcop|bench/meshcop.sh 2000"
        "matter|bench/matter.sh 2000"
        "tbrd|env IDLE_SECONDS=1 bench/tbrd.sh 3"
        "policy|bench/policy.sh 3"
        "rest|bench/rest.sh 3"
        "fetch|bench/fetch.sh 3"
        "http|bench/http.sh 3 10 3"
        "backup|env ROUTERS=8 bench/backup.sh 1"
        "health|env ROUTERS=8 IDLE_SECONDS=1 bench/health.sh 2"
        "mqtt|bench/mqtt.sh 2 4")
else
  runs=("dbus|bench/dbus.sh" "meshcop|bench/meshcop.sh" "matter|bench/matter.sh" "tbrd|bench/tbrd.sh"
        "policy|bench/policy.sh" "rest|bench/rest.sh" "fetch|bench/fetch.sh" "http|bench/http.sh" "backup|bench/backup.sh"
        "health|bench/health.sh" "mqtt|bench/mqtt.sh")
fi

logs=bench/build/logs
mkdir -p "$logs"
failed=()
summary=()
for run in "${runs[@]}"; do
  name=${run%%|*}
  read -r -a command <<<"${run#*|}"
  echo "== ${command[*]}"
  start=$SECONDS
  status=0
  "${command[@]}" 2>&1 | tee "$logs/$name.log" || status=$?
  took=$((SECONDS - start))
  # A ratio: a decimal number followed by "x" and a space or the end of the line, greater than zero.
  ratios=$(grep -oE '[0-9]+\.[0-9]+x([[:space:]]|$)' "$logs/$name.log" | tr -d 'x \t' || true)
  if [ "$status" -ne 0 ]; then
    failed+=("$name (exit $status)")
  elif [ -z "$ratios" ]; then
    failed+=("$name (printed no ratio)")
  elif awk '$1 + 0 <= 0 { zero = 1 } END { exit !zero }' <<<"$ratios"; then
    failed+=("$name (a ratio of 0)")
  fi
  summary+=("$(printf '%-8s %4d s  %s' "$name" "$took" "$(tr '\n' ' ' <<<"$ratios")")")
done

echo
echo "bench: ratios per script ($([ "$quick" -eq 1 ] && echo "quick mode: they say nothing about speed" || echo "full runs"))"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: FAILED: ${failed[*]}; their output is in $logs/" >&2
  exit 1
fi
