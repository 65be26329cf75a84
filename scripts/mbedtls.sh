#!/usr/bin/env bash
# mbedTLS with EC-JPAKE, for the ePSKc commissioner (tbrctl network fetch) and otbr-sim's border agent.
# Debian 12's libmbedtls is built without MBEDTLS_ECJPAKE_C and MBEDTLS_KEY_EXCHANGE_ECJPAKE_ENABLED, and
# no other Debian library has TLS-ECJPAKE (docs/architecture.md, "The ePSKc commissioner"). So this takes
# Debian's own source package (`apt-get source mbedtls`, through a deb-src list in a private apt directory
# under .build: the host's apt sources are untouched), configures it as debian/rules does plus those two
# options, and builds the static libraries with Debian's hardening flags, position-independent, into
#   .build/mbedtls/{include,lib}     headers and libmbedtls.a libmbedx509.a libmbedcrypto.a
#   .build/mbedtls/source-version    the source package's name and version (debian/control's Built-Using)
# Then it runs mbedTLS's own EC-JPAKE test suite (RFC 8236's vectors among them). Idempotent: nothing is
# redone while the stamp matches this script.
#   scripts/mbedtls.sh [OUT]       (OUT: .build/mbedtls)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/mbedtls}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stamp="$out/stamp"
want=$(sha256sum "$0" | cut -d' ' -f1)
if [ -e "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -e "$out/lib/libmbedtls.a" ]; then
  exit 0
fi

apt="$out/apt"
rm -rf "$apt" "$out/src" "$out/include" "$out/lib"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$out/src"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}")
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The same archive the host's own apt uses for this release (a one-line .list or a deb822 .sources).
mirror=$( { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } \
  | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]*' | grep -v -e security -e '\.disabled' | grep '/debian/\?$' | head -1 || true)
[ -n "$mirror" ] || { echo "mbedtls: no Debian archive in /etc/apt/sources.list*; cannot fetch the source package" >&2; exit 1; }
cat > "$apt/sources.list" <<EOF
deb-src [signed-by=$keyring] ${mirror%/} $codename main
deb-src [signed-by=$keyring] ${mirror%/}-security $codename-security main
EOF
aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o APT::Sandbox::User=root -q)
echo "mbedtls: fetching Debian's source package (private apt lists in $apt)" >&2
apt-get "${aptopts[@]}" update >"$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; exit 1; }
(cd "$out/src" && apt-get "${aptopts[@]}" source --download-only mbedtls >"$apt/source.log" 2>&1) \
  || { cat "$apt/source.log" >&2; exit 1; }
dsc=$(ls "$out"/src/mbedtls_*.dsc)
(cd "$out/src" && dpkg-source -x --no-check "$(basename "$dsc")" tree >/dev/null)
tree="$out/src/tree"
version=$(cd "$tree" && dpkg-parsechangelog -S Version)

# debian/rules's configuration (override_dh_auto_configure), then what the ePSKc needs.
(
  cd "$tree"
  for option in MBEDTLS_DEPRECATED_WARNING MBEDTLS_HAVEGE_C MBEDTLS_MD2_C MBEDTLS_MD4_C MBEDTLS_THREADING_C \
                MBEDTLS_THREADING_PTHREAD MBEDTLS_CMAC_C MBEDTLS_SSL_DTLS_SRTP \
                MBEDTLS_ECJPAKE_C MBEDTLS_KEY_EXCHANGE_ECJPAKE_ENABLED; do
    python3 scripts/config.py set "$option"
  done
)

# Debian's hardening flags (as debian/rules asks: hardening=+all), position-independent code for PIE
# executables; the toolchain's clang, so no gcc is needed.
toolchain=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")
cc=${CC:-$toolchain/clang}
[ -x "$cc" ] || cc=clang
cflags="$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS) $(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS) -fPIC"
# GCC-only flags clang would warn about.
cflags=$(echo "$cflags" | sed -e 's/-ffile-prefix-map=[^ ]*//g' -e 's/-fstack-clash-protection//g')
echo "mbedtls: building $version with EC-JPAKE ($cc)" >&2
make -C "$tree/library" -j"$(nproc)" CC="$cc" CFLAGS="$cflags" libmbedcrypto.a libmbedx509.a libmbedtls.a \
  >"$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; exit 1; }

# mbedTLS's own tests of EC-JPAKE (RFC 8236 test vectors, round trips, bad input).
echo "mbedtls: running its EC-JPAKE test suite" >&2
make -C "$tree/tests" CC="$cc" CFLAGS="$cflags" test_suite_ecjpake >"$out/test.log" 2>&1 \
  || { tail -30 "$out/test.log" >&2; exit 1; }
(cd "$tree/tests" && ./test_suite_ecjpake) >>"$out/test.log" 2>&1 || { tail -30 "$out/test.log" >&2; exit 1; }
grep -E '^(PASSED|FAILED)' "$out/test.log" >&2

mkdir -p "$out/lib"
cp -R "$tree/include" "$out/include"
cp "$tree/library/libmbedtls.a" "$tree/library/libmbedx509.a" "$tree/library/libmbedcrypto.a" "$out/lib/"
echo "mbedtls (= $version)" >"$out/source-version"
echo "$want" >"$stamp"
echo "mbedtls: $version ready in $out" >&2
