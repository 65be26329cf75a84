#!/usr/bin/env bash
# Builds and runs one libFuzzer target.
#   fuzz/run.sh TARGET SECONDS      TARGET: dataset | txt | matter | websocket | json | rest | routes | coap | dtls | api | backup | mqtt
# The target is compiled with `swiftc -sanitize=fuzzer,address` together with the sources of the modules
# it imports (no SwiftPM; scripts/swiftc-modules.sh), into fuzz/build/ (git-ignored). It runs on
# a temporary copy of fuzz/corpus/TARGET, so the repository is not touched; a crashing input is saved
# in fuzz/build/artifacts/TARGET/. Exits non-zero if the fuzzer finds a crash, leak or timeout.
set -euo pipefail

usage() { echo "usage: fuzz/run.sh dataset|txt|matter|websocket|json|rest|routes|coap|dtls|api|backup|mqtt SECONDS" >&2; exit 64; }
[ $# -eq 2 ] || usage
target=$1 seconds=$2
case $target in
  dataset) source=fuzz/DatasetFuzz.swift ;;
  txt) source=fuzz/TXTFuzz.swift ;;
  matter) source=fuzz/MatterFuzz.swift ;;
  websocket) source=fuzz/WebSocketFuzz.swift ;;
  json) source=fuzz/JSONFuzz.swift ;;
  routes) source=fuzz/RoutesFuzz.swift ;;
  api) source=fuzz/APIFuzz.swift ;;
  backup) source=fuzz/BackupFuzz.swift ;;
  mqtt) source=fuzz/MQTTFuzz.swift ;;
  # The REST decoders are compiled with the target itself: their module also holds the HTTP client.
  rest) source="fuzz/RESTFuzz.swift Sources/OpenThreadREST/RESTDecoding.swift Sources/OpenThreadREST/RESTValues.swift
    Sources/OpenThreadREST/RESTAgentError.swift Sources/OpenThreadREST/RESTTaskDecoding.swift
    Sources/OpenThreadREST/NetworkDiagnostics.swift Sources/OpenThreadREST/NetworkDiagnostics+Decoding.swift" ;;
  # The exchange is compiled with the target itself: its module also holds the DTLS session.
  coap) source="fuzz/CoAPFuzz.swift Sources/EpskcCommissioner/ActiveGetExchange.swift" ;;
  # C: the DTLS endpoint over the static mbedTLS of scripts/mbedtls.sh (make mbedtls).
  dtls) source=fuzz/DTLSFuzz.c ;;
  *) usage ;;
esac
[[ $seconds =~ ^[0-9]+$ ]] || usage

cd "$(dirname "$0")/.."
build=fuzz/build
if [ "$target" = dtls ]; then
  mkdir -p "$build"
  scripts/mbedtls.sh
  [ -x /opt/swift/usr/bin/clang ] && clang=/opt/swift/usr/bin/clang || clang=clang
  # mbedTLS itself instrumented too (its record and handshake parsers are what is fuzzed): the same
  # configured source tree, compiled once into $build/mbedtls-fuzz (again when scripts/mbedtls.sh rebuilt it).
  lib="$build/mbedtls-fuzz"
  if [ ! -e "$lib/libmbedfuzz.a" ] || [ .build/mbedtls/stamp -nt "$lib/libmbedfuzz.a" ]; then
    rm -rf "$lib" && mkdir -p "$lib"
    for c in .build/mbedtls/src/tree/library/*.c; do
      echo "$clang -fsanitize=fuzzer-no-link,address -O1 -g -I .build/mbedtls/src/tree/include -c $c -o $lib/$(basename "$c" .c).o"
    done | xargs -P "$(nproc)" -I{} sh -c '{}'
    ar rcs "$lib/libmbedfuzz.a" "$lib"/*.o
  fi
  "$clang" -fsanitize=fuzzer,address -O1 -g -I Sources/CDTLS/include -I .build/mbedtls/include \
    fuzz/DTLSFuzz.c Sources/CDTLS/dtls.c Sources/CDTLS/dtls_fuzz.c "$lib/libmbedfuzz.a" -o "$build/dtls-fuzzer"
else
  source scripts/swiftc-modules.sh
  swiftc_init "$build" -sanitize=fuzzer,address -O -g -use-ld=lld
  # The modules the target imports are compiled when stale; the target itself is relinked every run.
  # shellcheck disable=SC2086 # $source may name several files
  swiftc_program "$build/$target-fuzzer" $source
fi

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
