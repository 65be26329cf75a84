#!/usr/bin/env bash
# The ePSKc commissioner (issue 31), side by side in one run: a whole `tbrctl network fetch` (process
# start, key check, DTLS EC-JPAKE handshake, MGMT_ACTIVE_GET, close_notify, the dataset printed) against
# otbr-sim's border agent, next to bench/fetch-raw.c doing the same handshake and c/ag in plain C on the
# same mbedTLS. Each round activates a fresh key on the simulator first (the key is single use); only
# the fetch itself is timed. Release build with the Swift runtime linked in (bench/products.sh).
# Usage: bench/fetch.sh [ROUNDS]   (default 30 per tool). Goal: tbrctl <= 1.2x the C client.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "usage: bench/fetch.sh [ROUNDS>=1]" >&2; exit 64; }
scripts/mbedtls.sh
source bench/products.sh
source scripts/private-bus.sh
bench_products installed otbr-sim tbrctl
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cc=${CC:-cc}
command -v "$cc" >/dev/null || cc=/opt/swift/usr/bin/clang
"$cc" -O2 -I .build/mbedtls/include -o "$work/fetch-raw" bench/fetch-raw.c -L .build/mbedtls/lib -lmbedtls -lmbedx509 -lmbedcrypto

private_bus "$work/bus"
bus="unix:path=$work/bus"
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15)
"$bin/otbr-sim" --bus "$bus" --dataset "$dataset" --role-delay 100 --disconnect-guard 1 > "$work/sim.log" 2>&1 & pids+=($!)
until grep -q '^ready ' "$work/sim.log"; do sleep 0.05; done
agent=(busctl --address="$bus" call io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter)
sim=(busctl --address="$bus" call io.openthread.BorderRouter.wpan0 /io/tbrd/Simulator/wpan0 io.tbrd.Simulator1)
until busctl --address="$bus" get-property io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 \
  io.openthread.BorderRouter DeviceRole | grep -q leader; do sleep 0.05; done

key="" port=""
fresh_key() { # a new key and its port, once the previous one has stopped
  until "${sim[@]}" EphemeralKeyTransport | grep -q stopped; do sleep 0.01; done
  key=$("${agent[@]}" ActivateEphemeralKeyMode u 60000 | awk '{ gsub(/"/, "", $2); print $2 }')
  port=$("${sim[@]}" EphemeralKeyTransport | awk '{ print $3 }')
}
raw_total=0 tbrctl_total=0
for ((i = 0; i < rounds; i++)); do
  fresh_key
  t0=$(date +%s%N); "$work/fetch-raw" "$port" "$key" >/dev/null; t1=$(date +%s%N)
  raw_total=$((raw_total + t1 - t0))
  fresh_key
  t0=$(date +%s%N); "$bin/tbrctl" network fetch --key "$key" --from "127.0.0.1:$port" >/dev/null 2>&1; t1=$(date +%s%N)
  tbrctl_total=$((tbrctl_total + t1 - t0))
done
raw_ms=$(awk -v t="$raw_total" -v n="$rounds" 'BEGIN { printf "%.2f", t / n / 1e6 }')
tbrctl_ms=$(awk -v t="$tbrctl_total" -v n="$rounds" 'BEGIN { printf "%.2f", t / n / 1e6 }')
echo "an ePSKc fetch from otbr-sim on loopback, mean of $rounds runs each, alternating (ms per run, lower is better)"
printf '%-52s %10s\n' "plain C client on the same mbedTLS (bench/fetch-raw.c)" "$raw_ms"
printf '%-52s %10s  %s\n' "tbrctl network fetch" "$tbrctl_ms" "$(awk -v a="$tbrctl_ms" -v b="$raw_ms" 'BEGIN { printf "%.2fx C client", a / b }')"
