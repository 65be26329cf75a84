# The SwiftPM products bench/dbus.sh, bench/tbrd.sh and bench/policy.sh measure. Sourced, never run.
#   bench_products release|installed PRODUCT...   builds the PRODUCTs, sets $bin to their directory
# release:   `swift build -c release` into .build.
# installed: as make install builds them: release, the Swift runtime linked in, linked as
#            scripts/release-link-flags says (position-independent, as Debian builds); in
#            bench/build/static, so that neither this nor make install rebuilds the other's .build.
# BENCH_BUILD=debug takes the debug build instead, the one make test makes (bench/run.sh --quick: the
# quick mode checks that a benchmark runs, not how fast, and CI has that build already).

if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

bench_products() {
  local kind=$1 product; shift
  local options=()
  case ${BENCH_BUILD:-release}:$kind in
    debug:*) options=() ;;
    release:release) options=(-c release) ;;
    release:installed)
      options=(-c release --static-swift-stdlib --scratch-path bench/build/static)
      mapfile -t -O "${#options[@]}" options < <(scripts/release-link-flags) ;;
    *) echo "bench: BENCH_BUILD is release or debug, the kind release or installed (not ${BENCH_BUILD:-}:$kind)" >&2; return 64 ;;
  esac
  echo "bench: swift build ${options[*]:--c debug} --product $* (BENCH_BUILD=${BENCH_BUILD:-release})" >&2
  mkdir -p bench/build
  for product in "$@"; do
    swift build "${options[@]}" --product "$product" > bench/build/swift-build.log 2>&1 ||
      { cat bench/build/swift-build.log >&2; echo "bench: swift build of $product failed" >&2; return 1; }
  done
  bin=$(swift build "${options[@]}" --show-bin-path)
}
