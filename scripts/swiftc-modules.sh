# Compiles the project's pure Swift modules outside SwiftPM, for the programs SwiftPM does not build:
# the fuzz targets (fuzz/run.sh, with the fuzzer and address sanitizers) and the codec benchmarks
# (bench/meshcop.sh and bench/matter.sh, with -O). Sourced, never run; the one place that knows how
# Package.swift compiles a target, so a flag the sources come to need is added here once.
#
#   source scripts/swiftc-modules.sh         (from the repository's root)
#   swiftc_init DIR FLAG...                  build into DIR, with FLAGs besides the project's own
#   swiftc_module NAME                       Sources/NAME/**.swift into DIR/NAME.o and DIR/NAME.swiftmodule
#   swiftc_program OUTPUT SOURCE...          SOURCEs (one has @main) linked with every module they import
#
# A module's project imports (`import MeshCoP`, `internal import TBRFoundation`, …: directories under
# Sources/ with Swift files) are compiled before it and linked with it. Nothing up to date is compiled
# again: DIR/NAME.stamp holds the compiler's version and the whole command of the last compile that
# succeeded, and the module is compiled again when either differs (other flags, a source added or
# removed), or when a source or a module it imports is newer than the stamp. Programs are small and
# relinked every time.

# The settings Package.swift gives every target: language mode 6, its `strict` upcoming features, and
# one package name so that `package` declarations compile (SwiftPM passes -package-name itself). The C
# module maps are those of the header-only shims the compiled modules import (MeshCoP's `internal import
# CLibCrypto`; DBus's `CDBus`, which the REST decoders reach through OpenThreadBR's value types;
# TBRFoundation's `CMalloc`, glibc's malloc.h), with
# libdbus's include directories as Package.swift's `dbusIncludes` gives them: types only, the libraries
# themselves are opened with dlopen, so nothing links them.
swiftc_multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
swiftc_project_flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny
                      -enable-upcoming-feature InternalImportsByDefault -package-name tbrd
                      -parse-as-library -I Sources/CLibCrypto -I Sources/CDBus -I Sources/CMalloc
                      -Xcc -I/usr/include/dbus-1.0 -Xcc "-I/usr/lib/$swiftc_multiarch/dbus-1.0/include")

if ! command -v swiftc >/dev/null && [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# swiftc_init DIR FLAG...: where objects go, and the flags of this kind of build (-O; the sanitizers).
swiftc_init() {
  swiftc_dir=$1; shift
  swiftc_flags=("${swiftc_project_flags[@]}" -I "$swiftc_dir" "$@")
  swiftc_version=$(swiftc --version 2>&1 | head -1)
  swiftc_linked=()
  mkdir -p "$swiftc_dir"
}

# swiftc_imports FILE...: the project modules the FILEs import, one a line.
swiftc_imports() {
  local attribute='(@[A-Za-z_]+[[:space:]]+)*' access='((public|package|internal|fileprivate|private)[[:space:]]+)?'
  local kind='((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?'
  sed -nE "s/^[[:space:]]*$attribute${access}import[[:space:]]+$kind([A-Za-z_][A-Za-z0-9_]*)([.][A-Za-z0-9_.]*)?[[:space:]]*(\/\/.*)?\$/\\6/p" "$@" |
    sort -u | while read -r name; do
      [ -n "$(find "Sources/$name" -name '*.swift' -print -quit 2>/dev/null)" ] && echo "$name"
    done
  return 0
}

# swiftc_module NAME: compiles Sources/NAME, after the modules it imports, unless it is up to date; adds
# NAME after them to swiftc_linked, the objects the next swiftc_program links.
swiftc_module() {
  local name=$1 import
  local sources=() imports=() inputs=()
  case " ${swiftc_linked[*]} " in *" $name "*) return 0 ;; esac
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  [ ${#sources[@]} -gt 0 ] || { echo "swiftc: Sources/$name has no Swift sources" >&2; return 1; }
  mapfile -t imports < <(swiftc_imports "${sources[@]}")
  for import in "${imports[@]}"; do
    swiftc_module "$import"
    inputs+=("$swiftc_dir/$import.stamp")
  done
  local command=(swiftc "${swiftc_flags[@]}" -wmo -module-name "$name" -emit-module
                 -emit-module-path "$swiftc_dir/$name.swiftmodule" -c "${sources[@]}" -o "$swiftc_dir/$name.o")
  local stamp=$swiftc_dir/$name.stamp identity="$swiftc_version: ${command[*]}"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$identity" ] ||
     [ -n "$(find "${sources[@]}" "${inputs[@]}" -newer "$stamp" -print -quit)" ]; then
    echo "swiftc: compiling $name into $swiftc_dir" >&2
    rm -f "$stamp"
    "${command[@]}"
    echo "$identity" > "$stamp"
  fi
  swiftc_linked+=("$name")
}

# swiftc_program OUTPUT SOURCE...: an executable of the SOURCEs and every module they need.
swiftc_program() {
  local output=$1; shift
  local import objects=() imports=()
  swiftc_linked=()
  mapfile -t imports < <(swiftc_imports "$@")
  for import in "${imports[@]}"; do swiftc_module "$import"; done
  for import in "${swiftc_linked[@]}"; do objects+=("$swiftc_dir/$import.o"); done
  swiftc "${swiftc_flags[@]}" "$@" "${objects[@]}" -o "$output"
}
