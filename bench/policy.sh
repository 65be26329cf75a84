#!/usr/bin/env bash
# The internet-access policy at scale: N otbr-sim routers (one process, --interface N times, built with
# DHCPv6-PD) in one structure; the time from writing Structure1.InternetAccessOption (busctl
# set-property) until PolicyStatus says "applied" for all N (busctl get-property, polled back to back),
# for N = 8, 16, 32 and 64, cycling none → all → nat64Only so that every round changes NAT64, PD and
# the firewall on every router.
# As root tbrd runs in a network namespace of its own with its real nftables firewall (never this host's);
# otherwise with firewall = off (the output says which).
# Release build with the Swift runtime linked in, as `make install` builds it (bench/build/static).
# Usage: bench/policy.sh [ROUNDS]   (default 6 changes per N)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-6}
scratch=bench/build/static
for product in tbrd tbrctl otbr-sim; do
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product" >/dev/null
done
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
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

cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>tbrd-bench</type><listen>unix:path=$work/bus</listen><auth>EXTERNAL</auth>
<limit name="max_replies_per_connection">4096</limit>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null & pids+=($!)
bus="unix:path=$work/bus"
until [ -S "$work/bus" ]; do sleep 0.05; done
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

ms() { date +%s%N; }
applied() { busctl --address="$bus" get-property io.tbrd /io/tbrd/structure/1 io.tbrd.Structure1 PolicyStatus | grep -o '"applied"' | wc -l; }

echo
printf '%-8s %-12s %10s %10s %10s\n' routers option "median ms" "min ms" "max ms"
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
  declare -A times=()
  options=(none all nat64Only)
  for ((r = 0; r < rounds; r++)); do
    opt=${options[$((r % 3))]}
    t0=$(ms)
    busctl --address="$bus" set-property io.tbrd /io/tbrd/structure/1 io.tbrd.Structure1 InternetAccessOption s "$opt"
    until [ "$(applied)" -eq "$n" ]; do :; done
    t1=$(ms)
    times[$opt]+="$(( (t1 - t0) / 1000 )) "
  done
  for opt in "${options[@]}"; do
    printf '%-8s %-12s %s\n' "$n" "$opt" "$(echo ${times[$opt]} | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { printf "%10.1f %10.1f %10.1f", a[int((NR + 1) / 2)] / 1000, a[1] / 1000, a[NR] / 1000 }')"
  done
  unset times
  kill "$tbrd" "$sim"; wait "$tbrd" "$sim" 2>/dev/null || true
done
