#!/usr/bin/env bash
# Builds and runs one libFuzzer target.
#   fuzz/run.sh TARGET SECONDS      TARGET: dataset | txt | matter | websocket | json
# The target is compiled with `swiftc -sanitize=fuzzer,address` together with the MeshCoP,
# MatterOnboarding, WebSocket and TBRFoundation sources (no SwiftPM), into fuzz/build/ (git-ignored). It runs on
# a temporary copy of fuzz/corpus/TARGET, so the repository is not touched; a crashing input is saved
# in fuzz/build/artifacts/TARGET/. Exits non-zero if the fuzzer finds a crash, leak or timeout.
set -euo pipefail

usage() { echo "usage: fuzz/run.sh dataset|txt|matter|websocket|json SECONDS" >&2; exit 64; }
[ $# -eq 2 ] || usage
target=$1 seconds=$2
case $target in
  dataset) source=fuzz/DatasetFuzz.swift ;;
  txt) source=fuzz/TXTFuzz.swift ;;
  matter) source=fuzz/MatterFuzz.swift ;;
  websocket) source=fuzz/WebSocketFuzz.swift ;;
  json) source=fuzz/JSONFuzz.swift ;;
  *) usage ;;
esac
[[ $seconds =~ ^[0-9]+$ ]] || usage

cd "$(dirname "$0")/.."
if ! command -v swiftc >/dev/null && [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

build=fuzz/build
mkdir -p "$build"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6
       -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
       -package-name tbrd -I "$build" -I Sources/CLibCrypto -use-ld=lld)

# Rebuilds a module when one of its sources (or this script) is newer than its object.
module() {
  local name=$1; shift
  local object=$build/$name.o
  if [ -f "$object" ] && [ -z "$(find "$@" fuzz/run.sh -newer "$object" 2>/dev/null | head -1)" ]; then return; fi
  echo "fuzz: compiling $name" >&2
  swiftc "${flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$build/$name.swiftmodule" \
    -c "$@" -o "$object"
}
module TBRFoundation Sources/TBRFoundation/*.swift
module MeshCoP Sources/MeshCoP/*.swift
module MatterOnboarding Sources/MatterOnboarding/*.swift
module WebSocket Sources/WebSocket/*.swift
# The fuzz target itself: relinked every run (it is one small file).
swiftc "${flags[@]}" "$source" "$build/TBRFoundation.o" "$build/MeshCoP.o" "$build/MatterOnboarding.o" "$build/WebSocket.o" \
  -lcrypto -o "$build/$target-fuzzer"

work=$(mktemp -d "${TMPDIR:-/tmp}/tbrd-fuzz-$target.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$build/artifacts/$target"
cp fuzz/corpus/"$target"/* "$work/corpus/"

echo "fuzz: running $target for $seconds s" >&2
status=0
"$build/$target-fuzzer" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/artifacts/$target/" -print_final_stats=1 2>"$work/log" || status=$?
grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::new_units_added|Done )' "$work/log" >&2 || true
if [ $status -ne 0 ]; then
  tail -60 "$work/log" >&2
  echo "fuzz: $target FAILED (exit $status); reproducer in $build/artifacts/$target/" >&2
  exit $status
fi
echo "fuzz: $target ok, corpus grew to $(ls "$work/corpus" | wc -l) inputs" >&2
