#!/usr/bin/env bash
# tbrd over MQTT (issue 50), on the release build as make install builds it, with two otbr-sim routers on a
# private bus and a real Mosquitto (Debian's) on a loopback port:
#  1. an ePSKc end reaching mosquitto_sub (tbrd/events/epskc) next to it reaching `tbrctl --json epskc
#     watch`, side by side in one run: both watchers started once, ROUNDS keys activated and cancelled
#     (`tbrctl epskc deactivate`), each arrival clocked from the cancel; medians (goal <= 1.2x);
#  2. REQUESTS `structure/policy` requests over MQTT (`mosquitto_rr`, MQTT 5 request/response: one process
#     per request, as tbrctl is) next to the same over D-Bus (`tbrctl structure policy --internet-access
#     X --no-wait`: the option set and the statuses read back, as the request answers them; without
#     --no-wait tbrctl also waits until the routers have applied it); the options alternate none/all;
#     medians (goal <= 1.2x);
#  3. tbrd's resident memory idle, with MQTT off (libmosquitto not mapped: checked) and with MQTT on
#     (connected, discovery published; libmosquitto mapped).
# Usage: bench/mqtt.sh [ROUNDS] [REQUESTS]   (defaults 20, 100)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
requests=${2:-100}
for n in "$rounds" "$requests"; do
  [[ $n =~ ^[0-9]+$ && $n -ge 1 ]] || { echo "usage: bench/mqtt.sh [ROUNDS] [REQUESTS]" >&2; exit 64; }
done
for tool in mosquitto mosquitto_sub mosquitto_rr mosquitto_passwd; do
  command -v "$tool" >/dev/null || { echo "bench/mqtt.sh needs $tool (apt-get install mosquitto mosquitto-clients)" >&2; exit 69; }
done
source bench/products.sh
source scripts/private-bus.sh
bench_products installed tbrd otbr-sim tbrctl
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
wait_until() { for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "bench: timed out: $*" >&2; exit 1; }

private_bus "$work/bus"
bus="unix:path=$work/bus"
ctl() { "$bin/tbrctl" --bus "$bus" "$@"; }
dataset=$("$bin/tbrctl" dataset new --name Bench --channel 15)
"$bin/otbr-sim" --bus "$bus" --interface wpan0 --interface wpan1 --dataset "$dataset" --role-delay 50 > "$work/sim.log" 2>&1 & pids+=($!)
sim_ready() { [ "$(grep -c '^ready' "$work/sim.log")" -ge 2 ]; }
wait_until sim_ready

# The broker: users tbrd and bench, persistence off.
port=$((20000 + RANDOM % 40000))
mosquitto_passwd -b -c "$work/users" tbrd tbrd-bench && mosquitto_passwd -b "$work/users" bench bench-bench
printf 'listener %d 127.0.0.1\nuser %s\nallow_anonymous false\npassword_file %s\nlog_dest none\n' "$port" "$(id -un)" "$work/users" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" 2> /dev/null & pids+=($!)
sub() { mosquitto_sub -h 127.0.0.1 -p "$port" -u bench -P bench-bench "$@"; }
wait_until sub -t '$SYS/broker/version' -C 1 -W 1
printf 'tbrd-bench\n' > "$work/password" && chmod 600 "$work/password"

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
routers_lead() { [ "$(ctl --json list 2>/dev/null | grep -c '"leader"')" -ge 2 ]; }
start_tbrd() {
  "$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" --log-level warning > "$work/tbrd.log" 2>&1 & tbrd=$!; pids+=($tbrd)
  wait_until routers_lead
}

# 3a. Memory with MQTT off: tbrd idle after its first passes.
printf 'firewall = off\n' > "$work/tbrd.conf"
start_tbrd
sleep 3
rss_off=$(rss "$tbrd")
! grep -q libmosquitto "/proc/$tbrd/maps" || { echo "bench: tbrd with MQTT off has libmosquitto mapped" >&2; exit 1; }
kill "$tbrd"; wait "$tbrd" 2>/dev/null || true

# MQTT on from here.
printf 'firewall = off\nmqtt-url = mqtt://127.0.0.1:%d\nmqtt-username = tbrd\nmqtt-password-file = %s\nmqtt-client-id = tbrd-bench\nmqtt-epskc = yes\n' \
  "$port" "$work/password" > "$work/tbrd.conf"
start_tbrd
wait_until sh -c "mosquitto_sub -h 127.0.0.1 -p $port -u bench -P bench-bench -t tbrd/bridge/state -C 1 -W 1 | grep -q online"
ctl structure create Home > /dev/null && ctl structure add Home wpan0 > /dev/null && ctl structure add Home wpan1 > /dev/null
sleep 3
rss_on=$(rss "$tbrd")
grep -q libmosquitto "/proc/$tbrd/maps" || { echo "bench: tbrd with MQTT on has no libmosquitto mapped" >&2; exit 1; }

