#!/usr/bin/env python3
"""Sit's fixed-step runs against SciPy's solve_ivp at the same accuracy.

For the pendulum and the Van der Pol oscillator (examples/models), integrated by Sit's
`euler` (the models as written) and `rk4` (`--method rk4`), at each step dt:

1. run `sitc run` (the interpreter, writing a CSV) and take its error: the largest
   absolute difference, over every row and both states, from a high-accuracy
   reference (solve_ivp DOP853 at rtol = atol = 1e-12, evaluated at the CSV's times;
   for the pendulum the reference is checked against the exact period
   T = 4 sqrt(L/g) K(sin^2(angle0/2)));
2. for RK45 and DOP853 (explicit) and LSODA (switches to BDF when stiff), find the loosest
   tolerance on a grid (rtol = atol = 10^(-k/4)) whose error, measured the same way,
   is at most the Sit run's error;
3. time, as medians of repeated runs: solve_ivp at that tolerance (with t_eval at the
   CSV's times), the generated Rust step over the same run (`peer_timing`, no
   output), and `sitc run` end to end (process start, parse, check, interpret, CSV).

Run through scripts/peer_scipy.sh, which sets up numpy and scipy in a virtual
environment and builds the two Rust programs. Prints a Markdown table.
"""

import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipk

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The models' defaults (examples/models/pendulum.sit, van_der_pol.sit).
PEND_L, PEND_G, PEND_ANGLE0 = 2.0, 9.81, 1.0
VDP_MU, VDP_X0 = 1.0, (2.0, 0.0)


def pendulum_rhs(_t, y):
    return [y[1], -PEND_G * math.sin(y[0]) / PEND_L]


def vdp_rhs(_t, y):
    return [y[1], VDP_MU * ((1.0 - y[0] * y[0]) * y[1]) - y[0]]


MODELS = {
    "pendulum": {
        "file": "examples/models/pendulum.sit",
        "columns": ("angle", "omega"),
        "rhs": pendulum_rhs,
        "y0": (PEND_ANGLE0, 0.0),
    },
    "van_der_pol": {
        "file": "examples/models/van_der_pol.sit",
        "columns": ("x0", "x1"),
        "rhs": vdp_rhs,
        "y0": VDP_X0,
    },
}


def median_time(fn, repeats):
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def sit_run(sitc, spec, method, dt, t_end, every, repeats):
    """The CSV of `sitc run` (times, states) and the median wall time of the run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.csv")
        cmd = [sitc, "run", os.path.join(ROOT, spec["file"]), "--method", method,
               "--dt", repr(dt), "--t-end", repr(t_end), "--every", str(every), "-o", out]
        seconds, _ = median_time(lambda: subprocess.run(cmd, check=True), repeats)
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
    t = np.array([float(r["t"]) for r in rows])
    y = np.array([[float(r[c]) for c in spec["columns"]] for r in rows])
    return t, y, seconds


def generated_time(peer_timing, model, dt, t_end, repeats):
    cmd = [peer_timing, model, repr(dt), repr(t_end), str(repeats)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def integrate(spec, t, method, tol):
    sol = solve_ivp(spec["rhs"], (0.0, t[-1]), spec["y0"], method=method,
                    t_eval=t, rtol=tol, atol=tol)
    if not sol.success:
        raise RuntimeError(f"{method} at tol {tol}: {sol.message}")
    return sol


def error(y, ref):
    return float(np.max(np.abs(y - ref)))


def check_pendulum_reference(spec):
    """The reference integrator returns to the start after the exact period."""
    m = math.sin(PEND_ANGLE0 / 2.0) ** 2
    period = 4.0 * math.sqrt(PEND_L / PEND_G) * ellipk(m)
    sol = integrate(spec, np.array([0.0, period]), "DOP853", 1e-12)
    # 1e-8: a few hundred steps at rtol 1e-12 each, far below any Sit error compared.
    drift = abs(sol.y[0][-1] - PEND_ANGLE0) + abs(sol.y[1][-1])
    if drift > 1e-8:
        raise RuntimeError(f"reference misses the exact period by {drift}")
    return period


def match(spec, t, ref, target):
    """For each method: the loosest grid tolerance whose error is <= target."""
    found = {}
    for method in ("RK45", "DOP853", "LSODA"):
        for k in range(4, 53):  # tol from 1e-1 down to 1e-13
            tol = 10.0 ** (-k / 4.0)
            sol = integrate(spec, t, method, tol)
            err = error(sol.y.T, ref)
            if err <= target:
                found[method] = (tol, err, sol.nfev)
                break
        else:
            found[method] = None
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sitc", default=os.path.join(ROOT, "target/release/sitc"))
    parser.add_argument("--peer-timing",
                        default=os.path.join(ROOT, "target/release/examples/peer_timing"))
    parser.add_argument("--t-end", type=float, default=20.0)
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs per timing (the median is reported)")
    args = parser.parse_args()

    runs = [("pendulum", "euler", 1e-3), ("pendulum", "euler", 1e-4),
            ("van_der_pol", "euler", 1e-2), ("van_der_pol", "euler", 1e-3)]
    # rk4 from an error of about 1e-3 down to about 1e-9.
    runs += [("pendulum", "rk4", dt) for dt in (0.1, 0.04, 0.01, 0.004, 0.002)]
    runs += [("van_der_pol", "rk4", dt) for dt in (0.1, 0.04, 0.01, 0.004, 0.001)]
    print(f"t_end = {args.t_end}; times are medians of {args.repeats} runs; "
          "error = max |y - reference| over the rows and both states")
    period = check_pendulum_reference(MODELS["pendulum"])
    print(f"pendulum reference checked against the exact period {period:.12f} s")
    print()
    print("| model | Sit method | dt | Sit error | generated | sitc run | method | tol | "
          "error | nfev | solve_ivp | solve_ivp / generated | solve_ivp / sitc run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for model, sit_method, dt in runs:
        spec = MODELS[model]
        steps = round(args.t_end / dt)
        every = max(1, steps // 1000)  # about 1000 rows compared
        t, y, sitc_s = sit_run(args.sitc, spec, sit_method, dt, args.t_end, every,
                               args.repeats)
        ref = integrate(spec, t, "DOP853", 1e-12).y.T
        sit_err = error(y, ref)
        timed = model if sit_method == "euler" else f"{model}_{sit_method}"
        gen = generated_time(args.peer_timing, timed, dt, args.t_end, max(args.repeats, 5))
        # The generated code's final state is the CSV's last row (same arithmetic).
        if steps % every == 0 and list(gen["state"]) != list(y[-1]):
            raise RuntimeError(f"{model}: generated {gen['state']} != sitc run {y[-1]}")
        for method, hit in match(spec, t, ref, sit_err).items():
            if hit is None:
                print(f"| {model} | {sit_method} | {dt:g} | {sit_err:.2e} | "
                      f"{gen['seconds']:.2e} s | {sitc_s:.2e} s | {method} | "
                      "no tolerance down to 1e-13 | | | | | |")
                continue
            tol, err, nfev = hit
            ivp_s, _ = median_time(lambda: integrate(spec, t, method, tol), args.repeats)
            print(f"| {model} | {sit_method} | {dt:g} | {sit_err:.2e} | "
                  f"{gen['seconds']:.2e} s | {sitc_s:.2e} s | {method} | {tol:.1e} | "
                  f"{err:.2e} | {nfev} | "
                  f"{ivp_s:.2e} s | {ivp_s / gen['seconds']:.0f} | {ivp_s / sitc_s:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
