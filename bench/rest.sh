#!/usr/bin/env bash
# A border router on another host (issue 21), side by side in one run: `tbrctl info` on a router tbrd
# reaches through otbr-agent's REST API, against `curl` of the same REST endpoints tbrd reads for it
# (GET /node, GET /node/dataset/active as hex, GET /node/ba-epskc/state), one curl run per round with
# the three URLs on one connection. otbr-sim serves REST on loopback; tbrd runs on a private bus.
# Release build with the Swift runtime linked in, as `make install` builds it (bench/products.sh).
# Usage: bench/rest.sh [ROUNDS]   (default 30 runs per tool)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "usage: bench/rest.sh [ROUNDS>=1]" >&2; exit 64; }
command -v curl >/dev/null || { echo "bench/rest.sh needs curl (apt-get install curl; make bench-deps)" >&2; exit 69; }
source bench/products.sh
source scripts/private-bus.sh
bench_products installed tbrd otbr-sim tbrctl
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

private_bus "$work/bus"
bus="unix:path=$work/bus"
# The agent gets a bus of its own: tbrd reaches it over HTTP only.
private_bus "$work/agent-bus"
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15)

"$bin/otbr-sim" --bus "unix:path=$work/agent-bus" --dataset "$dataset" --role-delay 100 --rest 127.0.0.1:0 > "$work/sim.log" 2>&1 & pids+=($!)
until grep -q '^rest wpan0 ' "$work/sim.log"; do sleep 0.05; done
url=$(awk '/^rest wpan0 / { print $3 }' "$work/sim.log")
printf 'firewall = off\nrest-poll-interval = 5\n' > "$work/tbrd.conf"
"$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 & pids+=($!)
until busctl --address="$bus" status io.tbrd >/dev/null 2>&1; do sleep 0.05; done
id=$("$bin/tbrctl" --bus "$bus" --json router add "$url" | awk -F'"' '/"id"/ { print $4 }')
until "$bin/tbrctl" --bus "$bus" info -d "$id" | grep -q leader; do sleep 0.1; done

ms() { date +%s%N; }
per_call() { # per_call COMMAND... : mean milliseconds over $rounds runs
  local t0 t1 i
  t0=$(ms)
  for ((i = 0; i < rounds; i++)); do "$@" >/dev/null; done
  t1=$(ms)
  awk -v a="$t0" -v b="$t1" -v n="$rounds" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
}
curl_same() { curl -sf "$url/node" -H 'Accept: text/plain' "$url/node/dataset/active" "$url/node/ba-epskc/state"; }
tbrctl_info() { "$bin/tbrctl" --bus "$bus" info -d "$id"; }

echo "a router reached through REST ($url as $id), mean of $rounds runs (ms per run, lower is better)"
curl_ms=$(per_call curl_same); info_ms=$(per_call tbrctl_info)
printf '%-52s %10s\n' "curl of /node, /node/dataset/active, ba-epskc/state" "$curl_ms"
printf '%-52s %10s  %s\n' "tbrctl info (through tbrd)" "$info_ms" "$(awk -v a="$info_ms" -v b="$curl_ms" 'BEGIN { printf "%.2fx curl", a / b }')"
