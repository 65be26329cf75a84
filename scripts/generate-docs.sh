#!/usr/bin/env bash
# Generates the manual pages and shell completions from the built programs (their command trees and
# tbrd's settings table: nothing here is written by hand), for make install and the Debian package.
#   scripts/generate-docs.sh BIN_DIR OUT_DIR
# writes OUT_DIR/man/{tbrctl.1,tbrd.8,tbrd.conf.5,otbr-sim.1,matter-sim.1} and
# OUT_DIR/completions/{tbrctl.bash,_tbrctl,tbrctl.fish}.
set -euo pipefail
bin=${1:?usage: generate-docs.sh BIN_DIR OUT_DIR}
out=${2:?usage: generate-docs.sh BIN_DIR OUT_DIR}
mkdir -p "$out/man" "$out/completions"
"$bin/tbrctl" --generate-manual > "$out/man/tbrctl.1"
"$bin/tbrd" --generate-manual > "$out/man/tbrd.8"
"$bin/tbrd" --generate-config-manual > "$out/man/tbrd.conf.5"
"$bin/otbr-sim" --generate-manual > "$out/man/otbr-sim.1"
"$bin/matter-sim" --generate-manual > "$out/man/matter-sim.1"
"$bin/tbrctl" --generate-completion-script bash > "$out/completions/tbrctl.bash"
"$bin/tbrctl" --generate-completion-script zsh > "$out/completions/_tbrctl"
"$bin/tbrctl" --generate-completion-script fish > "$out/completions/tbrctl.fish"
