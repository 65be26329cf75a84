#!/usr/bin/env bash
# The internet-access policy at scale: N otbr-sim routers (one process, --interface N times, built with
# DHCPv6-PD) in one structure; the time from writing Structure1.InternetAccessOption (Properties.Set)
# until a PropertiesChanged of PolicyStatus says "applied" for all N (a python3-dbus client that waits
# for the signal, so the measurement does not load the machine), for N = 8, 16, 32 and 64, cycling
# none → all → nat64Only so that every change switches NAT64, PD and the firewall on every router.
# As root tbrd runs in a network namespace of its own with its real nftables firewall (never this host's);
# otherwise with firewall = off (the output says which).
# Release build with the Swift runtime linked in, as `make install` builds it (bench/products.sh).
# Usage: bench/policy.sh [ROUNDS]   (default 15 changes per N, 5 of each option; at least 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-15}
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 3 ] || { echo "usage: bench/policy.sh [ROUNDS>=3]" >&2; exit 64; }
source bench/products.sh
source scripts/private-bus.sh
bench_products installed tbrd otbr-sim tbrctl
work=$(mktemp -d)
pids=()
netns=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -z "$netns" ] || ip netns del "$netns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

private_bus "$work/bus" '<limit name="max_replies_per_connection">4096</limit>'
bus="unix:path=$work/bus"
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15)

in_ns=()
if [ "$(id -u)" -eq 0 ] && command -v nft >/dev/null && ip netns add "tbrd-bench-$$" 2>/dev/null; then
  netns="tbrd-bench-$$"
  ip -n "$netns" link set lo up
  ip -n "$netns" link add wpan0 type veth peer name eth0
  ip -n "$netns" addr add 2001:db8:1::1/64 dev eth0 nodad
  ip -n "$netns" link set eth0 up
  in_ns=(ip netns exec "$netns")
  : > "$work/tbrd.conf"
  echo "tbrd in network namespace $netns, firewall on (nft $(nft --version | awk '{print $2}'))"
else
  echo "firewall = off" > "$work/tbrd.conf"
  echo "not root: tbrd runs with firewall = off (NAT64 and PD only)"
fi

cat > "$work/measure.py" <<'PY'
# measure.py ADDRESS N ROUNDS: prints "option milliseconds" per change.
import sys, time
import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
address, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bus = dbus.bus.BusConnection(address)
path = "/io/tbrd/structure/1"
props = dbus.Interface(bus.get_object("io.tbrd", path), "org.freedesktop.DBus.Properties")
loop = GLib.MainLoop()
state = {}

def settled(rows):
    return len(rows) == n and all(str(r[1]) == "applied" for r in rows)

def changed(interface, values, invalidated):
    if "PolicyStatus" in values and state.get("t1") is None and settled(values["PolicyStatus"]):
        state["t1"] = time.monotonic()
        loop.quit()

bus.add_signal_receiver(changed, "PropertiesChanged", "org.freedesktop.DBus.Properties", "io.tbrd", path)
options = ["none", "all", "nat64Only"]
for r in range(rounds):
    option = options[r % 3]
    state.clear()
    state["t1"] = None
    t0 = time.monotonic()
    props.Set("io.tbrd.Structure1", "InternetAccessOption", dbus.String(option))
    GLib.timeout_add(20000, loop.quit)
    if state["t1"] is None:
        loop.run()
    if state["t1"] is None:
        print(option, "timeout", flush=True)
        sys.exit(1)
    print(option, "%.1f" % ((state["t1"] - t0) * 1000), flush=True)
PY

echo
printf '%-8s %-12s %10s %10s %10s\n' routers option "median ms" "min ms" "max ms"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
declare -A overall  # routers -> median ms of every change
for n in 8 16 32 64; do
  args=()
  for ((i = 0; i < n; i++)); do args+=(--interface "wpan$i"); done
  "$bin/otbr-sim" --bus "$bus" --dataset "$dataset" --role-delay 100 --nat64-delay 200 --dhcp6-pd "${args[@]}" > "$work/sim.log" 2>&1 & pids+=($!)
  sim=$!
  until [ "$(grep -c ready "$work/sim.log")" -ge "$n" ]; do sleep 0.05; done
  rm -rf "$work/state"
  "${in_ns[@]}" "$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 & pids+=($!)
  tbrd=$!
  until busctl --address="$bus" status io.tbrd >/dev/null 2>&1; do sleep 0.05; done
  until [ "$(busctl --address="$bus" call io.tbrd /io/tbrd io.tbrd.Manager1 ListBorderRouters | awk '{print $2}')" = "$n" ]; do sleep 0.1; done
  "$bin/tbrctl" --bus "$bus" structure create Home >/dev/null
  for ((i = 0; i < n; i++)); do "$bin/tbrctl" --bus "$bus" structure add Home "wpan$i" >/dev/null; done
  sleep 1  # let the routers settle (leaders, NAT64)
  /usr/bin/python3 "$work/measure.py" "$bus" "$n" "$rounds" > "$work/times"
  for opt in none all nat64Only; do
    printf '%-8s %-12s %s\n' "$n" "$opt" "$(awk -v o="$opt" '$1 == o { print $2 }' "$work/times" | sort -n |
      awk '{ a[NR] = $1 } END { printf "%10.1f %10.1f %10.1f", a[int((NR + 1) / 2)], a[1], a[NR] }')"
  done
  overall[$n]=$(awk '{ print $2 }' "$work/times" | median)
  kill "$tbrd" "$sim"; wait "$tbrd" "$sim" 2>/dev/null || true
done
echo
awk -v a="${overall[64]}" -v b="${overall[8]}" 'BEGIN {
  printf "64 routers vs 8, median of every change: %.1f ms vs %.1f ms, %.2fx (for 8x the routers; goal: 64 under 1000 ms)\n", a, b, a / b }'
