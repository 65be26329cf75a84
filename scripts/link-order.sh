#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions tbrd runs while it starts, serves one router, idles and
# stops, and the functions tbrctl runs for its everyday commands, one symbol per line, in the order first
# seen. The release builds give it to the linker (lld's --symbol-ordering-file, with every function in
# a section of its own), which then puts those functions next to each other. Why it matters: the kernel
# maps the 64 KiB around every page a process touches, so hot code scattered over a 12 MB text keeps
# most of it resident; packed, far less (docs/performance.md, "Where tbrd's resident memory goes").
#
# The functions come from running the release binaries under Valgrind's callgrind (every function
# executed, the Swift runtime's and Foundation's included) on a private bus with otbr-sim; then from the
# page faults of the ordered tbrd, five rounds: an instruction fetch that faults inside a function the
# list lacks adds it (a few per round). Functions without a symbol (closure-context destructors and
# other private helpers) cannot be listed; scripts/release-text-locals.ld packs them instead
# (docs/performance.md, "Where tbrd's resident memory goes", step 5). A stale list costs pages, never
# correctness: names the linker does not find are ignored, and what the list lacks is placed after it. Run it again after
# larger changes (`make link-order`), and commit the list.
# Usage: scripts/link-order.sh   (needs valgrind and perf: apt-get install valgrind linux-perf)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "link-order: needs root (tbrd runs in a network namespace of its own)" >&2; exit 77; }
for tool in valgrind perf; do
  command -v $tool >/dev/null || { echo "link-order: needs $tool (apt-get install valgrind linux-perf)" >&2; exit 69; }
done
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
out=scripts/link-order.txt
source scripts/private-bus.sh

# The release build as make install and make deb link it (scripts/release-link-flags), but ordered by the
# list being made, in a scratch directory of its own.
build() { # build LIST PRODUCT
  local flags
  mapfile -t flags < <(scripts/release-link-flags "$1")
  swift build -c release --static-swift-stdlib --scratch-path .build/link-order "${flags[@]}" --product "$2" >&2
}
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
: > "$work/list"
for p in tbrd tbrctl otbr-sim; do build "$work/list" $p; done
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build/link-order --show-bin-path)

private_bus "$work/bus"
bus="unix:path=$work/bus"
dataset=$("$bin/tbrctl" dataset new --name Order --channel 15)
"$bin/otbr-sim" --bus "$bus" --dataset "$dataset" --role-delay 100 --interface wpan0 > "$work/sim.log" 2>&1 & pids+=($!)
until grep -q ready "$work/sim.log"; do sleep 0.05; done
# tbrd as packaged: the default configuration (config/tbrd.conf), so the host firewall runs too (its
# code was left out of the list while this ran with firewall = off: 0.7 MiB more resident text in the
# packaged tbrd, issue 33). It runs in a network namespace of its own, so this host's nftables is not
# touched; the bus is a socket path, reachable from there.
cp config/tbrd.conf "$work/tbrd.conf"
netns=tbrd-link-order-$$
ip netns add "$netns"
ip -n "$netns" link set lo up

commands=("--version" "--help" "list" "info -d wpan0" "epskc activate -d wpan0 --duration 60"
  "epskc deactivate -d wpan0" "--json list" "dataset show -d wpan0" "structure list" "mesh -d wpan0"
  "doctor -d wpan0")
# workload TOOL... : tbrd under TOOL (in the background, TOOL's own process: the SIGTERM must reach it)
# starts with one router, serves tbrctl's commands (each under $TBRCTL_TOOL), idles 15 s (its timers
# and the watchdog's rounds), and stops by SIGTERM as systemd stops it.
workload() {
  rm -rf "$work/state"
  # (ip netns exec execs the command: $! is the tool's, or tbrd's, PID.)
  ip netns exec "$netns" "$@" "$work/tbrd" --bus "$bus" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 &
  local tbrd=$! n=0 args tool
  pids+=($tbrd)
  until [ "$(busctl --address="$bus" call io.tbrd /io/tbrd io.tbrd.Manager1 ListBorderRouters 2>/dev/null |
    awk '{print $2}')" = 1 ]; do sleep 0.2; done
  for args in "${commands[@]}"; do
    n=$((n + 1))
    tool=()
    # shellcheck disable=SC2206 # the words of the tool's command line, the output file joined to the last
    [ -z "${TBRCTL_TOOL:-}" ] || tool=($TBRCTL_TOOL"=$work/tbrctl-$n.cg")
    # shellcheck disable=SC2086 # the words of each command line
    "${tool[@]}" "$work/tbrctl" --bus "$bus" $args > /dev/null 2>&1 || true
  done
  sleep 15
  # Where tbrd is mapped, for the page faults' addresses (tbrd is the tool's child, or the tool itself).
  local pid
  pid=$(pgrep -P "$tbrd" | head -n 1) || pid=$tbrd
  cp "/proc/$pid/maps" "$work/maps"
  kill -TERM "$tbrd"
  wait "$tbrd" || true
}

