#!/usr/bin/env bash
# D-Bus round trips through a private dbus-daemon: tbrd's DBus layer vs libdbus used directly from C.
# Both call org.freedesktop.DBus.GetNameOwner on the bus daemon, sequentially and with 64 in flight.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${CALLS:-20000}
out=bench/build
mkdir -p "$out"
cc -O2 -o "$out/dbus-raw" bench/dbus-raw.c $(pkg-config --cflags --libs dbus-1)
source bench/products.sh
bench_products release dbus-bench
swiftbin=$bin/dbus-bench

dir=$(mktemp -d)
trap 'kill $daemon 2>/dev/null; rm -rf "$dir"' EXIT
cat > "$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>tbrd-bench</type><listen>unix:path=$dir/socket</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
CONF
dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --print-address=1 --nosyslog > "$dir/addr" 2>/dev/null &
daemon=$!
for _ in $(seq 50); do [ -s "$dir/addr" ] && break; sleep 0.1; done
addr=$(head -1 "$dir/addr")

best() { # best of 3 runs
    local m=0 v
    for _ in 1 2 3; do v=$("$@"); [ "$v" -gt "$m" ] && m=$v; done
    echo "$m"
}
printf '%-26s %12s %12s %7s\n' "scenario" "libdbus C" "tbrd DBus" "ratio"
for scenario in "sequential:1" "concurrent (64 in flight):64"; do
    label=${scenario%%:*}; window=${scenario##*:}
    c=$(best "$out/dbus-raw" "$addr" "$CALLS" "$window")
    s=$(best "$swiftbin" "$addr" "$CALLS" "$window")
    ratio=$(awk -v a="$s" -v b="$c" 'BEGIN { printf "%.2f", a / b }')
    printf '%-26s %10s/s %10s/s %6sx\n' "$label" "$c" "$s" "$ratio"
done
