"""The stiff rows of scripts/peer_scipy.py (`--stiff`): Sit's `rodas5p` (or `rodas4` or
`radau5`, `--implicit METHOD`) against diffsol's implicit solvers and SciPy's Radau, BDF and LSODA
at the same accuracy.

Models (examples/models): Robertson's kinetics to t = 40 and to t = 1e5, HIRES to
t = 321.8122, Van der Pol with mu = 1000 to t = 1000 (`van_der_pol.sit --set mu=1000`)
and with mu = 1e6 in scaled time to t = 6.3 (`van_der_pol_scaled.sit`).
Each run goes from the start to t_end in one host step (rows at 0 and t_end only: the
stiff test set measures the end; Van der Pol at mu = 1e6 in host steps of 0.1), and its error is the largest relative error over the
states at t_end, max_i |y_i - ref_i| / |ref_i|, against SciPy's Radau at rtol 1e-13
(never Sit), itself checked against the published references (Hairer and Wanner's test
set: Robertson at 1e5, HIRES, Van der Pol's x0(1000); SUNDIALS' cvRoberts_dns at 40) or,
where none is published (Van der Pol at mu = 1e6), against LSODA at the same tolerances.

The tolerances: Sit runs rtol 1e-K with the model's atol = rtol * 10^-a (a = 6 for
Robertson, 4 for HIRES, 3 for Van der Pol, 0 at mu = 1e6: below the smallest state
measured; see
bench/build.rs); the peers run the same pair on the grid rtol = 10^(-k/4), atol =
rtol * 10^-a, and the loosest rtol whose error is at most Sit's is timed. Every solver
gets the exact Jacobian: Sit's compiled one, diffsol the Jacobian-vector product,
SciPy `jac=`.

Timed, medians of repeated runs: the generated `rodas5p` or `rodas4` step over the run
(`peer_timing`, in-process, no output), `sitc run` as a process, diffsol (in-process,
problem and solver built inside the timing) and solve_ivp in this Python.
"""

import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Each model: the .sit file, its states in order, the start, the absolute tolerance's
# extra digits, `--set` arguments, the right-hand side and the Jacobian.
K_ROB = (0.04, 3e7, 1e4)


def rob_rhs(_t, y):
    k1, k2, k3 = K_ROB
    return [-k1 * y[0] + k3 * y[1] * y[2],
            k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1],
            k2 * y[1] * y[1]]


def rob_jac(_t, y):
    k1, k2, k3 = K_ROB
    return np.array([[-k1, k3 * y[2], k3 * y[1]],
                     [k1, -k3 * y[2] - 2.0 * k2 * y[1], -k3 * y[1]],
                     [0.0, 2.0 * k2 * y[1], 0.0]])


def hires_rhs(_t, y):
    y1, y2, y3, y4, y5, y6, y7, y8 = y
    bind = 280.0 * y6 * y8
    return [-1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
            1.71 * y1 - 8.75 * y2,
            -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
            8.32 * y2 + 1.71 * y3 - 1.12 * y4,
            -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
            -bind + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
            bind - 1.81 * y7,
            -bind + 1.81 * y7]


def hires_jac(_t, y):
    j = np.zeros((8, 8))
    j[0, 0:3] = (-1.71, 0.43, 8.32)
    j[1, 0:2] = (1.71, -8.75)
    j[2, 2:5] = (-10.03, 0.43, 0.035)
    j[3, 1:4] = (8.32, 1.71, -1.12)
    j[4, 4:7] = (-1.745, 0.43, 0.43)
    j[5, 3:7] = (0.69, 1.71, -0.43, 0.69)
    for row, sign in ((5, -1.0), (6, 1.0), (7, -1.0)):
        j[row, 5] += sign * 280.0 * y[7]
        j[row, 7] += sign * 280.0 * y[5]
    j[6, 6] = -1.81
    j[7, 6] = 1.81
    return j


VDP_MU = 1000.0


def vdp_rhs(_t, y):
    return [y[1], VDP_MU * ((1.0 - y[0] * y[0]) * y[1]) - y[0]]


def vdp_jac(_t, y):
    return np.array([[0.0, 1.0],
                     [-2.0 * VDP_MU * y[0] * y[1] - 1.0, VDP_MU * (1.0 - y[0] * y[0])]])


VDP_SCALED_MU = 1e6


def vdp_scaled_rhs(_t, y):
    return [y[1], VDP_SCALED_MU * ((1.0 - y[0] * y[0]) * y[1] - y[0])]


