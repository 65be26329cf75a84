#!/usr/bin/env bash
# make demo: the main job end to end on the embedded default. A private D-Bus, two simulated border
# routers (otbr-sim) forming one Thread network, tbrd, and a tour of what tbrd does, through tbrctl.
# Everything runs under a temporary directory and is torn down at the end, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TBRD_BIN:-$(swift build --show-bin-path)}
for b in tbrd tbrctl otbr-sim matter-sim; do
  [ -x "$bin/$b" ] || { echo "demo: $bin/$b is missing; run 'make build' first" >&2; exit 69; }
done
export PATH="$bin:$PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/tbrd-demo.XXXXXX")
pids=()
namespaces=()
netns=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for ns in "${namespaces[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  [ -z "$netns" ] || ip netns del "$netns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

bold=$(tput bold 2>/dev/null || true); plain=$(tput sgr0 2>/dev/null || true)
step() { printf '\n%s== %s ==%s\n' "$bold" "$*" "$plain"; }
show() { printf '%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2; shift 2
  for _ in $(seq $((limit * 20))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.05; done
  echo "demo: timed out waiting for $what" >&2; exit 1
}

side_bus() { # side_bus NAME: a bus of its own at $work/NAME-bus, for a router tbrd must not see on D-Bus
  sed -e "s|$work/bus|$work/$1-bus|" "$work/bus.conf" > "$work/$1-bus.conf"
  dbus-daemon --config-file="$work/$1-bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
  pids+=($!)
  wait_for 10 "the $1 router's bus" test -S "$work/$1-bus"
}

step "A private D-Bus for the demo"
cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>tbrd-demo</type><listen>unix:path=$work/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
pids+=($!)
export BUS="unix:path=$work/bus"
wait_for 10 "the bus" test -S "$work/bus"
echo "bus: $BUS"
tbrctl() { command tbrctl --bus "$BUS" "$@"; }

step "A small LAN for mDNS: two network namespaces, each with its own bus and avahi-daemon"
# Host 0 is where the border routers publish their services; host 1 is where tbrd and tbrctl browse.
# avahi-daemon runs inside each namespace with its own /run; everything else finds it through
# DBUS_SYSTEM_BUS_ADDRESS. This needs root, ip, unshare and avahi-daemon; without them the demo says so
# and skips what needs mDNS.
mdns=yes
why_not=""
if [ "$(id -u)" -ne 0 ]; then why_not="creating network namespaces needs root (running as uid $(id -u))"
else
  for tool in ip unshare avahi-daemon; do
    command -v "$tool" >/dev/null 2>&1 || why_not="$tool is not installed (make deps)"
  done
fi
lan_host() { # lan_host N: a namespace, a bus and avahi-daemon for host N
  local n=$1 ns="tbrd-demo-$$-$1" dir="$work/lan$1"
  mkdir -p "$dir/run/avahi-daemon"
  ip netns add "$ns" || return 1
  namespaces+=("$ns")
  sed "s|<listen>[^<]*</listen>|<listen>unix:path=$dir/bus</listen>|" "$work/bus.conf" > "$dir/bus.conf"
  dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
  pids+=($!)
  printf '[server]\nhost-name=tbrd-demo-%s-%s\nuse-ipv4=yes\nuse-ipv6=no\nallow-interfaces=lan0\nenable-dbus=yes\n[wide-area]\nenable-wide-area=no\n[publish]\npublish-hinfo=no\npublish-workstation=no\n' \
    "$$" "$n" > "$dir/avahi.conf"
}
lan_avahi() { # lan_avahi N: start avahi-daemon of host N inside its namespace, with its own /run
  local dir="$work/lan$1"
  DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/bus" ip netns exec "tbrd-demo-$$-$1" unshare --mount --propagation private \
    sh -c 'mount --bind "$1" /run && exec avahi-daemon -f "$2" --no-drop-root --no-chroot --no-rlimits --no-proc-title' \
    sh "$dir/run" "$dir/avahi.conf" > "$dir/avahi.log" 2>&1 &
  pids+=($!)
}
if [ -z "$why_not" ]; then
  if lan_host 0 && lan_host 1 \
    && ip link add lan0 netns "tbrd-demo-$$-0" type veth peer name lan0 netns "tbrd-demo-$$-1" \
    && ip -n "tbrd-demo-$$-0" addr add 192.0.2.1/24 dev lan0 && ip -n "tbrd-demo-$$-0" link set lan0 up \
    && ip -n "tbrd-demo-$$-1" addr add 192.0.2.2/24 dev lan0 && ip -n "tbrd-demo-$$-1" link set lan0 up; then
    wait_for 10 "the LAN's buses" test -S "$work/lan1/bus"
    lan_avahi 0
    lan_avahi 1
    wait_for 15 "avahi-daemon on host 0" grep -q "Server startup complete" "$work/lan0/avahi.log"
    wait_for 15 "avahi-daemon on host 1" grep -q "Server startup complete" "$work/lan1/avahi.log"
    echo "host 0 (the border routers): 192.0.2.1, system bus unix:path=$work/lan0/bus"
    echo "host 1 (tbrd, tbrctl):       192.0.2.2, system bus unix:path=$work/lan1/bus"
  else
    why_not="the network namespaces could not be set up (see the error above)"
  fi
fi
if [ -n "$why_not" ]; then
  mdns=no
  echo "SKIPPING the mDNS steps: $why_not. Without mDNS tbrd shows no advertised vendor or product names,"
  echo "tbrctl discover has nothing to browse, and keys started outside tbrd are not reported."
  sim_mdns=()
  sim_env=()
else
  sim_mdns=(--mdns)
  sim_env=(env "DBUS_SYSTEM_BUS_ADDRESS=unix:path=$work/lan0/bus")
  export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/lan1/bus"
fi

step "Two simulated border routers (otbr-sim) on one Thread network"
dataset=$(command tbrctl dataset new --name DemoHome --channel 15)
echo "dataset for the network (hex TLVs; they hold the network key): ${dataset:0:24}…"
${sim_env[@]} otbr-sim --bus "$BUS" --interface wpan0 --dataset "$dataset" --vendor "Demo Vendor" --product "Kitchen BR" \
  --role-delay 300 "${sim_mdns[@]}" > "$work/sim0.log" 2>&1 &
pids+=($!)
${sim_env[@]} otbr-sim --bus "$BUS" --interface wpan1 --dataset "$dataset" --vendor "Demo Vendor" --product "Hallway BR" \
  --role-delay 300 "${sim_mdns[@]}" > "$work/sim1.log" 2>&1 &
pids+=($!)
wait_for 10 "otbr-sim" grep -q ready "$work/sim0.log"
wait_for 10 "otbr-sim" grep -q ready "$work/sim1.log"
cat "$work/sim0.log" "$work/sim1.log"

step "Without tbrd, tbrctl talks to otbr-agent directly"
show tbrctl list

step "tbrd, the service (state in a temporary directory)"
# tbrd keeps a firewall table of its own for the internet-access policy. The demo never touches this
# host's firewall: as root it runs tbrd in a network namespace of its own; otherwise with firewall = off.
if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null && command -v nft >/dev/null \
   && ip netns add "tbrd-demo-$$" 2>/dev/null; then
  netns="tbrd-demo-$$"
  ip -n "$netns" link set lo up
  # Stand-ins for a Thread interface and the LAN (eth0, the infrastructure interface otbr-sim names),
  # so the firewall has the LAN's prefixes to let through.
  ip -n "$netns" link add wpan0 type veth peer name eth0
  ip -n "$netns" addr add 2001:db8:1::1/64 dev eth0 nodad && ip -n "$netns" addr add 192.0.2.1/24 dev eth0
  ip -n "$netns" link set wpan0 up && ip -n "$netns" link set eth0 up
  in_ns=(ip netns exec "$netns")
  printf 'policy-check-interval = 60\n' > "$work/tbrd.conf"
  echo "tbrd runs in the network namespace $netns (its firewall is that namespace's, not this host's)"
else
  in_ns=()
  printf 'firewall = off\n' > "$work/tbrd.conf"
  echo "not root (or no ip/nft): tbrd runs with firewall = off, so the demo shows NAT64 but not the firewall"
fi
# The Matter commissioner: matter-sim, a simulated python-matter-server (no radio; it speaks the real
# server's WebSocket API, docs/matter-sim.md) with a Bluetooth adapter and two devices that are there,
# each step taking 250 ms so that the stages can be watched as they happen. It runs where tbrd runs. A
# real home points matter-server-url at python-matter-server (Home Assistant's, often).
"${in_ns[@]}" matter-sim --port 0 --bluetooth --step-ms 250 \
  --device "discriminator=3840 passcode=20202021 vendor-id=0xFFF1 product-id=0x8001" \
  --device "discriminator=2048 passcode=20202021 vendor-id=0xFFF1 product-id=0x8002" > "$work/matter-sim.out" 2> "$work/matter-sim.log" &
pids+=($!)
wait_for 10 "matter-sim" grep -q '^ready ' "$work/matter-sim.out"
matter_url=$(sed -n 's/^ready //p' "$work/matter-sim.out" | head -1)
echo "matter-sim (a simulated python-matter-server) listens at $matter_url"
cat >> "$work/tbrd.conf" <<CONF
matter-backend = matter-server
matter-server-url = $matter_url
CONF
# A home's MQTT broker (Debian's mosquitto, with users and passwords), where tbrd publishes its routers
# and structures for Home Assistant and takes requests (docs/mqtt.md). It runs where tbrd runs.
if [ -n "$netns" ]; then mqtt_port=1883; else mqtt_port=$((20000 + RANDOM % 40000)); fi
mosquitto_passwd -b -c "$work/mqtt-users" tbrd tbrd-demo-password && mosquitto_passwd -b "$work/mqtt-users" homeassistant ha-demo-password
cat > "$work/mosquitto.conf" <<CONF
listener $mqtt_port 127.0.0.1
user $(id -un)
allow_anonymous false
password_file $work/mqtt-users
log_dest file $work/mosquitto.log
CONF
"${in_ns[@]}" mosquitto -c "$work/mosquitto.conf" &
pids+=($!)
printf 'tbrd-demo-password\n' > "$work/mqtt-password" && chmod 600 "$work/mqtt-password"
cat >> "$work/tbrd.conf" <<CONF
mqtt-url = mqtt://127.0.0.1:$mqtt_port
mqtt-username = tbrd
mqtt-password-file = $work/mqtt-password
mqtt-client-id = tbrd-demo
CONF
mqtt_sub() { "${in_ns[@]}" mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" -u homeassistant -P ha-demo-password "$@"; }
mqtt_pub() { "${in_ns[@]}" mosquitto_pub -h 127.0.0.1 -p "$mqtt_port" -u homeassistant -P ha-demo-password "$@"; }
"${in_ns[@]}" tbrd --bus "$BUS" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 &
pids+=($!)
tbrd_pid=$!
wait_for 15 "tbrd" busctl --address="$BUS" status io.tbrd
echo "tbrd is running (pid $tbrd_pid); its log: $work/tbrd.log"

step "Border routers, as tbrd sees them"
show tbrctl list
if [ "$mdns" = yes ]; then
  echo "(otbr-agent publishes its vendor and product names only over mDNS: tbrd takes them from the"
  echo " vn and mn keys of each router's _meshcop._udp TXT record, matched by its Border Agent ID)"
  wait_for 15 "the advertised names" sh -c "command tbrctl --bus '$BUS' --json info -d wpan1 | grep -q 'Hallway BR'"
else
  echo "(otbr-agent publishes its vendor and product names only over mDNS, skipped here: they stay empty"
  echo " unless vendor-name and product-name are set in tbrd.conf)"
fi
show tbrctl info -d wpan0
show tbrctl --json info -d wpan1

step "Discovery: every Thread border agent on the LAN, from mDNS"
if [ "$mdns" = yes ]; then
  show tbrctl discover --timeout 2
else
  echo "SKIPPED (no mDNS in this run: $why_not)"
fi

step "The active dataset (secrets redacted unless --reveal-secrets)"
show tbrctl dataset show -d wpan0

step "A structure (a home) owning both routers"
show tbrctl structure create Home
show tbrctl structure add Home wpan0
show tbrctl structure add Home wpan1
show tbrctl structure show Home

step "Internet access for the structure: NAT64 only (tbrd applies it to both routers, then reports each)"
show tbrctl structure policy Home --internet-access nat64-only
show busctl --address="$BUS" get-property io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter Nat64State
if [ -n "$netns" ]; then
  echo "tbrd's own firewall table (global IPv6 from the Thread interfaces dropped, the LAN's prefixes let through):"
  show ip netns exec "$netns" nft list table inet tbrd
else
  echo "(the firewall part is off in this run: tbrctl reports it in the DETAIL column)"
fi
show tbrctl --json structure policy Home
echo "back to unspecified: tbrd stops managing the structure and removes its firewall rules"
show tbrctl structure policy Home --internet-access unspecified

step "A home controller over MQTT: Home Assistant finds the routers and Home by itself, and one message sets internet access"
mqtt_online() { mqtt_sub -t tbrd/bridge/state -C 1 -W 2 2>/dev/null | grep -q online; }
wait_for 15 "tbrd on the MQTT broker" mqtt_online
echo "(mqtt_sub and mqtt_pub below are mosquitto_sub and mosquitto_pub -h 127.0.0.1 -p $mqtt_port -u homeassistant -P …)"
echo "Home Assistant's discovery configs tbrd keeps on the broker (retained):"
printf '%s$ mosquitto_sub -t '"'"'homeassistant/#'"'"' --retained-only -F %%t%s\n' "$bold" "$plain"
{ mqtt_sub -t 'homeassistant/#' --retained-only -W 1 -F '%t' 2>/dev/null || true; } | sort
echo "Home Assistant's select sets Home's internet access: one message on its command topic"
show mqtt_pub -t tbrd/structures/Home/internet-access/set -m none
home_none() { tbrctl --json structure policy Home | grep -q '"internetAccessOption" : "none"' && ! tbrctl --json structure policy Home | grep -q '"state" : "pending"'; }
wait_for 15 "Home's policy to be none, applied" home_none
show tbrctl structure policy Home
echo "A request with a transaction, answered on tbrd/bridge/response/structure/policy:"
# exec: the background job is mosquitto_sub itself (ip netns exec execs it too), so that kill ends it.
(exec "${in_ns[@]}" mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" -u homeassistant -P ha-demo-password \
  -t tbrd/bridge/response/structure/policy -t demo/ready -F '%t %p' > "$work/mqtt-response") &
sub_pid=$!
pids+=($sub_pid)
subscribed() { mqtt_pub -t demo/ready -m ready && grep -q '^demo/ready' "$work/mqtt-response"; }
wait_for 10 "mosquitto_sub to be subscribed" subscribed
show mqtt_pub -t tbrd/bridge/request/structure/policy -m '{"structure": "Home", "internetAccessOption": "unspecified", "transaction": 1}'
wait_for 10 "the response" grep -q '^tbrd/bridge/response' "$work/mqtt-response"
kill "$sub_pid"
grep '^tbrd/bridge/response' "$work/mqtt-response" | cut -c1-240

step "The mesh around a border router: a few simulated neighbours, read fresh from otbr-agent's tables"
sim="busctl --address=$BUS call io.openthread.BorderRouter.wpan0 /io/tbrd/Simulator/wpan0 io.tbrd.Simulator1"
echo "(otbr-sim's control interface stands in for the radio: a router, two children of wpan0, and a router"
echo " with a child of its own two hops away, which wpan0's own tables cannot show)"
$sim AddNode sttybbu router 0x1a2b3c4d5e6f7081 0 3 true true 0 > /dev/null
$sim AddNode sttybbu child 0x2a2b3c4d5e6f7082 0 2 true false 240 > /dev/null
$sim AddNode sttybbu child 0x3a2b3c4d5e6f7083 0 3 false false 600 > /dev/null
$sim AddNode sttybbu router 0x4a2b3c4d5e6f7084 0x1a2b3c4d5e6f7081 2 true true 0 > /dev/null
$sim AddNode sttybbu child 0x5a2b3c4d5e6f7085 0x4a2b3c4d5e6f7084 1 false false 240 > /dev/null
show tbrctl mesh -d wpan0
show tbrctl mesh -d wpan0 --format dot
if command -v dot >/dev/null; then
  command tbrctl --bus "$BUS" mesh -d wpan0 --format dot | dot -Tsvg > "$work/mesh.svg"
  echo "rendered by Graphviz: $(wc -c < "$work/mesh.svg") bytes of SVG (tbrctl mesh --format dot | dot -Tsvg > mesh.svg)"
fi

step "tbrctl doctor: what keeps devices unreachable, each check saying what it read"
omr=$(command tbrctl --bus "$BUS" --json mesh -d wpan0 | python3 -c 'import json,sys; print(next((p["prefix"] for p in json.load(sys.stdin)["networkData"]["onMeshPrefixes"] if p["omr"]), ""))')
echo "wpan0's OMR prefix is $omr; tbrd's host has no route to it yet (otbr-sim has no real Thread interface):"
show tbrctl doctor -d wpan0 || echo "(exit status $?: a check failed)"
if [ -n "$netns" ] && [ -n "$omr" ]; then
  echo "With the route a real otbr-agent would add on its Thread interface, in tbrd's namespace:"
  ip -n "$netns" -6 route add "$omr" dev wpan0
  show tbrctl doctor -d wpan0 || echo "(exit status $?: a check failed)"
fi

step "Matter: two devices commissioned into Home over Thread, every stage printed as it happens"
echo "The codes printed on the devices (made here with tbrctl matter generate; passcode 20202021, the test one):"
lamp=$(command tbrctl matter generate --vendor-id 0xFFF1 --product-id 0x8001 --discriminator 3840 --passcode 20202021 | awk '/^QR code/ { print $3 }')
plug=$(command tbrctl matter generate --vendor-id 0xFFF1 --product-id 0x8002 --discriminator 2048 --passcode 20202021 | awk '/^Manual code/ { print $3 }')
echo "lamp (QR code): $lamp    plug (manual code): $plug"
show tbrctl matter parse "$lamp"
echo "The home has rooms; the devices go into the kitchen as they are commissioned:"
show tbrctl structure room add Home Kitchen
show tbrctl structure room add Home Hall
echo "tbrd picks the structure's Thread network, hands its credentials to the commissioner and follows each device:"
show tbrctl matter commission --structure Home --room Kitchen "$lamp" "$plug"
node=$(tbrctl --json matter nodes --structure Home | sed -n 's/.*"nodeId" *: *\([0-9]*\).*/\1/p' | head -1)
echo "A name (written to the device's NodeLabel too) and another room for node $node:"
show tbrctl matter rename "$node" "Desk lamp"
show tbrctl matter move "$node" --room Hall
show tbrctl matter nodes
echo "Nodes the commissioner has that no structure holds (on a server shared with Home Assistant, its devices;"
echo "tbrd never touches them):"
show tbrctl matter nodes --unclaimed
echo "Sharing node $node with another controller (multi-admin): a commissioning window and fresh codes"
show tbrctl matter share "$node"

step "ePSKc: a watcher prints every session's end (JSON Lines, as a script reads them)"
command tbrctl --bus "$BUS" epskc watch --json > "$work/watch.jsonl" 2> "$work/watch.err" &
pids+=($!)
sleep 0.5

step "1. A key that a (simulated) commissioner uses"
key=$(command tbrctl --bus "$BUS" --json epskc activate -d wpan0 --duration 120 | sed -n 's/.*"epskc" *: *"\([0-9]*\)".*/\1/p')
echo "ePSKc for wpan0: $key  (give it to the phone; valid 120 s, single use)"
show busctl --address="$BUS" call io.openthread.BorderRouter.wpan0 /io/tbrd/Simulator/wpan0 io.tbrd.Simulator1 UseEphemeralKey s "$key"
wait_for 10 "keyUsed" grep -q keyUsed "$work/watch.jsonl"

step "2. A key nobody uses: it expires"
show tbrctl epskc activate -d wpan1 --duration 2
wait_for 10 "expired" grep -q expired "$work/watch.jsonl"

step "3. A key cancelled before use"
show tbrctl epskc activate -d wpan0 --duration 60
show tbrctl epskc deactivate -d wpan0
wait_for 10 "cancelled" grep -q cancelled "$work/watch.jsonl"

step "4. A key started outside tbrd: directly on otbr-agent, as otbr's REST API or ot-ctl would"
if [ "$mdns" = yes ]; then
  echo "tbrd sees the router's _meshcop-e._udp service appear, opens a session for the key (validity"
  echo "unknown: validSeconds 0), and reports its end with the reason the router's telemetry gives."
  show busctl --address="$BUS" call io.openthread.BorderRouter.wpan1 /io/openthread/BorderRouter/wpan1 \
    io.openthread.BorderRouter ActivateEphemeralKeyMode u 3000
  wait_for 15 "the key started outside tbrd" sh -c "grep -c epskcModeActivated '$work/watch.jsonl' | grep -qx 4"
  wait_for 15 "its end" sh -c "grep -c expired '$work/watch.jsonl' | grep -qx 2"
  show tbrctl epskc watch -d wpan1 --since 6 --timeout 0.5 || true
else
  echo "SKIPPED (no mDNS in this run: $why_not); without it tbrd cannot see keys it did not start."
fi

step "What the watcher printed"
cat "$work/watch.jsonl"

step "A script that restarts misses nothing: replay from sequence 2"
show tbrctl --json epskc watch --since 2 --timeout 1 || true

step "A border router on another host, reached through otbr-agent's REST API"
echo "A third simulated router with a bus of its own (tbrd cannot see it on D-Bus), serving the REST API"
echo "otbr-agent serves with --rest-listen-address/--rest-listen-port; here on loopback where tbrd runs."
side_bus garage
"${in_ns[@]}" ${sim_env[@]} otbr-sim --bus "unix:path=$work/garage-bus" --interface wpan0 --dataset "$dataset" \
  --vendor "Demo Vendor" --product "Garage BR" --role-delay 300 --rest 127.0.0.1:0 "${sim_mdns[@]}" > "$work/garage.log" 2>&1 &
pids+=($!)
wait_for 10 "the garage router's REST API" grep -q '^rest ' "$work/garage.log"
rest_url=$(awk '/^rest / { print $3 }' "$work/garage.log")
show tbrctl router add "$rest_url" --id garage
wait_for 15 "the garage router online" sh -c "command tbrctl --bus '$BUS' info -d garage | grep -q leader"
if [ "$mdns" = yes ]; then
  echo "(its names come from mDNS as for the others: the TXT record whose Border Agent ID is the one REST gave)"
  wait_for 15 "the garage router's names" sh -c "command tbrctl --bus '$BUS' --json info -d garage | grep -q 'Garage BR'"
fi
show tbrctl list
show tbrctl info -d garage
echo "Its mesh: over REST tbrd asks the agent for network diagnostics, which reach beyond the first hop"
garage_sim="busctl --address=unix:path=$work/garage-bus call io.openthread.BorderRouter.wpan0 /io/tbrd/Simulator/wpan0 io.tbrd.Simulator1"
$garage_sim AddNode sttybbu router 0x6a2b3c4d5e6f7086 0 3 true true 0 > /dev/null
$garage_sim AddNode sttybbu child 0x7a2b3c4d5e6f7087 0 3 false false 240 > /dev/null
$garage_sim AddNode sttybbu router 0x8a2b3c4d5e6f7088 0x6a2b3c4d5e6f7086 2 true true 0 > /dev/null
$garage_sim AddNode sttybbu child 0x9a2b3c4d5e6f7089 0x8a2b3c4d5e6f7088 2 true false 240 > /dev/null
show tbrctl mesh -d garage
show tbrctl epskc activate -d garage --duration 60
show tbrctl epskc deactivate -d garage
show tbrctl structure add Home garage
echo "(REST has no NAT64, PD or firewall: the policy is reported unsupported on it, never silently applied;"
echo " the command exits 1 because a router could not apply it)"
show tbrctl structure policy Home --internet-access all || true
show tbrctl structure policy Home --internet-access unspecified
show tbrctl router remove garage

step "One Thread network for the home: a router tbrd does not manage shares its credentials through its ePSKc"
echo "A neighbouring border router (an Apple TV, say) on a Thread network of its own, on a bus tbrd does not see."
echo "Its owner starts a key in its app; tbrd is the commissioner that uses it (DTLS with EC-JPAKE, then MGMT_ACTIVE_GET)."
side_bus tv
tv_dataset=$(command tbrctl dataset new --name "Living Room TV" --channel 20 --extpanid dead00beef00cafe)
"${in_ns[@]}" otbr-sim --bus "unix:path=$work/tv-bus" --interface wpan0 --dataset "$tv_dataset" --vendor "Acme" \
  --product "TV Hub" --role-delay 300 --epskc-retry-hold 200 > "$work/tv.log" 2>&1 &
pids+=($!)
wait_for 10 "the TV's router" grep -q ready "$work/tv.log"
tv_agent="busctl --address=unix:path=$work/tv-bus call io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter"
tv_sim="busctl --address=unix:path=$work/tv-bus call io.openthread.BorderRouter.wpan0 /io/tbrd/Simulator/wpan0 io.tbrd.Simulator1"
wait_for 15 "the TV's router to lead its network" sh -c "busctl --address=unix:path=$work/tv-bus get-property io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter DeviceRole | grep -q leader"
tv_key=$($tv_agent ActivateEphemeralKeyMode u 120000 | awk '{ gsub(/"/, "", $2); print $2 }')
tv_port=$($tv_sim EphemeralKeyTransport | awk '{ print $3 }')
echo "The TV shows the key $tv_key; its ePSKc port is $tv_port (_meshcop-e._udp)."
echo "A mistyped key that still passes the check digit is rejected by the router (it ends a key after 10 such tries):"
wrong_key=$(command tbrctl epskc generate)
show tbrctl network fetch --key "$wrong_key" --from "127.0.0.1:$tv_port" --structure Home || true
show tbrctl network fetch --key "$tv_key" --from "127.0.0.1:$tv_port" --structure Home
echo "The key was used once: the TV ends it when the session closes"
wait_for 15 "the TV's key to stop" sh -c "$tv_sim EphemeralKeyTransport | grep -q stopped"
$tv_sim EphemeralKeyTransport
show tbrctl network list --structure Home
show tbrctl network preferred Home dead00beef00cafe
show tbrctl network forget Home dead00beef00cafe || true
show tbrctl network preferred Home "$(printf '%s' "$dataset" | command tbrctl --json dataset decode - | sed -n 's/.*"extPanId" : "\([0-9a-f]*\)".*/\1/p')"

step "One network for the home: the Hallway router, on the TV's network, moves back with its whole mesh"
echo "Someone set up the Hallway router on the TV's network. tbrd holds both networks' credentials now,"
echo "so it can move Hallway and every device on its mesh onto Home's preferred network: no re-commissioning."
tbrctl network join -d wpan1 --dataset "$tv_dataset" --this-router-only > /dev/null
show tbrctl structure migrate Home --dry-run
show tbrctl structure migrate Home
echo "A second change while one is pending is refused (exit 75):"
show tbrctl structure channel Home 25 || true
echo "(otbr-agent waits 300 s; the simulator ends the delay now, as the Delay Timer would)"
sim_control() { dbus-send --bus="$BUS" --print-reply --dest="io.openthread.BorderRouter.$1" "/io/tbrd/Simulator/$1" "io.tbrd.Simulator1.$2" "${@:3}" > /dev/null; }
hallway_moved() { tbrctl --json structure show Home | grep -q '"outcome" : "moved"'; }
channel_changed() { local shown; shown=$(tbrctl --json structure show Home); grep -q '"kind" : "channel"' <<< "$shown" && ! grep -q '"outcome" : "pending"' <<< "$shown"; }
sim_control wpan1 ApplyPendingDataset
wait_for 15 "Hallway to be moved" hallway_moved
show tbrctl structure show Home

step "A quieter channel: energy scans of both routers pick it, and the network moves there the same way"
sim_control wpan0 SetChannelEnergy byte:11 int16:-58
sim_control wpan1 SetChannelEnergy byte:12 int16:-63
show tbrctl structure scan Home --duration 50
show tbrctl structure channel Home --auto
sim_control wpan0 ApplyPendingDataset
sim_control wpan1 ApplyPendingDataset
wait_for 15 "the channel change to be done" channel_changed
show tbrctl structure show Home

step "A border router reset: tbrd notices and joins it back to Home's network (recovery auto)"
home_xpan=$(printf '%s' "$dataset" | command tbrctl --json dataset decode - | sed -n 's/.*"extPanId" : "\([0-9a-f]*\)".*/\1/p')
show tbrctl structure recovery Home auto
echo "Kitchen BR's otbr-agent is factory-reset (D-Bus FactoryReset: what a reflash, a new radio or a wiped add-on leaves behind):"
busctl --address="$BUS" call io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter FactoryReset
kitchen_back() { tbrctl --json dataset show -d wpan0 2>/dev/null | grep -q "\"extPanId\" : \"$home_xpan\"" \
  && busctl --address="$BUS" get-property io.openthread.BorderRouter.wpan0 /io/openthread/BorderRouter/wpan0 io.openthread.BorderRouter DeviceRole | grep -q leader; }
wait_for 20 "Kitchen BR to be back on Home's network" kitchen_back
# The agent is attached a moment before its Join call returns to tbrd, and tbrd logs after that return.
wait_for 20 "tbrd to log the rejoin" grep -q 'router joined back' "$work/tbrd.log"
grep 'router joined back' "$work/tbrd.log" | tail -1
show tbrctl structure recover Home

step "A backup of the home, and its restore on a new host"
printf 'demo passphrase, keep it apart from the file\n' > "$work/passphrase" && chmod 600 "$work/passphrase"
show tbrctl backup create --output "$work/home.tbrdbackup" --passphrase-file "$work/passphrase"
echo "A new host: tbrd stopped, its state deleted, started again with nothing"
kill -TERM "$tbrd_pid"; wait "$tbrd_pid" || true
cat "$work/tbrd.log" >> "$work/tbrd-before.log"
rm -rf "$work/state"
"${in_ns[@]}" tbrd --bus "$BUS" --state-dir "$work/state" --config "$work/tbrd.conf" > "$work/tbrd.log" 2>&1 &
pids+=($!)
tbrd_pid=$!
wait_for 15 "tbrd" busctl --address="$BUS" status io.tbrd
show tbrctl structure list
echo "A wrong passphrase changes nothing (exit 77):"
printf 'not the passphrase\n' > "$work/wrong" && chmod 600 "$work/wrong"
show tbrctl backup restore "$work/home.tbrdbackup" --passphrase-file "$work/wrong" || true
show tbrctl backup restore "$work/home.tbrdbackup" --passphrase-file "$work/passphrase"
show tbrctl structure show Home
show tbrctl network list --structure Home

step "Offline tools"
printf '%s$ tbrctl dataset validate - < dataset.hex%s\n' "$bold" "$plain"
printf '%s' "$dataset" | tbrctl dataset validate -
show tbrctl epskc check "$key"

step "tbrd stops cleanly on SIGTERM"
kill -TERM "$tbrd_pid"
wait "$tbrd_pid" && echo "tbrd exited with status 0"
cat "$work/tbrd.log" >> "$work/tbrd-before.log"
for secret in "$key" "$tv_key" "$wrong_key" "demo passphrase"; do
  if grep -q "$secret" "$work/tbrd-before.log"; then echo "demo: an ePSKc reached tbrd's log!" >&2; exit 1; fi
done
# Nor does a network key: the TV's dataset (fetched and stored) holds one.
tv_network_key=$(printf '%s' "$tv_dataset" | command tbrctl --json dataset decode --reveal-secrets - | sed -n 's/.*"networkKey" : "\([0-9a-f]*\)".*/\1/p')
if [ -z "$tv_network_key" ] || grep -q "$tv_network_key" "$work/tbrd-before.log"; then echo "demo: a network key reached tbrd's log!" >&2; exit 1; fi
if grep -q 20202021 "$work/tbrd-before.log"; then echo "demo: a setup passcode reached tbrd's log!" >&2; exit 1; fi
echo "tbrd's log holds no ePSKc, no network key and no setup passcode. Demo complete."