# 1. Callgrind. Valgrind 3.19 cannot read the DWARF 5 the toolchain writes; the symbol table is enough.
for p in tbrd tbrctl; do strip --strip-debug -o "$work/$p" "$bin/$p"; done
TBRCTL_TOOL="valgrind --tool=callgrind --demangle=no --callgrind-out-file" \
  workload valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/tbrd.cg"
grep -q '^fn=([0-9]*) $s9TBRDaemon' "$work/tbrd.cg" ||
  { cat "$work/tbrd.log" >&2; echo "link-order: no profile of tbrd (its log is above)" >&2; exit 1; }
# Every function callgrind names (fn= and cfn= lines name an id the first time it appears), tbrd's
# first; the linker ignores the C libraries' names, which no section of ours defines.
for f in "$work/tbrd.cg" "$work"/tbrctl-*.cg; do
  sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' "$f"
done | awk '!/^0x/ && !seen[$0]++' > "$work/list"
echo "link-order: $(wc -l < "$work/list") functions from callgrind" >&2

# 2. Page faults of the ordered tbrd, up to five rounds: what faults outside the list joins it.
for round in 1 2 3 4 5; do
  # A file of its own each round: SwiftPM relinks when the flags change, not when a file they name does.
  cp "$work/list" "$work/list-$round"
  build "$work/list-$round" tbrd
  cp "$bin/tbrd" "$work/tbrd"
  workload perf record -q -m 1024 -e page-faults -c 1 -d -o "$work/faults.data" --
  perf script -i "$work/faults.data" -F addr,ip 2>/dev/null > "$work/faults"
  added=$(python3 - "$work/tbrd" "$work/maps" "$work/faults" "$work/list" <<'PY'
import bisect, subprocess, sys
exe, maps, faults, listing = sys.argv[1:]
# tbrd's mappings: the first, at file offset 0, is where its virtual address 0 lies.
mine = [line.split() for line in open(maps) if line.split()[5:6] == [exe]]
low = min(int(m[0].split("-")[0], 16) for m in mine)
high = max(int(m[0].split("-")[1], 16) for m in mine)
base = int(next(m for m in mine if int(m[2], 16) == 0)[0].split("-")[0], 16)
symbols = []
for line in subprocess.run(["nm", "-n", "-S", exe], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 4 and parts[2] in "tTW":
        symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
starts = [s[0] for s in symbols]
known = set(open(listing).read().split("\n"))
new = []
for line in open(faults):
    address, ip = (int(x, 16) for x in line.split()[:2])
    if address != ip or not low <= address < high:
        continue  # not an instruction fetch in tbrd's own code
    # The function holding the address. A fault past a function's end is in a nameless function
    # (packed by scripts/release-text-locals.ld, not by this list), never its predecessor's.
    at = address - base
    i = bisect.bisect_right(starts, at) - 1
    if i >= 0 and at < symbols[i][0] + symbols[i][1] and symbols[i][2] not in known:
        known.add(symbols[i][2])
        new.append(symbols[i][2])
with open(listing, "a") as f:
    f.writelines(n + "\n" for n in new)
print(len(new))
PY
)
  echo "link-order: round $round of page faults added $added functions" >&2
  [ "$added" -gt 0 ] || break
done

# Only what the binaries define can be placed: the glibc and ld.so functions callgrind saw are dropped
# (scripts/link-order-check.sh fails on them).
nm --defined-only "$bin/tbrd" "$bin/tbrctl" | awk 'NF >= 3 { print $3 }' | sort -u > "$work/defined"
{
  echo "# Generated by scripts/link-order.sh on $(date -u +%Y-%m-%d) from $(git rev-parse --short HEAD): do not edit."
  awk 'NR == FNR { defined[$0] = 1; next } ($0 in defined)' "$work/defined" "$work/list"
} > "$out.new"
mv "$out.new" "$out"
echo "link-order: $(($(wc -l < "$out") - 1)) functions in $out" >&2