def vdp_scaled_jac(_t, y):
    return np.array([[0.0, 1.0],
                     [VDP_SCALED_MU * (-2.0 * y[0] * y[1] - 1.0),
                      VDP_SCALED_MU * (1.0 - y[0] * y[0])]])


MODELS = {
    "robertson": {
        "file": "examples/models/robertson.sit", "columns": ("y1", "y2", "y3"),
        "y0": (1.0, 0.0, 0.0), "atol_digits": 6, "set": [], "rhs": rob_rhs,
        "jac": rob_jac,
    },
    "hires": {
        "file": "examples/models/hires.sit",
        "columns": tuple(f"y{i}" for i in range(1, 9)),
        "y0": (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057), "atol_digits": 4, "set": [],
        "rhs": hires_rhs, "jac": hires_jac,
    },
    "van_der_pol_1000": {
        "file": "examples/models/van_der_pol.sit", "columns": ("x0", "x1"),
        "y0": (2.0, 0.0), "atol_digits": 3, "set": ["--set", "mu=1000"], "rhs": vdp_rhs,
        "jac": vdp_jac,
    },
    "van_der_pol_scaled": {
        "file": "examples/models/van_der_pol_scaled.sit", "columns": ("x0", "x1"),
        "y0": (2.0, 0.0), "atol_digits": 0, "set": [], "rhs": vdp_scaled_rhs,
        "jac": vdp_scaled_jac,
        # Host steps of 0.1: its eight jumps at rtol 1e-10 take more internal steps
        # than the bound of 10 000 that one host step may take.
        "dt": 0.1,
    },
}

# Published references: (model, t_end) -> ({state index: value}, relative bound of
# the comparison, set by the published digits).
PUBLISHED = {
    # SUNDIALS cvRoberts_dns's output at t = 40 (five digits).
    ("robertson", 40.0): ({0: 7.1582e-01, 1: 9.1855e-06, 2: 2.8417e-01}, 1e-4),
    # Hairer and Wanner's test set at 1e5 (nine or ten digits).
    ("robertson", 1e5): ({0: 0.0178659211, 1: 7.2747515e-8, 2: 0.982134006}, 2e-8),
    # The IVP test set's HIRES solution (RADAU5 at tight tolerances, 16 digits).
    ("hires", 321.8122): ({0: 0.7371312573325668e-3, 1: 0.1442485726316185e-3,
                          2: 0.5888729740967575e-4, 3: 0.1175651343283149e-2,
                          4: 0.2386356198831331e-2, 5: 0.6238968252742796e-2,
                          6: 0.2849998395185769e-2, 7: 0.2850001604814231e-2}, 1e-12),
    # Hairer and Wanner's Van der Pol at mu = 1000 (eleven digits of x0).
    ("van_der_pol_1000", 1000.0): ({0: -1.8636462548}, 1e-10),
}

# (model, t_end, K of rtol 1e-K) of each Sit run.
RUNS_QUICK = [("robertson", 40.0, k) for k in (4, 8)] + \
    [("robertson", 1e5, k) for k in (4, 8)] + \
    [("hires", 321.8122, k) for k in (4, 8)] + \
    [("van_der_pol_1000", 1000.0, k) for k in (4, 8)] + \
    [("van_der_pol_scaled", 6.3, k) for k in (4, 8)]
RUNS_FULL = [(m, t, k) for m, t in (("robertson", 40.0), ("robertson", 1e5),
                                     ("hires", 321.8122), ("van_der_pol_1000", 1000.0),
                                     ("van_der_pol_scaled", 6.3))
             for k in (4, 6, 8, 10)]

# rtol from 1e-2 down to 1e-13 in quarter decades.
GRID = [10.0 ** (-k / 4.0) for k in range(8, 53)]
SCIPY_METHODS = ("Radau", "BDF", "LSODA")


