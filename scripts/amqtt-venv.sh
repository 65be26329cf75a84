#!/usr/bin/env bash
# Installs amqtt (PyPI), an MQTT broker that speaks MQTT 3.1.1 only, into a virtual environment for the
# test of tbrd falling back from MQTT 5 (Debian's Mosquitto speaks both): .build/amqtt-venv by default.
# Idempotent and cached: a venv that already holds the pinned version is left alone. Debian's python3
# (3.11, with python3-venv) is enough.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${AMQTT_VENV:-.build/amqtt-venv}
version=${AMQTT_VERSION:-0.12.1}
source scripts/pip-venv.sh
pip_venv_ready "$venv" "amqtt==$version" amqtt && exit 0
python=${PYTHON:-python3}
command -v "$python" >/dev/null || { echo "amqtt: no $python (apt-get install python3 python3-venv)" >&2; exit 69; }
pip_venv amqtt "$python" "$venv" "amqtt==$version" amqtt
