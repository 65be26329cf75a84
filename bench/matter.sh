#!/usr/bin/env bash
# Benchmark: Matter onboarding payloads, parse and generate, MatterOnboarding (Swift, -O) side by side
# with the CHIP SDK's own C++ parser and generator reached from Python (PyPI home-assistant-chip-core,
# `chip.setup_payload.SetupPayload`), on the example apps' QR code MT:Y.K9042C00KA0648G00 and its
# manual code 34970112332.
#   bench/matter.sh [ITERATIONS]        default 200000 for Swift, ITERATIONS/10 for Python
# Compiled with scripts/swiftc-modules.sh into bench/build/ (the modules shared with bench/meshcop.sh);
# makes a virtualenv in bench/build/chip-venv/ (both git-ignored). The SDK's library needs
# libnl-route-3-200 (Debian), which make bench installs (BENCH_PACKAGES in the Makefile).
# When the SDK cannot be installed or loaded, it says why and measures the Swift side alone. Not part
# of make test.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-200000}
[[ $iterations =~ ^[0-9]+$ ]] && [ "$iterations" -ge 10 ] || { echo "usage: bench/matter.sh [ITERATIONS>=10]" >&2; exit 64; }

build=bench/build
source scripts/swiftc-modules.sh
swiftc_init "$build/swift" -O
swiftc_program "$build/matter-bench" bench/MatterBench.swift

# The CHIP SDK from Python. Any step that fails leaves its reason in $why and the Swift side runs alone.
venv=$build/chip-venv
why=""
# The version docs/performance.md compares with (pip does nothing when the venv has it already).
if ! { { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
       "$venv/bin/pip" install --quiet --disable-pip-version-check home-assistant-chip-core==2025.7.0; } \
     >"$build/chip-install.log" 2>&1; then
  why="pip could not install home-assistant-chip-core (see $build/chip-install.log)"
fi
if [ -z "$why" ] && ! dpkg-query -W -f='${Status}' libnl-route-3-200 2>/dev/null | grep -q 'install ok installed'; then
  why="the SDK's _ChipDeviceCtrl.so links libnl-route-3.so.200: make bench-deps (or apt-get install libnl-route-3-200)"
fi

swift_out=$("$build/matter-bench" "$iterations")
py_iterations=$((iterations / 10))
py_out=""
if [ -z "$why" ]; then
  # The SDK's Python wrapper insists on pychip_CommonStackInit, which also opens /data/chip_factory.ini
  # and fails without that directory; the payload functions need only the memory it initialises first.
  # So: call it, ignore that failure, and leave with os._exit (the half-started stack cannot shut down).
  py_out=$("$venv/bin/python" - "$py_iterations" 2>"$build/chip-bench.log" <<'PY'
import ctypes, os, sys, time
from importlib.metadata import version
import chip.native
handle = chip.native._GetLibraryHandle(chip.native.Library.CONTROLLER, False)
handle.dll.pychip_CommonStackInit(ctypes.c_char_p(b"\0" * 4))
handle.initialized = True
from chip.setup_payload import SetupPayload

qr, manual = "MT:Y.K9042C00KA0648G00", "34970112332"
p = SetupPayload()
a = p.ParseQrCode(qr).attributes
assert (a["VendorID"], a["ProductID"], a["RendezvousInformation"], a["Long discriminator"], a["SetUpPINCode"]) \
    == ("65521", "32768", "2", "3840", "20202021"), a
assert p.GenerateQrCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2) == qr
assert p.GenerateManualPairingCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2) == manual
assert p.ParseManualPairingCode(manual).attributes["SetUpPINCode"] == "20202021"

def cycle():
    p.ParseQrCode(qr)
    return p.GenerateQrCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2), p.GenerateManualPairingCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2)

cases = [
    ("python-parse-qr", lambda: p.ParseQrCode(qr)),
    ("python-generate-qr", lambda: p.GenerateQrCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2)),
    ("python-parse-manual", lambda: p.ParseManualPairingCode(manual)),
    ("python-generate-manual", lambda: p.GenerateManualPairingCode(20202021, 0xFFF1, 0x8000, 3840, 0, 2)),
    ("python-cycle", cycle),
]
n = int(sys.argv[1])
for name, body in cases:
    for _ in range(min(1000, n)):
        body()
    start = time.perf_counter()
    for _ in range(n):
        body()
    elapsed = time.perf_counter() - start
    print(name, n, elapsed, n / elapsed, version("home-assistant-chip-core"), sys.version.split()[0])
sys.stdout.flush()
os._exit(0)
PY
  ) || why="the SDK's library could not be loaded or run from Python (see $build/chip-bench.log)"
  # The SDK logs to standard output too; keep only the result lines.
  py_out=$(grep '^python-' <<<"$py_out" || true)
fi

ops() { awk -v name="$1" '$1 == name { print $4 }' <<<"$2"; }
echo "Matter onboarding payloads: MT:Y.K9042C00KA0648G00 / 34970112332"
for c in parse-qr generate-qr parse-manual generate-manual cycle; do
  printf '  %-52s %10.0f ops/s  (%d iterations)\n' "Swift MatterOnboarding, $c" "$(ops "swift-$c" "$swift_out")" "$iterations"
done
if [ -n "$why" ]; then
  echo "  CHIP SDK from Python: not measured: $why"
  exit 0
fi
read -r _ _ _ _ chip_version py_version <<<"$(head -1 <<<"$py_out")"
for c in parse-qr generate-qr parse-manual generate-manual cycle; do
  printf '  %-52s %10.0f ops/s  (%d iterations)\n' "CHIP SDK $chip_version from Python $py_version, $c" "$(ops "python-$c" "$py_out")" "$py_iterations"
done
for c in parse-qr generate-qr parse-manual generate-manual cycle; do
  awk -v c="$c" -v s="$(ops "swift-$c" "$swift_out")" -v p="$(ops "python-$c" "$py_out")" \
    'BEGIN { printf "  ratio Swift / SDK from Python, %-16s %5.1fx\n", c ":", s / p }'
done
