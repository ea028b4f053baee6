#!/usr/bin/env bash
# Compares Sit's fixed-step runs with SciPy's solve_ivp at equal accuracy (optional,
# not run in CI; see docs/performance.md). Creates its own virtual environment under
# target/peer-venv with numpy and scipy from PyPI, builds `sitc` and the
# `peer_timing` example in release mode, then runs scripts/peer_scipy.py with the
# arguments given (e.g. --repeats 7 --t-end 20).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/peer-venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c 'import numpy, scipy' 2>/dev/null ||
    "$VENV/bin/python" -m pip install --quiet "numpy>=1.26" "scipy>=1.11"
cargo build --release -q -p sitc
cargo build --release -q -p sit-bench --example peer_timing
exec "$VENV/bin/python" scripts/peer_scipy.py "$@"