# 1. The ePSKc end, both watchers at once.
cat > "$work/epskc.py" <<'PY'
# epskc.py TBRCTL BUS PORT ROUNDS: per round, ms from `tbrctl epskc deactivate` to the end on each watcher.
import subprocess, sys, threading, time
tbrctl, bus, port, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
seen = {}
lock = threading.Lock()
watchers = []
def follow(name, command):
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    watchers.append(p)
    for line in p.stdout:
        if "epskcModeDeactivated" in line:
            with lock: seen.setdefault(name, time.monotonic())
mqtt = ["mosquitto_sub", "-h", "127.0.0.1", "-p", port, "-u", "bench", "-P", "bench-bench", "-t", "tbrd/events/epskc"]
watch = [tbrctl, "--bus", bus, "--json", "epskc", "watch"]
for name, command in (("mqtt", mqtt), ("watch", watch)):
    threading.Thread(target=follow, args=(name, command), daemon=True).start()
time.sleep(1)
for _ in range(rounds):
    subprocess.run([tbrctl, "--bus", bus, "epskc", "activate", "-d", "wpan0", "--duration", "60"], check=True, stdout=subprocess.DEVNULL)
    time.sleep(0.2)
    with lock: seen.clear()
    t0 = time.monotonic()
    subprocess.run([tbrctl, "--bus", bus, "epskc", "deactivate", "-d", "wpan0"], check=True, stdout=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        with lock:
            if "mqtt" in seen and "watch" in seen: break
        time.sleep(0.001)
    with lock:
        if not ("mqtt" in seen and "watch" in seen): print("timeout", seen, file=sys.stderr); sys.exit(1)
        print("%.2f %.2f" % ((seen["mqtt"] - t0) * 1000, (seen["watch"] - t0) * 1000), flush=True)
for p in watchers: p.terminate()
PY
/usr/bin/python3 "$work/epskc.py" "$bin/tbrctl" "$bus" "$port" "$rounds" > "$work/epskc.txt" || { echo "bench: the ePSKc rounds failed" >&2; exit 1; }
m=$(awk '{ print $1 }' "$work/epskc.txt" | median); w=$(awk '{ print $2 }' "$work/epskc.txt" | median)
printf 'an ePSKc end, from the cancel (median of %d): mosquitto_sub %.2f ms, tbrctl epskc watch %.2f ms; MQTT %sx the watch (goal <= 1.2x)\n' \
  "$rounds" "$m" "$w" "$(ratio "$m" "$w")"

# 2. structure/policy: MQTT request/response against D-Bus, one process per request each.
: > "$work/mqtt.txt"; : > "$work/dbus.txt"
ms() { date +%s%N; }
for i in $(seq "$requests"); do
  if [ $((i % 2)) -eq 0 ]; then option=none; else option=all; fi
  t0=$(ms)
  mosquitto_rr -h 127.0.0.1 -p "$port" -u bench -P bench-bench -t tbrd/bridge/request/structure/policy -e "replies/bench" -W 30 \
    -m "{\"structure\": \"Home\", \"internetAccessOption\": \"$option\"}" | grep -q '"status":"ok"' || { echo "bench: an MQTT request failed" >&2; exit 1; }
  t1=$(ms)
  if [ $((i % 2)) -eq 0 ]; then option=all; else option=none; fi
  ctl structure policy Home --internet-access "$option" --no-wait > /dev/null || { echo "bench: a D-Bus request failed" >&2; exit 1; }
  t2=$(ms)
  echo $(((t1 - t0) / 1000)) >> "$work/mqtt.txt"; echo $(((t2 - t1) / 1000)) >> "$work/dbus.txt"
done
mq=$(median < "$work/mqtt.txt"); db=$(median < "$work/dbus.txt")
printf 'structure/policy (median of %d, a process each): MQTT (mosquitto_rr) %.2f ms, D-Bus (tbrctl --no-wait) %.2f ms; MQTT %sx D-Bus (goal <= 1.2x)\n' \
  "$requests" "$(awk -v u="$mq" 'BEGIN { print u / 1000 }')" "$(awk -v u="$db" 'BEGIN { print u / 1000 }')" "$(ratio "$mq" "$db")"

printf 'resident memory idle: MQTT off %d KiB, MQTT on (connected, discovery published) %d KiB: %sx\n' \
  "$rss_off" "$rss_on" "$(ratio "$rss_on" "$rss_off")"
