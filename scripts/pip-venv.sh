# A Python package from PyPI in a virtual environment of its own, for the tests that run it
# (scripts/matter-server-venv.sh, scripts/amqtt-venv.sh). Sourced, never run.
#   pip_venv NAME PYTHON VENV REQUIREMENT PROGRAM   makes VENV anew with PYTHON, installs REQUIREMENT, checks
#                                                   that VENV/bin/PROGRAM --help runs, and stamps VENV as
#                                                   holding REQUIREMENT; NAME prefixes what it says
#   pip_venv_ready VENV REQUIREMENT PROGRAM          whether VENV already holds REQUIREMENT (its stamp)
pip_venv_stamp() { printf '%s/.tbrd-installed-%s' "$1" "$(printf '%s' "$2" | tr -c 'A-Za-z0-9.=_-' '_')"; }
pip_venv_ready() { [ -f "$(pip_venv_stamp "$1" "$2")" ] && [ -x "$1/bin/$3" ]; }
pip_venv() {
  local name=$1 python=$2 venv=$3 requirement=$4 program=$5
  echo "$name: installing $requirement into $venv with $python ($("$python" --version 2>&1))" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$requirement"
  "$venv/bin/$program" --help >/dev/null
  touch "$(pip_venv_stamp "$venv" "$requirement")"
  echo "$name: ready ($venv/bin/$program)" >&2
}
