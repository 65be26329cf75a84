#!/usr/bin/env bash
# Fails when scripts/link-order.txt has rotted: when more than 5% of its Swift functions (mangled names,
# `$s…`, and the compiler's own local helpers such as `objectdestroy.85Tm`, whose numbers change from
# build to build) are no longer in the release tbrd and tbrctl, the list packs too little of what they
# run and the memory it bought is silently lost (the linker ignores names it does not find:
# --no-warn-symbol-ordering). Also fails on a name that the release binaries do not define but a shared
# library they load does (glibc, ld.so, SQLite: never placeable, it has no business in the list). Reads
# the symbol tables (nm), so it needs a release build that is not stripped: make deb leaves one in
# .build/deb/release, which CI checks right after make deb-check.
#   scripts/link-order-check.sh [BIN_DIR]   (default .build/deb/release)
# Remake the list with `make link-order` when it fails (docs/performance.md, "Remaking the link order").
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/deb/release}
list=scripts/link-order.txt
limit=5
for b in tbrd tbrctl; do
  [ -x "$bin/$b" ] || { echo "link-order-check: no release $b in $bin (make deb builds one)" >&2; exit 69; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm --defined-only "$bin/tbrd" "$bin/tbrctl" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u > "$work/defined"
# What the shared libraries the binaries load define (their NEEDED entries, found as ld.so finds them).
: > "$work/shared"
for lib in $(readelf -d "$bin/tbrd" "$bin/tbrctl" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u); do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && p == "" { p = $NF } END { print p }')
  [ -n "$path" ] || continue
  nm -D --defined-only "$path" 2>/dev/null | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' >> "$work/shared"
done
sort -u -o "$work/shared" "$work/shared"
grep -v '^#' "$list" | sort -u > "$work/listed"
comm -12 <(comm -23 "$work/listed" "$work/defined") "$work/shared" > "$work/foreign"
comm -23 "$work/listed" "$work/foreign" > "$work/swift"
comm -23 "$work/swift" "$work/defined" > "$work/missing"
total=$(wc -l < "$work/swift")
missing=$(wc -l < "$work/missing")
[ "$total" -gt 0 ] || { echo "link-order-check: $list names no Swift function" >&2; exit 1; }
percent=$(awk -v m="$missing" -v t="$total" 'BEGIN { printf "%.1f", 100 * m / t }')
echo "link-order-check: $missing of $total functions of $list (Swift code and its runtime) are missing from the release tbrd and tbrctl ($percent%, at most $limit% allowed)"
status=0
if awk -v p="$percent" -v l="$limit" 'BEGIN { exit !(p > l) }'; then
  echo "link-order-check: the list has rotted; remake it with 'make link-order' and commit it. First missing:" >&2
  head -10 "$work/missing" >&2
  status=1
fi
if [ -s "$work/foreign" ]; then
  echo "link-order-check: $(wc -l < "$work/foreign") names are defined only by the shared libraries tbrd and tbrctl load (glibc, ld.so): drop them. First:" >&2
  head -10 "$work/foreign" >&2
  status=1
fi
exit $status
