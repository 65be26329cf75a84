#!/usr/bin/env bash
# Backups and recovery (issue 48), on the release build as make install builds it:
# 1. A home of ROUTERS otbr-sim routers (default 64) in 8 structures, with 500 Matter node records
#    (written into the state database while tbrd is stopped: commissioning 500 devices is not what is
#    measured): the time of `tbrctl backup create` and of `tbrctl backup restore` onto an empty tbrd, and
#    the file's size. The reference is one scrypt derivation with the backup's cost, by `openssl kdf`
#    (the same libcrypto): the ratio says how much of a backup is the KDF (1.00x: all of it).
# 2. Recovery with `auto`: the time from FactoryReset's reply until the reset router leads the
#    structure's network again, against the agent's own join time (Join called directly on a reset
#    agent, until it leads): a python3-dbus client waits for DeviceRole's signal, never polls.
# Usage: bench/backup.sh [ROUNDS] (default 5; each measurement is the median of ROUNDS)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
routers=${ROUTERS:-64}
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] || { echo "usage: bench/backup.sh [ROUNDS>=1]" >&2; exit 64; }
source bench/products.sh
source scripts/private-bus.sh
bench_products installed tbrd otbr-sim tbrctl
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

private_bus "$work/bus" '<limit name="max_replies_per_connection">4096</limit>'
bus="unix:path=$work/bus"
ctl() { "$bin/tbrctl" --bus "$bus" "$@"; }
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15 --extpanid 1111111122222222)
interfaces=()
for i in $(seq 0 $((routers - 1))); do interfaces+=(--interface "wpan$i"); done
"$bin/otbr-sim" --bus "$bus" "${interfaces[@]}" --dataset "$dataset" --role-delay 50 > "$work/sim.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do [ "$(grep -c '^ready' "$work/sim.log")" -ge "$routers" ] && break; sleep 0.05; done
echo "firewall = off" > "$work/tbrd.conf"
tbrd_pid=""
start_tbrd() {
  "$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" --log-level warning >> "$work/tbrd.log" 2>&1 &
  tbrd_pid=$!
  pids+=("$tbrd_pid")
  for _ in $(seq 600); do
    [ "$(ctl --json list 2>/dev/null | grep -c '"id"')" -ge "$routers" ] && return 0
    sleep 0.05
  done
  echo "bench: tbrd did not see the routers" >&2; exit 1
}
stop_tbrd() { kill -TERM "$tbrd_pid"; wait "$tbrd_pid" || true; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

start_tbrd
per=$((routers / 8))
for s in $(seq 1 8); do
  ctl structure create "Home $s" > /dev/null
  ctl structure room add "Home $s" Kitchen > /dev/null
  for r in $(seq $(((s - 1) * per)) $((s * per - 1))); do ctl structure add "Home $s" "wpan$r" > /dev/null; done
  ctl network preferred "Home $s" 1111111122222222 > /dev/null
done
for t in $(seq 1 4); do ctl api token create "token$t" --scope read > /dev/null; done
stop_tbrd
{
  echo "BEGIN;"
  for n in $(seq 1 500); do
    s=$(((n - 1) % 8 + 1))
    echo "INSERT INTO matter_nodes (node_id, structure_id, vendor_id, product_id, commissioned_at, backend, name, room) VALUES ($n, $s, 65521, 32769, 1796650000, 'python-matter-server', 'Node $n', 'Kitchen');"
  done
  echo "COMMIT;"
} | sqlite3 "$work/state/tbrd.db"
start_tbrd
printf 'bench passphrase for a large home\n' > "$work/passphrase"; chmod 600 "$work/passphrase"

create=() restore=()
for i in $(seq "$rounds"); do
  t0=$(now); ctl backup create --output "$work/home.tbrdbackup" --passphrase-file "$work/passphrase" > /dev/null; t1=$(now)
  create+=("$(minus "$t1" "$t0")")
done
size=$(stat -c %s "$work/home.tbrdbackup")
ctl --json backup show "$work/home.tbrdbackup" --passphrase-file "$work/passphrase" > "$work/summary.json"
for i in $(seq "$rounds"); do
  stop_tbrd; rm -rf "$work/state"; start_tbrd
  t0=$(now); ctl backup restore "$work/home.tbrdbackup" --passphrase-file "$work/passphrase" > /dev/null; t1=$(now)
  restore+=("$(minus "$t1" "$t0")")
done
kdf=()
for i in $(seq "$rounds"); do
  t0=$(now)
  openssl kdf -keylen 64 -kdfopt pass:bench -kdfopt hexsalt:00112233445566778899aabbccddeeff -kdfopt n:32768 -kdfopt r:8 -kdfopt p:1 \
    -kdfopt maxmem_bytes:67108864 SCRYPT > /dev/null
  t1=$(now)
  kdf+=("$(minus "$t1" "$t0")")
done
c=$(printf '%s\n' "${create[@]}" | median); r=$(printf '%s\n' "${restore[@]}" | median); k=$(printf '%s\n' "${kdf[@]}" | median)
echo "home: $routers routers, 8 structures, $(grep -o '"matterNodes" : [0-9]*' "$work/summary.json" | grep -o '[0-9]*$') Matter nodes, 4 tokens"
printf 'backup create:  %.3f s (goal 1 s), file %d bytes (%d KiB, goal 256 KiB); %sx one scrypt (%.3f s, openssl kdf)\n' \
  "$c" "$size" "$((size / 1024))" "$(ratio "$c" "$k")" "$k"
printf 'backup restore: %.3f s (goal 1 s); %sx one scrypt (tbrctl opens it first, then tbrd: two derivations)\n' "$r" "$(ratio "$r" "$k")"

# 2. Recovery: wpan0 of "Home 1" with recovery auto, factory-reset; against Join on a reset wpan1... of
# the same structure with recovery off.
ctl structure recovery "Home 1" auto > /dev/null
ctl structure recovery "Home 2" off > /dev/null
cat > "$work/measure.py" <<'PY'
# measure.py ADDRESS IFACE MODE DATASET: seconds from FactoryReset's reply until IFACE leads again, either
# by tbrd's recovery (MODE auto) or by Join called here right after the reset (MODE join).
import sys, time
import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
address, iface, mode, dataset = sys.argv[1:5]
bus = dbus.bus.BusConnection(address)
obj = bus.get_object("io.openthread.BorderRouter." + iface, "/io/openthread/BorderRouter/" + iface)
agent = dbus.Interface(obj, "io.openthread.BorderRouter")
loop = GLib.MainLoop()
state = {"start": None, "done": None, "reset": False}
def changed(interface, props, invalidated):
    role = props.get("DeviceRole")
    if role is None: return
    if role == "disabled": state["reset"] = True
    if role == "leader" and state["reset"] and state["start"] is not None:
        state["done"] = time.monotonic(); loop.quit()
bus.add_signal_receiver(changed, "PropertiesChanged", "org.freedesktop.DBus.Properties", path="/io/openthread/BorderRouter/" + iface)
state["start"] = time.monotonic()
agent.FactoryReset(timeout=30)
if mode == "join":
    agent.Join(dbus.ByteArray(bytes.fromhex(dataset)), timeout=30)
GLib.timeout_add_seconds(30, loop.quit)
loop.run()
print("%.3f" % (state["done"] - state["start"]) if state["done"] else "timeout")
PY
auto=() join=()
for i in $(seq "$rounds"); do
  auto+=("$(/usr/bin/python3 "$work/measure.py" "$bus" wpan0 auto "$dataset")")
  join+=("$(/usr/bin/python3 "$work/measure.py" "$bus" "wpan$per" join "$dataset")")
done
if printf '%s\n' "${auto[@]}" "${join[@]}" | grep -q timeout; then echo "bench: a router did not come back: ${auto[*]} / ${join[*]}" >&2; exit 1; fi
a=$(printf '%s\n' "${auto[@]}" | median); j=$(printf '%s\n' "${join[@]}" | median)
printf 'recovery auto:  %.3f s from the reset to leading the network again (goal 5 s); the agent alone (Join at once): %.3f s; %sx\n' \
  "$a" "$j" "$(ratio "$a" "$j")"