def median_time(fn, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def rel_error(y, ref):
    y, ref = np.asarray(y, float), np.asarray(ref, float)
    return float(np.max(np.abs(y - ref) / np.abs(ref)))


def reference(model, t_end, cache):
    """Radau at rtol 1e-13 (atol 1e-13 times the model's factor), checked against the
    published digits (raises when they disagree); kept in `cache` (a JSON file) since
    each takes up to a minute."""
    key = f"{model} {t_end!r}"
    saved = {}
    if os.path.exists(cache):
        with open(cache) as f:
            saved = json.load(f)
    if key in saved:
        ref = np.array(saved[key])
    else:
        spec = MODELS[model]
        sol = solve_ivp(spec["rhs"], (0.0, t_end), spec["y0"], method="Radau", rtol=1e-13,
                        atol=1e-13 * 10.0 ** -spec["atol_digits"], jac=spec["jac"])
        if not sol.success:
            raise RuntimeError(f"reference {model} to {t_end}: {sol.message}")
        ref = sol.y[:, -1]
        saved[key] = [float(v) for v in ref]
        with open(cache, "w") as f:
            json.dump(saved, f, indent=1)
    if (model, t_end) in PUBLISHED:
        published, bound = PUBLISHED[(model, t_end)]
        worst = max(abs(ref[i] - v) / abs(v) for i, v in published.items())
        what = "the published values"
    else:
        # No published digits (Van der Pol at mu = 1e6 from (2, 0) to 6.3): a second,
        # independent solver at the same tolerances, LSODA (Fortran BDF/Adams), which
        # met Radau's end within 8e-11 when this row was added.
        spec = MODELS[model]
        sol = solve_ivp(spec["rhs"], (0.0, t_end), spec["y0"], method="LSODA", rtol=1e-13,
                        atol=1e-13 * 10.0 ** -spec["atol_digits"], jac=spec["jac"])
        worst, bound = rel_error(sol.y[:, -1], ref), 1e-9
        what = "LSODA's solution"
    if worst > bound:
        raise RuntimeError(f"reference {model} to {t_end} misses {what} "
                           f"by {worst:.1e} (bound {bound:.0e})")
    return ref, worst, what


def host_step(model, t_end):
    """Sit's host step: the whole run (the test set measures the end), or the model's
    own where one host step would need more internal steps than its bound."""
    return MODELS[model].get("dt", t_end)


def atol_of(model, rtol):
    return rtol * 10.0 ** -MODELS[model]["atol_digits"]


def sit_run(sitc, method, model, t_end, k, repeats):
    """The final row of `sitc run` and the median time of the process, or None and the
    fault's first line when the run stops."""
    spec = MODELS[model]
    a = spec["atol_digits"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.csv")
        cmd = [sitc, "run", os.path.join(ROOT, spec["file"]), "--method", method, "--rtol", f"1e-{k}",
               "--atol", f"1e-{k + a}", "--dt", repr(host_step(model, t_end)),
               "--t-end", repr(t_end),
               *spec["set"], "-o", out]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:  # a fault of the model (e.g. rodas4's bound of steps)
            return None, run.stderr.strip().splitlines()[0]
        seconds, _ = median_time(lambda: subprocess.run(cmd, check=True), repeats)
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
    return [float(rows[-1][c]) for c in spec["columns"]], seconds


def generated(peer_timing, method, model, t_end, k, repeats):
    cmd = [peer_timing, f"{model}_{method}_{k}", repr(host_step(model, t_end)), repr(t_end),
           str(repeats)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                     text=True).stdout)


def diffsol(binary, model, method, t_end, rtol, repeats):
    """diffsol's JSON at this rtol (atol the model's), or None when it fails."""
    cmd = [binary, "stiff", model, method, repr(t_end), repr(rtol),
           repr(atol_of(model, rtol)), str(repeats)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(run.stdout) if run.returncode == 0 else None


def scipy(model, method, t_end, rtol):
    spec = MODELS[model]
    sol = solve_ivp(spec["rhs"], (0.0, t_end), spec["y0"], method=method, rtol=rtol,
                    atol=atol_of(model, rtol), jac=spec["jac"])
    return sol if sol.success else None


def loosest(run, ref, target):
    """The loosest grid rtol whose run's error is at most target: (rtol, error, run).
    Walks the grid a decade at a time, then the quarter decades after the last decade
    that missed (the tight runs cost seconds in SciPy: each is run once)."""
    def hit(rtol):
        out = run(rtol)
        if out is None:
            return None
        err = rel_error(out[0], ref)
        return (rtol, err, out[1]) if err <= target else None

    last_miss = -1
    for i in range(0, len(GRID), 4):
        found = hit(GRID[i])
        if found is not None:
            for j in range(last_miss + 1, i):
                finer = hit(GRID[j])
                if finer is not None:
                    return finer
            return found
        last_miss = i
    for j in range(last_miss + 1, len(GRID)):
        found = hit(GRID[j])
        if found is not None:
            return found
    return None


def ratio(a, b):
    if a is None or b is None:
        return ""
    r = a / b
    return f"{r:.0f}" if r >= 10 else f"{r:.2g}"


def main(args):
    quick = args.quick
    have_diffsol = os.path.exists(args.diffsol)
    print(f"Stiff rows: {args.implicit} (one host step to t_end) against diffsol "
          f"({'present' if have_diffsol else 'absent'}) and solve_ivp; error = max over "
          "the states of |y - ref| / |ref| at t_end; times are medians of "
          f"{args.repeats} runs (generated and diffsol: {max(args.repeats, 5)})")
    refs = {}
    for model, t_end, _k in (RUNS_QUICK if quick else RUNS_FULL):
        if (model, t_end) not in refs:
            refs[(model, t_end)] = reference(
                model, t_end, os.path.join(ROOT, "target/peer-stiff-reference.json"))
            print(f"reference {model} to t = {t_end:g}: Radau at rtol 1e-13, within "
                  f"{refs[(model, t_end)][1]:.1e} of {refs[(model, t_end)][2]}")
    print()
    print("| model | t_end | rtol | Sit error | attempts | generated | sitc run | solver | "
          "rtol | error | steps / nfev | rejected / njev | LU | time | time / generated |")
    print("|" + "---|" * 15)
    summary = []
    for model, t_end, k in (RUNS_QUICK if quick else RUNS_FULL):
        ref = refs[(model, t_end)][0]
        y, sitc_s = sit_run(args.sitc, args.implicit, model, t_end, k, args.repeats)
        if y is None:
            print(f"| {model} | {t_end:g} | 1e-{k} | {sitc_s} | | | | | | | | | | | |")
            continue
        gen = generated(args.peer_timing, args.implicit, model, t_end, k, max(args.repeats, 5))
        if list(gen["state"]) != y:
            raise RuntimeError(f"{model}: generated {gen['state']} != sitc run {y}")
        err = rel_error(y, ref)
        head = (f"| {model} | {t_end:g} | 1e-{k} | {err:.2e} | {gen['attempts']:.0f} | "
                f"{gen['seconds']:.2e} | {sitc_s:.2e} |")
        best_d, best_s = None, None
        if have_diffsol:
            for method in args.diffsol_methods.split(","):
                def run(rtol, method=method):
                    out = diffsol(args.diffsol, model, method, t_end, rtol, 1)
                    return None if out is None else (out["state"], out)
                hit = loosest(run, ref, err)
                if hit is None:
                    print(f"{head} diffsol {method} | none down to 1e-13 | | | | | | |")
                    continue
                rtol, derr, _ = hit
                out = diffsol(args.diffsol, model, method, t_end, rtol, max(args.repeats, 5))
                print(f"{head} diffsol {method} | {rtol:.1e} | {derr:.2e} | {out['steps']} | "
                      f"{out['error_test_failures']} | {out['lu']} | {out['seconds']:.2e} | "
                      f"{ratio(out['seconds'], gen['seconds'])} |")
                if best_d is None or out["seconds"] < best_d[2]:
                    best_d = (method, rtol, out["seconds"])
        for method in SCIPY_METHODS:
            def run(rtol, method=method):
                sol = scipy(model, method, t_end, rtol)
                return None if sol is None else (sol.y[:, -1], sol)
            hit = loosest(run, ref, err)
            if hit is None:
                print(f"{head} {method} | none down to 1e-13 | | | | | | |")
                continue
            rtol, serr, sol = hit
            seconds, _ = median_time(lambda: scipy(model, method, t_end, rtol), args.repeats)
            print(f"{head} {method} | {rtol:.1e} | {serr:.2e} | {sol.nfev} | {sol.njev} | "
                  f"{sol.nlu} | {seconds:.2e} | {ratio(seconds, gen['seconds'])} |")
            if best_s is None or seconds < best_s[2]:
                best_s = (method, rtol, seconds)
        summary.append((model, t_end, k, err, gen, best_d, best_s))
        sys.stdout.flush()

    print()
    print(f"Each {args.implicit} run against diffsol's fastest matching method and SciPy's:")
    print()
    print("| model | t_end | rtol | Sit error | attempts | generated | diffsol (rtol) | "
          "diffsol | diffsol / generated | solve_ivp (rtol) | solve_ivp | "
          "solve_ivp / generated |")
    print("|" + "---|" * 12)
    for model, t_end, k, err, gen, best_d, best_s in summary:
        d = " | |" if best_d is None else \
            f"{best_d[0]} ({best_d[1]:.1e}) | {best_d[2]:.2e} s | {ratio(best_d[2], gen['seconds'])}"
        s = "none | |" if best_s is None else \
            f"{best_s[0]} ({best_s[1]:.1e}) | {best_s[2]:.2e} s | {ratio(best_s[2], gen['seconds'])}"
        print(f"| {model} | {t_end:g} | 1e-{k} | {err:.2e} | {gen['attempts']:.0f} | "
              f"{gen['seconds']:.2e} s | {d} | {s} |")
    return 0
