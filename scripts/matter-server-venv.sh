#!/usr/bin/env bash
# Installs python-matter-server (PyPI, with its CHIP SDK wheels) into a virtual environment for the
# tests that run the real server: .build/matter-server-venv by default. Idempotent and cached: a venv
# that already holds the pinned version is left alone. Needs Python >= 3.12 (python-matter-server 8
# requires it; Debian 12's python3 is 3.11): $PYTHON if set, else python3.13/python3.12 on PATH, else
# pyenv's (PYENV_ROOT, default ~/.pyenv), else python3 if it is new enough.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${MATTER_SERVER_VENV:-.build/matter-server-venv}
version=${MATTER_SERVER_VERSION:-8.1.2}
requirement="python-matter-server[server]==$version"
source scripts/pip-venv.sh
pip_venv_ready "$venv" "$requirement" matter-server && exit 0

good() { "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; }
python=""
candidates=()
[ -n "${PYTHON:-}" ] && candidates+=("$PYTHON")
for name in python3.13 python3.12; do command -v "$name" >/dev/null 2>&1 && candidates+=("$(command -v "$name")"); done
for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do [ -x "$p" ] && candidates+=("$p"); done
command -v python3 >/dev/null 2>&1 && candidates+=("$(command -v python3)")
for c in "${candidates[@]}"; do
  if good "$c"; then python=$c; break; fi
done
if [ -z "$python" ]; then
  echo "matter-server: python-matter-server needs Python >= 3.12 with venv, and none was found" >&2
  echo "  (tried: ${candidates[*]:-nothing}); install one (for example 'pyenv install 3.12') or set PYTHON=/path/to/python3.12" >&2
  exit 69
fi
pip_venv matter-server "$python" "$venv" "$requirement" matter-server
