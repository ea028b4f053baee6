"""Rows per second of one parameter study: `sitc sweep`, `sit.sweep` on the local cores
and `sit.sweep` on a Dask LocalCluster of two worker processes, in one run, as ratios
to `sitc sweep` (docs/performance.md, "Sweeps from Python").

Usage (release builds of both, from the repository root):

    cargo build --release -p sitc
    target/ci-venv/bin/pip install ./python
    target/ci-venv/bin/python python/bench/sweep_rate.py target/release/sitc

Each way runs the same grid (van der Pol, SETS values of mu, 2000 steps each) REPEAT
times, alternating, and keeps each way's best time; the cluster's start is not timed.
The rows of every way are checked to be the same, bit for bit.
"""

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import sit

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples" / "models" / "van_der_pol.sit"
SETS = 2000
REPEAT = 3
MU = [round(0.5 + 2.5 * k / (SETS - 1), 12) for k in range(SETS)]
ARGS = dict(dt=0.01, t_end=20, record=["x0", "x1"], summary=["final", "max"])


def with_sitc(sitc):
    out = subprocess.run(
        [sitc, "sweep", str(MODEL), "--param", "mu=" + ",".join(map(repr, MU)),
         "--dt", "0.01", "--t-end", "20", "--record", "x0,x1", "--summary", "final,max"],
        capture_output=True, text=True, check=True,
    )
    lines = out.stdout.splitlines()[1:]
    return np.array([[float(x) for x in line.split(",")] for line in lines])


def main():
    sitc = sys.argv[1]
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        ways = {
            "sitc sweep": lambda: with_sitc(sitc),
            "sit.sweep, local cores": lambda: sit.sweep(MODEL, {"mu": MU}, **ARGS).to_numpy(),
            "sit.sweep, 2-worker LocalCluster": lambda: sit.sweep(
                MODEL, {"mu": MU}, client=client, **ARGS).to_numpy(),
        }
        best = {name: float("inf") for name in ways}
        rows = {}
        for _ in range(REPEAT):
            for name, way in ways.items():
                start = time.perf_counter()
                rows[name] = way()
                best[name] = min(best[name], time.perf_counter() - start)
    reference = rows["sitc sweep"]
    for name, table in rows.items():
        assert table.shape == reference.shape and (table == reference).all(), name
    print(f"{SETS} sets x 2000 steps, best of {REPEAT}:")
    for name, seconds in best.items():
        print(f"  {name:34} {seconds:7.3f} s  {SETS / seconds:9.0f} rows/s  "
              f"x{best['sitc sweep'] / seconds:.2f} of sitc sweep")


if __name__ == "__main__":
    main()
