#!/usr/bin/env bash
# Compares Sit's runs with SciPy's solve_ivp at equal accuracy (optional, not run in
# CI; see docs/performance.md §8). Creates its own virtual environment under
# target/peer-venv with numpy, scipy and maturin from PyPI, builds `sitc`, the
# `peer_timing` example and the Sit Python package (a release wheel, installed into
# that environment) in release mode, then runs scripts/peer_scipy.py with the arguments
# given (e.g. --quick, --repeats 5, --t-end 20; --stiff for the stiff rows under
# rodas5p, --implicit rodas4 or radau5 for theirs, docs/performance.md §19). It also builds diffsol, a Rust ODE
# solver, as a second peer (bench/peers/diffsol, its own workspace and target dir).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/peer-venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c 'import numpy, scipy, maturin' 2>/dev/null ||
    "$VENV/bin/python" -m pip install --quiet "numpy>=1.26" "scipy>=1.11" "maturin>=1.9,<2"
cargo build --release -q -p sitc
cargo build --release -q -p sit-bench --features peers --example peer_timing
# The `sit` package, rebuilt each time (maturin only recompiles what changed).
rm -rf target/peer-wheels
"$VENV/bin/maturin" build --release -q -m python/Cargo.toml -i "$VENV/bin/python" \
    -o target/peer-wheels
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps target/peer-wheels/sit-*.whl
# diffsol, the Rust peer: its own workspace and target dir; without it the script leaves
# its columns empty.
cargo build --release -q --manifest-path bench/peers/diffsol/Cargo.toml \
    --target-dir target/peers/diffsol ||
    echo "diffsol did not build: its columns stay empty" >&2
exec "$VENV/bin/python" scripts/peer_scipy.py "$@"
