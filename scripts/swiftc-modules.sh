# Compiles the project's pure Swift modules outside SwiftPM, for the programs SwiftPM does not build:
# the fuzz targets (fuzz/run.sh, with the fuzzer and address sanitizers) and the codec benchmarks
# (bench/meshcop.sh and bench/matter.sh, with -O). Sourced, never run; the one place that knows how
# Package.swift compiles a target, so a flag the sources come to need is added here once.
#
#   source scripts/swiftc-modules.sh                 (from the repository's root)
#   swiftc_init DIR FLAG...                          build into DIR, with FLAGs besides the project's own
#   swiftc_module NAME                               Sources/NAME/**.swift into DIR/NAME.o + .swiftmodule
#   swiftc_program OUTPUT SOURCE...                  SOURCEs (one has @main), linked with what they import
#
# A module's project imports (`import MeshCoP`, `internal import TBRFoundation`, … of a directory under
# Sources/ with Swift files) are compiled first and linked with it. Nothing is compiled that is up to
# date: DIR/NAME.stamp records the compiler and the flags of the last successful compile, and a module
# is compiled again when they differ, when a source (or its directory, for files added or removed), this
# file or a module it imports is newer than the stamp.

# The settings Package.swift gives every target: language mode 6, its `strict` upcoming features, and
# one package name so that `package` declarations compile (SwiftPM passes -package-name itself). The C
# module maps are those the pure modules import (MeshCoP's `internal import CLibCrypto`: types only,
# libcrypto itself is opened with dlopen).
swiftc_project_flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny
                      -enable-upcoming-feature InternalImportsByDefault -package-name tbrd
                      -parse-as-library -I Sources/CLibCrypto)
swiftc_library=${BASH_SOURCE[0]}

if ! command -v swiftc >/dev/null && [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# swiftc_init DIR FLAG...: where the objects go and the flags of this kind of build (-O; sanitizers).
swiftc_init() {
  swiftc_dir=$1; shift
  swiftc_flags=("${swiftc_project_flags[@]}" "$@" -I "$swiftc_dir")
  mkdir -p "$swiftc_dir"
  swiftc_identity="$(swiftc --version 2>&1 | head -1) ${swiftc_flags[*]}"
  swiftc_done=()
}

# The project modules (Sources/X with Swift sources) that FILEs import, one a line.
swiftc_imports() {
  sed -nE 's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\4/p' "$@" |
    sort -u | while read -r name; do
      [ -n "$(find "Sources/$name" -name '*.swift' -print -quit 2>/dev/null)" ] && echo "$name"
    done
  return 0
}

# True when STAMP is missing, records another compiler or other flags, or a PATH is newer than it.
swiftc_stale() {
  local stamp=$1; shift
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$swiftc_identity" ] || return 0
  [ -n "$(find "$@" "$swiftc_library" -newer "$stamp" -print -quit 2>/dev/null)" ]
}

# swiftc_module NAME: compiles Sources/NAME (after the modules it imports) unless it is up to date.
# Appends NAME, after its imports, to swiftc_done: the objects a program importing it links.
swiftc_module() {
  local name=$1 import
  local sources=() imports=() inputs=("Sources/$name")
  case " ${swiftc_done[*]} " in *" $name "*) return 0 ;; esac
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  [ ${#sources[@]} -gt 0 ] || { echo "swiftc: Sources/$name has no Swift sources" >&2; return 1; }
  mapfile -t imports < <(swiftc_imports "${sources[@]}")
  for import in "${imports[@]}"; do
    swiftc_module "$import"
    inputs+=("$swiftc_dir/$import.stamp")
  done
  local stamp=$swiftc_dir/$name.stamp
  if swiftc_stale "$stamp" "${inputs[@]}"; then
    echo "swiftc: compiling $name into $swiftc_dir" >&2
    rm -f "$stamp"
    swiftc "${swiftc_flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$swiftc_dir/$name.swiftmodule" \
      -c "${sources[@]}" -o "$swiftc_dir/$name.o"
    echo "$swiftc_identity" > "$stamp"
  fi
  swiftc_done+=("$name")
}

# swiftc_program OUTPUT SOURCE...: an executable of SOURCEs and the modules they import, directly or not.
swiftc_program() {
  local output=$1; shift
  local import objects=() imports=()
  swiftc_done=()
  mapfile -t imports < <(swiftc_imports "$@")
  for import in "${imports[@]}"; do swiftc_module "$import"; done
  for import in "${swiftc_done[@]}"; do objects+=("$swiftc_dir/$import.o"); done
  swiftc "${swiftc_flags[@]}" "$@" "${objects[@]}" -o "$output"
}
