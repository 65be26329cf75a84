#!/usr/bin/env bash
# tbrd and tbrctl against otbr-sim on a private bus, side by side with the C tools in one run:
#   - `tbrctl --version` vs a static Swift "hello"
#   - `tbrctl info` vs `busctl get-property` of the same properties from otbr-agent
#   - `tbrctl epskc activate` (+ deactivate) vs `busctl call` of ActivateEphemeralKeyMode (+ Deactivate)
#     (and `dbus-send` for reference)
#   - tbrd's resident memory idle with 1 and with 64 routers, and its CPU time idling (a minute)
# Each compared pair runs alternately, one run of each per round, so that both see the same moments of
# a busy machine; the ratio is of the medians (the means are printed too: a few slow runs pull them).
# Release build with the Swift runtime linked in, as `make install` builds it (bench/products.sh).
# Usage: bench/tbrd.sh [ROUNDS]   (default 30 command runs per tool; IDLE_SECONDS=… for the idle CPU, 60;
#        KEEP_MS=PREFIX keeps every run's nanoseconds, one file per command named PREFIX.LABEL.a|b)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
idle=${IDLE_SECONDS:-60}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 && $idle =~ ^[0-9]+$ && $idle -ge 1 ]] ||
  { echo "usage: [IDLE_SECONDS=N] bench/tbrd.sh [ROUNDS>=1]" >&2; exit 64; }
source bench/products.sh
source scripts/private-bus.sh
bench_products installed tbrd otbr-sim tbrctl
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

private_bus "$work/bus"
bus="unix:path=$work/bus"
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15)

start_sim() { # start_sim N: otbr-sim with wpan0..wpanN-1 as one process
  local args=() i
  for ((i = 0; i < $1; i++)); do args+=(--interface "wpan$i"); done
  "$bin/otbr-sim" --bus "$bus" --dataset "$dataset" --role-delay 100 "${args[@]}" > "$work/sim.log" 2>&1 & pids+=($!)
  sim=$!
  until [ "$(grep -c ready "$work/sim.log")" -ge "$1" ]; do sleep 0.05; done
}
start_tbrd() {
  rm -rf "$work/state"
  # No structure here needs firewall rules; firewall = off keeps tbrd away from this host's nftables.
  echo "firewall = off" > "$work/tbrd.conf"
  "$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 & pids+=($!)
  tbrd=$!
  until busctl --address="$bus" status io.tbrd >/dev/null 2>&1; do sleep 0.05; done
}
ms() { date +%s%N; }
per_call() { # per_call COMMAND... : mean milliseconds over $rounds runs
  local t0 t1 i
  t0=$(ms)
  for ((i = 0; i < rounds; i++)); do "$@" >/dev/null; done
  t1=$(ms)
  awk -v a="$t0" -v b="$t1" -v n="$rounds" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
}
side_by_side() { # side_by_side LABEL-A CMD-A LABEL-B CMD-B GOAL: A and B alternately, $rounds runs each
  local la=$1 a=$2 lb=$3 b=$4 goal=$5 t0 t1 i
  : > "$work/a.ms"; : > "$work/b.ms"
  for ((i = 0; i < rounds; i++)); do
    t0=$(ms); $a >/dev/null; t1=$(ms); echo $((t1 - t0)) >> "$work/a.ms"
    t0=$(ms); $b >/dev/null; t1=$(ms); echo $((t1 - t0)) >> "$work/b.ms"
  done
  local stats='{ v[NR] = $1; sum += $1 } END { printf "%.2f %.2f\n", v[int((NR + 1) / 2)] / 1e6, sum / NR / 1e6 }'
  if [ -n "${KEEP_MS:-}" ]; then cp "$work/a.ms" "$KEEP_MS.$la.a"; cp "$work/b.ms" "$KEEP_MS.$lb.b"; fi
  read -r ma mean_a < <(sort -n "$work/a.ms" | awk "$stats")
  read -r mb mean_b < <(sort -n "$work/b.ms" | awk "$stats")
  printf '%-44s %10s %10s\n' "$la" "$ma" "$mean_a"
  printf '%-44s %10s %10s  %s\n' "$lb" "$mb" "$mean_b" "$(awk -v a="$mb" -v b="$ma" -v g="$goal" 'BEGIN { printf "%.2fx (goal <= %s)", a / b, g }')"
}
rss_kib() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

start_sim 1
sleep 0.5
props=(DeviceRole NetworkName PanId ExtPanId Channel OtbrVersion)
busctl_one() { busctl --address="$bus" get-property io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter "${props[@]}"; }
bc_epskc() {
  busctl --address="$bus" call io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter ActivateEphemeralKeyMode u 60000
  busctl --address="$bus" call io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter DeactivateEphemeralKeyMode b false
}
ds_epskc() {
  dbus-send --bus="$bus" --print-reply --dest=io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter.ActivateEphemeralKeyMode uint32:60000
  dbus-send --bus="$bus" --print-reply --dest=io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter.DeactivateEphemeralKeyMode boolean:false
}
start_tbrd
tbrctl_info() { "$bin/tbrctl" --bus "$bus" info -d wpan0; }
tbrctl_epskc() { "$bin/tbrctl" --bus "$bus" epskc activate -d wpan0 --duration 60; "$bin/tbrctl" --bus "$bus" epskc deactivate -d wpan0; }

# A static Swift "hello", built the way tbrctl is, for the start-up goal.
mkdir -p "$work/hello" && echo 'print("hello")' > "$work/hello/hello.swift"
swiftc -O -static-stdlib "$work/hello/hello.swift" -o "$work/hello/hello" -Xlinker -no-pie 2>/dev/null

hello() { "$work/hello/hello"; }
tbrctl_version() { "$bin/tbrctl" --version; }

echo "$rounds runs of each command, alternating with the one it is compared to"
echo "(ms per run, lower is better; the ratio is of the medians)"
printf '%-44s %10s %10s\n' "start-up" median mean
side_by_side "static Swift hello" hello "tbrctl --version" tbrctl_version 1.5x
echo
printf '%-44s %10s %10s\n' "round-trip commands" median mean
side_by_side "busctl get-property (one run, 6 properties)" busctl_one "tbrctl info (through tbrd)" tbrctl_info 1.2x
side_by_side "busctl call activate + deactivate" bc_epskc "tbrctl epskc activate + deactivate (tbrd)" tbrctl_epskc 1.2x
printf '%-44s %21s\n' "dbus-send activate + deactivate (mean)" "$(per_call ds_epskc)"

sleep 1
rss1=$(rss_kib "$tbrd")
c0=$(cpu_ticks "$tbrd"); sleep "$idle"; c1=$(cpu_ticks "$tbrd")
hz=$(getconf CLK_TCK)
echo
echo "tbrd idle with 1 router:   RSS $rss1 KiB; CPU over $idle s idle: $(awk -v t=$((c1 - c0)) -v hz="$hz" 'BEGIN { printf "%.2f s", t / hz }')"
kill "$tbrd" "$sim"; wait "$tbrd" "$sim" 2>/dev/null || true

start_sim 64
start_tbrd
until [ "$(busctl --address="$bus" call io.tbrd /io/tbrd io.tbrd.Manager1 ListBorderRouters | awk '{print $2}')" = 64 ]; do sleep 0.1; done
sleep 2
rss64=$(rss_kib "$tbrd")
echo "tbrd idle with 64 routers: RSS $rss64 KiB; per extra router $(( (rss64 - rss1) / 63 )) KiB"
