#!/usr/bin/env bash
# Builds the Debian packages tbrd and otbr-sim with dpkg-buildpackage (debian/, debhelper), moves them
# from the parent directory, where dpkg-buildpackage writes them, into OUT, and runs lintian on them:
# any error or warning fails. Prints the path of tbrd_VERSION_ARCH.deb as its last line.
#   SWIFT=/path/to/swift scripts/build-deb.sh OUT
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: build-deb.sh OUT}
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -q DEB_HOST_ARCH)
mkdir -p .build/deb
rm -rf "$out" && mkdir -p "$out"
if ! dpkg-buildpackage -b -us -uc > .build/deb/build.log 2>&1; then
  tail -40 .build/deb/build.log
  echo "build-deb: dpkg-buildpackage failed; its whole output is in .build/deb/build.log" >&2
  exit 1
fi
for file in tbrd_"$version"_"$arch".deb otbr-sim_"$version"_"$arch".deb tbrd-dbgsym_"$version"_"$arch".deb \
            otbr-sim-dbgsym_"$version"_"$arch".deb tbrd_"$version"_"$arch".buildinfo tbrd_"$version"_"$arch".changes; do
  [ -e "../$file" ] && mv "../$file" "$out/"
done
lintian --fail-on error,warning "$out/tbrd_${version}_${arch}.deb" "$out/otbr-sim_${version}_${arch}.deb"
echo "$(pwd)/$out/tbrd_${version}_${arch}.deb"
