#!/usr/bin/env bash
# Installs the packages `make deb` built on this machine, checks what a user gets, and purges them:
#   scripts/check-deb.sh DIR      (DIR holds tbrd_*.deb and otbr-sim_*.deb)
# It changes the machine (packages, the user tbrd and its groups, removed first and made again by the
# package, a system bus if none runs): for CI's throw-away machine, or a host where that is wanted. Without systemd as PID 1 (a container) the unit is checked
# with systemd-analyze and tbrd is started as the unit starts it: as the user tbrd with CAP_NET_ADMIN
# alone, on the system bus with the policy the package installed.
set -euo pipefail
dir=${1:?usage: check-deb.sh DIR}
[ "$(id -u)" -eq 0 ] || { echo "check-deb.sh installs packages: run it as root" >&2; exit 1; }
tbrd_deb=$(ls "$dir"/tbrd_*.deb | tail -1)
sim_deb=$(ls "$dir"/otbr-sim_*.deb | tail -1)
fail() { echo "check-deb: $*" >&2; exit 1; }
step() { echo "check-deb: $*"; }

bus_pid="" ; sim_pid="" ; tbrd_pid="" ; made_policy=""
cleanup() {
  [ -n "$tbrd_pid" ] && kill "$tbrd_pid" 2>/dev/null || true
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null || true
  [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null || true
  [ -n "$made_policy" ] && rm -f "$made_policy"
  userdel tbrd-reader 2>/dev/null || true
  dpkg --triggers-only --pending > /dev/null 2>&1 || true  # held back at the install; a failure may leave them
  return 0
}
trap cleanup EXIT

# A system bus runs before the package comes, as on a real host: the package must make it read the
# policy again once the user and groups exist.
if [ ! -d /run/systemd/system ]; then
  if ! busctl --system status > /dev/null 2>&1; then
    mkdir -p /run/dbus && rm -f /run/dbus/system_bus_socket
    dbus-daemon --system --nofork --nopidfile > /tmp/check-deb-bus.log 2>&1 & bus_pid=$!
    for _ in $(seq 100); do busctl --system status > /dev/null 2>&1 && break; sleep 0.1; done
  fi
  if [ ! -e /etc/dbus-1/system.d/otbr-agent.conf ]; then
    # otbr-agent's own policy, as ot-br-posix installs it: only root owns and calls its names.
    made_policy=/etc/dbus-1/system.d/otbr-agent.conf
    cat > "$made_policy" <<'POLICY'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <policy user="root">
    <allow own_prefix="io.openthread.BorderRouter"/>
    <allow send_interface="io.openthread.BorderRouter"/>
    <allow send_interface="org.freedesktop.DBus.Properties"/>
    <allow send_interface="org.freedesktop.DBus.Introspectable"/>
  </policy>
</busconfig>
POLICY
    busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig > /dev/null
  fi
fi

# As on a host that never had tbrd: no user tbrd and no groups tbrd, tbrd-admin before the package
# (earlier runs, or make test's policy tests, may have made them). The bus then first reads the policy
# while they do not exist and ignores their rules; tbrd taking io.tbrd as the user tbrd below shows that
# it read the policy again once they existed. The postinst must do that before the unit starts (under
# systemd the postinst starts tbrd); dbus's own dpkg trigger does it too, but only at the end of the
# install, so the install below holds the triggers back until tbrd has been started.
fresh_host=yes
if ! dpkg-query -W -f='${Status}' tbrd 2>/dev/null | grep -q installed; then
  if getent passwd tbrd > /dev/null; then userdel tbrd 2>/dev/null || fresh_host=no; fi
  for group in tbrd-admin tbrd; do
    if getent group "$group" > /dev/null; then groupdel "$group" 2>/dev/null || fresh_host=no; fi
  done
else
  fresh_host=no
fi
if [ "$fresh_host" = yes ]; then
  step "no user tbrd, no group tbrd or tbrd-admin before the package: it must make them and the bus apply their rules"
else
  step "the user tbrd or its groups could not be removed first: a first install is not what is checked"
fi

step "installing $(basename "$tbrd_deb") and $(basename "$sim_deb") with apt-get"
# Triggers are held back until tbrd has been started below, so that dbus's own trigger (which makes the
# bus read every policy again at the end of an install) cannot stand in for the postinst's reload.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::NoTriggers=true -o DPkg::ConfigurePending=false \
  "$(realpath "$tbrd_deb")" "$(realpath "$sim_deb")" > /dev/null
dpkg --configure --no-triggers tbrd otbr-sim > /dev/null
dpkg-query -W -f='${Status}\n' tbrd | grep -q ' installed$' || fail "tbrd is not configured: $(dpkg-query -W -f='${Status}' tbrd)"

step "what the package installed"
for f in /usr/sbin/tbrd /usr/bin/tbrctl /usr/bin/otbr-sim /usr/bin/matter-sim /lib/systemd/system/tbrd.service \
         /usr/share/dbus-1/system.d/io.tbrd.conf /usr/lib/sysusers.d/tbrd.conf /etc/tbrd/tbrd.conf \
         /usr/share/bash-completion/completions/tbrctl /usr/share/zsh/vendor-completions/_tbrctl \
         /usr/share/fish/vendor_completions.d/tbrctl.fish /usr/share/doc/tbrd/copyright; do
  [ -e "$f" ] || fail "missing $f"
done
for page in tbrctl.1 tbrd.8 tbrd.conf.5 otbr-sim.1 matter-sim.1; do
  man -w "${page%.*}" > /dev/null 2>&1 || man -w "${page##*.}" "${page%.*}" > /dev/null || fail "no manual page $page"
done
dpkg-query -W -f='${Conffiles}\n' tbrd | grep -q /etc/tbrd/tbrd.conf || fail "/etc/tbrd/tbrd.conf is not a conffile"
getent passwd tbrd > /dev/null || fail "no user tbrd"
getent group tbrd > /dev/null && getent group tbrd-admin > /dev/null || fail "no group tbrd or tbrd-admin"

step "every library tbrd and tbrctl open with dlopen is in .note.dlopen and in Depends"
depends=$(dpkg-query -W -f='${Depends}' tbrd)
for binary in /usr/sbin/tbrd /usr/bin/tbrctl; do
  note=$(objcopy -O binary --only-section=.note.dlopen "$binary" /dev/stdout | tr -d '\0')
  for soname in libdbus-1.so.3 libcrypto.so.3 libavahi-client.so.3 libcurl.so.4 libmicrohttpd.so.12 libmosquitto.so.1; do
    echo "$note" | grep -q "\"$soname\"" || fail "$binary: .note.dlopen does not name $soname"
    package=$(dpkg -S "*/$soname" | cut -d: -f1 | head -1)
    echo "$depends" | grep -q "$package" || fail "$soname comes from $package, which Depends does not name"
  done
done

step "packed relocations (DT_RELR) are declared: Depends asks for the glibc that reads them"
for binary in /usr/sbin/tbrd /usr/bin/tbrctl; do
  readelf -d "$binary" | grep -q '(RELR)' || fail "$binary has no packed relocations: was it linked as scripts/release-link-flags says?"
  readelf -V "$binary" | grep -q GLIBC_ABI_DT_RELR || fail "$binary does not ask for GLIBC_ABI_DT_RELR"
done
echo "$depends" | grep -q 'libc6 (>= 2.36)' || fail "Depends does not ask for libc6 (>= 2.36), which DT_RELR needs"

step "what is linked statically is declared in Built-Using: mbedTLS (EC-JPAKE, scripts/mbedtls.sh) and GCC's libstdc++"
gcc_source=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' libstdc++-12-dev)
for deb in "$tbrd_deb" "$sim_deb"; do
  built_using=$(dpkg-deb -f "$deb" Built-Using)
  echo "$built_using" | grep -qE '(^|, )mbedtls \(= [^)]+\)(,|$)' || fail "$(basename "$deb"): Built-Using is '$built_using', without the mbedtls source it links"
  echo "$built_using" | grep -qF "$gcc_source" || fail "$(basename "$deb"): Built-Using is '$built_using', without $gcc_source, whose libstdc++.a it links"
done
for binary in /usr/sbin/tbrd /usr/bin/tbrctl /usr/bin/otbr-sim; do
  ! ldd "$binary" | grep -q libmbed || fail "$binary loads a shared libmbed*: the EC-JPAKE build is meant to be linked in"
  ! ldd "$binary" | grep -q 'libstdc++\.so' || fail "$binary loads libstdc++.so.6: scripts/static-libstdc++ was meant to link it in"
  readelf -h "$binary" | grep -q 'Type:.*DYN' || fail "$binary is not position-independent (PIE): Debian builds PIE, and so does tbrd"
  readelf -l "$binary" | grep -q GNU_RELRO || fail "$binary has no RELRO segment"
done

exposure=$(systemd-analyze security --offline=yes /lib/systemd/system/tbrd.service 2>/dev/null \
  | sed -n 's/.*Overall exposure level for tbrd.service: \([0-9.]*\).*/\1/p')
[ -n "$exposure" ] || fail "systemd-analyze security gave no exposure level"
awk -v e="$exposure" 'BEGIN { exit !(e <= 1.5) }' || fail "exposure $exposure is above 1.5"
step "exposure $exposure"

# The memory budget (issue 33): the packaged tbrd with one otbr-sim router, idle 10 s after it is ready,
# stays at or under 17 MiB resident (VmRSS). It was 13 MiB until issues 48 and 49 added always-on services
# (recovery follows every router; the health monitor runs the doctor's checks at start and on each change)
# and tbrd read 15,744 KiB here with a remade link order: docs/performance.md, "Idle memory after issues 48
# and 49", says what grew and that bringing it back down is open work. Resident memory is steady enough for
# a budget (the runs of docs/performance.md vary by about 0.3 MiB); this is not a timing test.
budget_kib=$((17 * 1024))
memory_budget() { # memory_budget PID
  sleep 10
  local rss
  rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status")
  [ -n "$rss" ] || fail "cannot read tbrd's VmRSS"
  step "tbrd idle with one router: VmRSS $rss KiB (budget $budget_kib)"
  [ "$rss" -le "$budget_kib" ] || fail "tbrd is $rss KiB resident, above the $budget_kib KiB budget: $(grep -E '^(Rss|Anonymous)' "/proc/$1/smaps_rollup" | tr -s ' ' | tr '\n' ' ')"
}
wait_online() {
  for _ in $(seq 300); do tbrctl --json list 2>/dev/null | grep -q '"online" : true' && break; sleep 0.1; done
  tbrctl --json list | grep -q '"online" : true' || fail "tbrd (as tbrd) does not reach otbr-agent: $(tbrctl list 2>&1)"
}
otbr-sim --bus system --interface wpan0 --dataset 0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd051000112233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce570a70efeecb0c0402a0f7f8 > /tmp/check-deb-sim.log 2>&1 & sim_pid=$!
if [ -d /run/systemd/system ]; then
  step "systemctl start tbrd"
  systemctl start tbrd
  systemctl is-active --quiet tbrd || fail "tbrd is not active: $(systemctl status tbrd --no-pager)"
  wait_online
  memory_budget "$(systemctl show -p MainPID --value tbrd)"
  tbrctl list > /dev/null || fail "tbrctl list failed as root"
  systemctl stop tbrd
else
  step "no systemd here: tbrd as the unit runs it, on the system bus with the installed policy"
  install -d -m 0700 -o tbrd -g tbrd /var/lib/tbrd
  setpriv --reuid=tbrd --regid=tbrd --init-groups --inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin \
    --bounding-set=-all,+net_admin -- /usr/sbin/tbrd --bus system --state-dir /var/lib/tbrd --config /etc/tbrd/tbrd.conf \
    > /tmp/check-deb-tbrd.log 2>&1 & tbrd_pid=$!
  for _ in $(seq 300); do busctl --system status io.tbrd > /dev/null 2>&1 && break; sleep 0.1; done
  busctl --system status io.tbrd > /dev/null 2>&1 || fail "tbrd did not take io.tbrd (did the bus read the policy again once the user tbrd existed?): $(cat /tmp/check-deb-tbrd.log)"
  wait_online
  memory_budget "$tbrd_pid"
  step "root: tbrctl list and epskc activate"
  tbrctl epskc activate --duration 30 > /dev/null || fail "root cannot activate an ePSKc through tbrd"
  tbrctl epskc deactivate > /dev/null
  step "a member of group tbrd reads; changes are refused (77)"
  useradd --system --no-create-home --groups tbrd tbrd-reader
  setpriv --reuid=tbrd-reader --regid=tbrd-reader --init-groups -- tbrctl list > /dev/null || fail "group tbrd cannot list"
  status=0; setpriv --reuid=tbrd-reader --regid=tbrd-reader --init-groups -- tbrctl epskc activate > /dev/null 2>&1 || status=$?
  [ "$status" -eq 77 ] || fail "group tbrd: epskc activate exited $status, expected 77"
  kill "$tbrd_pid"; wait "$tbrd_pid" || fail "tbrd did not stop cleanly"; tbrd_pid=""
fi
[ -f /var/lib/tbrd/tbrd.db ] || fail "no state database in /var/lib/tbrd"
step "the triggers held back (dbus reads its policies again)"
dpkg --triggers-only --pending

step "apt-get remove keeps the state and the configuration"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q tbrd otbr-sim > /dev/null
[ -f /var/lib/tbrd/tbrd.db ] || fail "remove dropped the state"
[ -f /etc/tbrd/tbrd.conf ] || fail "remove dropped the configuration"
[ ! -e /usr/sbin/tbrd ] || fail "remove left /usr/sbin/tbrd"

step "apt-get purge drops them"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q tbrd > /dev/null
! dpkg-query -W -f='${Status}\n' tbrd otbr-sim 2>/dev/null | grep -q installed || fail "a package is still installed"
for f in /var/lib/tbrd /etc/tbrd /usr/share/dbus-1/system.d/io.tbrd.conf /lib/systemd/system/tbrd.service /usr/bin/tbrctl; do
  [ ! -e "$f" ] || fail "purge left $f"
done
step "ok"
