#!/usr/bin/env bash
# Benchmark: decode + encode of a full operational dataset (TV-DATASET A, 105 bytes), MeshCoP (Swift,
# -O) side by side with python-otbr-api's TLV parser (parse_tlv + encode_tlv on the same hex).
#   bench/meshcop.sh [ITERATIONS]        default 200000 for Swift, ITERATIONS/10 for Python
# Compiled with scripts/swiftc-modules.sh into bench/build/ (the modules shared with bench/matter.sh);
# makes a virtualenv in bench/.venv/ (both git-ignored). Not part of make test.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-200000}
[[ $iterations =~ ^[0-9]+$ ]] && [ "$iterations" -ge 10 ] || { echo "usage: bench/meshcop.sh [ITERATIONS>=10]" >&2; exit 64; }

build=bench/build
source scripts/swiftc-modules.sh
swiftc_init "$build/swift" -O
swiftc_program "$build/meshcop-bench" bench/MeshCoPBench.swift

# The version docs/performance.md compares with (pip does nothing when the venv has it already).
venv=bench/.venv
[ -x "$venv/bin/python" ] || { echo "bench: creating $venv" >&2; python3 -m venv "$venv"; }
"$venv/bin/pip" install --quiet --disable-pip-version-check python-otbr-api==3.1.0

swift_out=$("$build/meshcop-bench" "$iterations")
py_iterations=$((iterations / 10))
py_out=$("$venv/bin/python" - "$py_iterations" <<'PY'
import sys, time
from importlib.metadata import version
from python_otbr_api import tlv_parser
hexdata = ("0e080000000000010000000300000f35060004001fffe0020811111111222222220708fdad70bfe5aa15dd05100011"
           "2233445566778899aabbccddeeff030e4f70656e54687265616444656d6f010212340410445f2b5ca6f2a93a55ce57"
           "0a70efeecb0c0402a0f7f8")
n = int(sys.argv[1])
assert tlv_parser.encode_tlv(tlv_parser.parse_tlv(hexdata)) == hexdata
for _ in range(min(1000, n)):
    tlv_parser.encode_tlv(tlv_parser.parse_tlv(hexdata))
start = time.perf_counter()
for _ in range(n):
    tlv_parser.encode_tlv(tlv_parser.parse_tlv(hexdata))
elapsed = time.perf_counter() - start
print("python-hex", n, elapsed, n / elapsed, version("python-otbr-api"), sys.version.split()[0])
PY
)

ops() { awk -v name="$1" '$1 == name { print $4 }' <<<"$2"; }
swift_hex=$(ops swift-hex "$swift_out")
swift_bytes=$(ops swift-bytes "$swift_out")
swift_validate=$(ops swift-validate "$swift_out")
python_hex=$(ops python-hex "$py_out")
read -r _ _ _ _ otbr_version py_version <<<"$py_out"

echo "MeshCoP dataset codec: TV-DATASET A (105 bytes), decode + encode"
printf '  %-46s %12.0f ops/s  (%d iterations)\n' "Swift MeshCoP, hex -> dataset -> hex" "$swift_hex" "$iterations"
printf '  %-46s %12.0f ops/s\n' "Swift MeshCoP, bytes -> dataset -> bytes" "$swift_bytes"
printf '  %-46s %12.0f ops/s\n' "Swift MeshCoP, validate(bytes:as: .active)" "$swift_validate"
printf '  %-46s %12.0f ops/s  (%d iterations)\n' "python-otbr-api $otbr_version (Python $py_version), parse_tlv + encode_tlv" "$python_hex" "$py_iterations"
awk -v s="$swift_hex" -v p="$python_hex" 'BEGIN { printf "  ratio Swift/Python (hex -> hex): %.1fx\n", s / p }'
