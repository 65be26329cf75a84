#!/usr/bin/env bash
# tbrd's HTTPS API (issue 34), in one run:
#  1. a router's information through the API (curl, plain HTTP on loopback, a read token) next to
#     `tbrctl --json info` over D-Bus: the same document both ways (goal: curl at most 1.2x tbrctl);
#  2. CLIENTS concurrent clients for SECONDS seconds on loopback, a tenth of them holding event streams
#     while the rest read the router in a loop: errors (must be 0), p50/p99 latency, and tbrd's resident
#     memory at the start, the middle and the end of the load (flat: end/start near 1.00x);
#  3. the same request while 1,000 slow connections from 127.0.0.2-9 trickle a header line a second
#     (bench/slow-clients.py, reopening what tbrd closes at its 10 s deadline), as a ratio to the idle
#     server measured just before (goal <= 2x), and tbrd's threads with those 1,000 open (goal <= 16).
# otbr-sim and tbrd on a private bus; release build with the Swift runtime linked in (bench/products.sh).
# Every request goes to 127.0.0.1 only; the load stops by itself after SECONDS.
# Usage: bench/http.sh [ROUNDS [CLIENTS [SECONDS]]]   (defaults 30, 100, 60)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30} clients=${2:-100} seconds=${3:-60}
for n in "$rounds" "$clients" "$seconds"; do
  [[ $n =~ ^[0-9]+$ && $n -ge 1 ]] || { echo "usage: bench/http.sh [ROUNDS [CLIENTS [SECONDS]]] (each >= 1)" >&2; exit 64; }
done
command -v curl >/dev/null || { echo "bench/http.sh needs curl (apt-get install curl)" >&2; exit 69; }
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
"$bin/otbr-sim" --bus "$bus" --dataset "$dataset" --role-delay 100 > "$work/sim.log" 2>&1 & pids+=($!)
printf 'firewall = off\nhttp-listen = 127.0.0.1:0\n' > "$work/tbrd.conf"
"$bin/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 & tbrd=$!; pids+=($tbrd)
until busctl --address="$bus" status io.tbrd >/dev/null 2>&1; do sleep 0.05; done
until "$bin/tbrctl" --bus "$bus" info -d wpan0 | grep -q leader; do sleep 0.1; done
listen=$("$bin/tbrctl" --bus "$bus" --json api info | awk -F'"' '/"listen"/ { print $4 }')
token=$("$bin/tbrctl" --bus "$bus" --json api token create bench --scope read | awk -F'"' '/"token"/ { print $4 }')
url="http://$listen/api/v1/routers/wpan0"
printf 'Authorization: Bearer %s\n' "$token" > "$work/auth"   # a header file: the token stays out of ps

ms() { date +%s%N; }
per_call() { # per_call COMMAND... : mean milliseconds over $rounds runs
  local t0 t1 i
  t0=$(ms)
  for ((i = 0; i < rounds; i++)); do "$@" >/dev/null; done
  t1=$(ms)
  awk -v a="$t0" -v b="$t1" -v n="$rounds" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
}
api_info() { curl -sf -H @"$work/auth" "$url"; }
tbrctl_info() { "$bin/tbrctl" --bus "$bus" --json info -d wpan0; }
canonical() { python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))'; }
[ "$(api_info | canonical)" = "$(tbrctl_info | canonical)" ] ||
  { echo "bench/http.sh: the API and tbrctl disagree about wpan0" >&2; exit 1; }

echo "a router's information, mean of $rounds runs (ms per run, lower is better)"
tbrctl_ms=$(per_call tbrctl_info); api_ms=$(per_call api_info)
printf '%-44s %10s\n' "tbrctl --json info (D-Bus)" "$tbrctl_ms"
printf '%-44s %10s  %s\n' "curl GET /api/v1/routers/wpan0 (HTTP API)" "$api_ms" \
  "$(awk -v a="$api_ms" -v b="$tbrctl_ms" 'BEGIN { printf "%.2fx tbrctl (goal <= 1.20x)", a / b }')"

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$tbrd/status"; }
streams=$(( clients / 10 )); readers=$(( clients - streams ))
echo
echo "$clients clients for $seconds s: $streams holding event streams, $readers reading wpan0 in a loop"
rss_start=$(rss)
for ((i = 0; i < streams; i++)); do
  curl -s -N --max-time "$((seconds + 5))" -H @"$work/auth" "http://$listen/api/v1/events" > "$work/stream$i" 2>/dev/null & pids+=($!)
done
end=$(( $(date +%s) + seconds ))
for ((i = 0; i < readers; i++)); do
  ( while [ "$(date +%s)" -lt "$end" ]; do
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 10 -H @"$work/auth" "$url" || echo "000 0"
    done > "$work/reader$i" ) & pids+=($!)
done
sleep $(( seconds / 2 )); rss_middle=$(rss)
wait_readers() { for ((i = 0; i < readers; i++)); do while [ ! -s "$work/reader$i" ] && [ "$(date +%s)" -lt "$((end + 15))" ]; do sleep 0.2; done; done; }
while [ "$(date +%s)" -lt "$((end + 1))" ]; do sleep 0.5; done
sleep 2; wait_readers
rss_end=$(rss)
cat "$work"/reader* > "$work/all"
total=$(wc -l < "$work/all"); errors=$(awk '$1 != "200"' "$work/all" | wc -l)
awk '{ print $2 * 1000 }' "$work/all" | sort -n > "$work/times"
pct() { sed -n "$(awk -v n="$total" -v p="$1" 'BEGIN { i = int(n * p); print (i < 1 ? 1 : i) }')p" "$work/times"; }
printf '%d requests (%d/s), %d errors, p50 %.1f ms, p99 %.1f ms\n' "$total" "$((total / seconds))" "$errors" "$(pct 0.50)" "$(pct 0.99)"
[ "$errors" -eq 0 ] || { echo "bench/http.sh: $errors requests failed under load" >&2; exit 1; }
printf 'tbrd resident: %s KiB at the start, %s KiB in the middle, %s KiB at the end: %s\n' "$rss_start" "$rss_middle" "$rss_end" \
  "$(awk -v a="$rss_end" -v b="$rss_middle" 'BEGIN { printf "%.2fx end/middle (flat: near 1.00x)", a / b }')"

echo
slow=1000
echo "a router's information while $slow slow connections trickle, mean of $rounds runs"
idle_ms=$(per_call api_info)
port=${listen##*:}
python3 bench/slow-clients.py "$port" "$slow" $(( rounds + 30 )) > "$work/slow.log" 2>&1 & slow_pid=$!; pids+=($slow_pid)
until grep -q "slow connections open" "$work/slow.log" 2>/dev/null; do
  kill -0 "$slow_pid" 2>/dev/null || { cat "$work/slow.log" >&2; exit 1; }
  sleep 0.1
done
fds() { ls "/proc/$tbrd/fd" | wc -l; }
for ((i = 0; i < 300; i++)); do [ "$(fds)" -ge "$slow" ] && break; sleep 0.1; done
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$tbrd/status")
open_fds=$(fds)
slow_ms=$(per_call api_info)
printf '%-44s %10s\n' "idle server" "$idle_ms"
printf '%-44s %10s  %s\n' "with $slow slow connections" "$slow_ms" \
  "$(awk -v a="$slow_ms" -v b="$idle_ms" 'BEGIN { printf "%.2fx idle (goal <= 2.00x)", a / b }')"
printf 'tbrd: %s threads with %s descriptors open (goal <= 16 threads)\n' "$threads" "$open_fds"
kill "$slow_pid" 2>/dev/null || true
