#!/usr/bin/env python3
"""Sit's runs against SciPy's solve_ivp at the same accuracy.

For the pendulum and the Van der Pol oscillator (examples/models), integrated by Sit's
`euler` (the models as written), `rk4` (`--method rk4`), `dopri5`, `tsit5` and `dop853`
(`--method METHOD --rtol 1e-K --atol 1e-K`, the form SciPy and diffsol are run at), and the bouncing ball (examples/models/bouncing_ball.sit)
under `euler` and `dopri5`:

1. run `sitc run` (the interpreter, writing a CSV) and take its error:
   - pendulum and Van der Pol: the largest absolute difference, over every row and
     both states, from a high-accuracy reference (solve_ivp DOP853 at rtol = atol =
     2.5e-14, evaluated at the CSV's times; for the pendulum the reference is checked
     against the exact period T = 4 sqrt(L/g) K(sin^2(angle0/2)));
   - the ball: the largest error of its impact times against the closed form (free
     fall from h0, t_1 = sqrt(2 h0/|g|), then flights of 2 e^k v_1/|g|). An impact is
     read from the first row after it (v turned from < 0 to >= 0): the free flight
     through that row, h + v s - |g| s^2/2 = 0, solved for s <= 0. The rebound speeds
     and apex heights are compared with the closed form too (printed, not matched);
2. for RK45 and DOP853 (explicit) and LSODA (switches to BDF when stiff), find the loosest
   tolerance on a grid (rtol = atol = 10^(-k/4)) whose error, measured the same way,
   is at most the Sit run's error (the ball: solve_ivp with a terminal event on h,
   direction -1, restarted after each impact with v -> -e v);
3. time, as medians of repeated runs:
   - in-process: the generated Rust step over the same run (`peer_timing`, no output),
     the Sit Python package (`sit.load(...).run(...)`: parse, check, interpreter and
     the run, from the same Python as SciPy; omitted when `import sit` fails) and
     solve_ivp at the matched tolerance (t_eval at the CSV's times);
   - as processes: `sitc run` end to end (process start, parse, check, interpret,
     CSV) and `python -c` running the same solve_ivp (interpreter start, `import
     scipy`, the solve, its rows written with numpy.savetxt);
   - diffsol (a Rust ODE solver, `bench/peers/diffsol`), in-process, at the loosest
     tolerance on the same grid matching the Sit error, when its binary is built.

With `--stiff`, the stiff rows instead (scripts/peer_scipy_stiff.py): `rodas5p` (or
`rodas4` or `radau5`, `--implicit METHOD`) on
Robertson's kinetics, HIRES and Van der Pol at mu = 1000 against diffsol's BDF, TR-BDF2
and ESDIRK34 and SciPy's Radau, BDF and LSODA.

Run through scripts/peer_scipy.sh, which sets up numpy and scipy (and the `sit`
package) in a virtual environment and builds the Rust programs. Prints two Markdown
tables: every Sit run against each SciPy method, then each Sit run against the
fastest matching SciPy method, with the three ratios.
"""

import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipk

try:
    import sit
except ImportError:  # the in-process Sit column is left out
    sit = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The models' defaults (examples/models/pendulum.sit, van_der_pol.sit, bouncing_ball.sit).
PEND_L, PEND_G, PEND_ANGLE0 = 2.0, 9.81, 1.0
VDP_MU, VDP_X0 = 1.0, (2.0, 0.0)
BALL_G, BALL_E, BALL_H0 = 9.81, 0.7, 1.0
# Six impacts (t_6 = 2.2046 s, t_7 = 2.3109 s); the ball's v_min = 0.1 is never reached
# (the sixth rebound is at 0.52 m/s), so the exact solution needs no stop.
BALL_T_END = 2.26

# Each right-hand side as source text: run here, and in the `python -c` process timed
# as SciPy's end-to-end run.
PEND_SRC = f"""
def rhs(_t, y):
    return [y[1], -{PEND_G!r} * math.sin(y[0]) / {PEND_L!r}]
"""
VDP_SRC = f"""
def rhs(_t, y):
    return [y[1], {VDP_MU!r} * ((1.0 - y[0] * y[0]) * y[1]) - y[0]]
"""
# The ball: free fall with a terminal event at the floor, restarted after each impact
# with the speed reversed and scaled by e. Returns the rows at t_eval, the impacts
# (time, speed just before) and the number of function evaluations.
BALL_SRC = f"""
def ball(method, tol, t_end, t_eval):
    def rhs(_t, y):
        return [y[1], -{BALL_G!r}]

    def floor(_t, y):
        return y[0]

    floor.terminal = True
    floor.direction = -1
    t0, y0, first = 0.0, [{BALL_H0!r}, 0.0], True
    ts, ys, impacts, nfev = [], [], [], 0
    while t0 < t_end:
        te = t_eval[(t_eval >= t0) & (t_eval <= t_end)] if first else \\
            t_eval[(t_eval > t0) & (t_eval <= t_end)]
        sol = solve_ivp(rhs, (t0, t_end), y0, method=method, t_eval=te, events=floor,
                        rtol=tol, atol=tol)
        if sol.status < 0:
            raise RuntimeError(f"ball, {{method}} at tol {{tol}}: {{sol.message}}")
        nfev += sol.nfev
        ts.append(sol.t)
        ys.append(np.reshape(sol.y, (2, -1)).T)  # a list, not an array, when te is empty
        if sol.status != 1:
            break
        t0, (_h, v) = sol.t_events[0][0], sol.y_events[0][0]
        impacts.append((t0, v))
        y0, first = [0.0, -{BALL_E!r} * v], False
    return np.concatenate(ts), np.concatenate(ys), impacts, nfev
"""

PROCESS_SMOOTH = """
import math, sys
import numpy as np
from scipy.integrate import solve_ivp
{src}
t = np.linspace(0.0, {t_end!r}, {rows})
sol = solve_ivp(rhs, (0.0, {t_end!r}), {y0!r}, method={method!r}, t_eval=t,
                rtol={tol!r}, atol={tol!r})
np.savetxt(sys.argv[1], np.column_stack([sol.t, sol.y.T]), delimiter=",")
"""
PROCESS_BALL = """
import sys
import numpy as np
from scipy.integrate import solve_ivp
{src}
t, y, _impacts, _nfev = ball({method!r}, {tol!r}, {t_end!r}, np.linspace(0.0, {t_end!r}, {rows}))
np.savetxt(sys.argv[1], np.column_stack([t, y]), delimiter=",")
"""

NAMESPACE = {"math": math, "np": np, "solve_ivp": solve_ivp}
exec(PEND_SRC + "pendulum_rhs = rhs\n" + VDP_SRC + "vdp_rhs = rhs\n" + BALL_SRC, NAMESPACE)

MODELS = {
    "pendulum": {
        "file": "examples/models/pendulum.sit",
        "columns": ("angle", "omega"),
        "rhs": NAMESPACE["pendulum_rhs"],
        "src": PEND_SRC,
        "y0": (PEND_ANGLE0, 0.0),
    },
    "van_der_pol": {
        "file": "examples/models/van_der_pol.sit",
        "columns": ("x0", "x1"),
        "rhs": NAMESPACE["vdp_rhs"],
        "src": VDP_SRC,
        "y0": VDP_X0,
    },
    "bouncing_ball": {
        "file": "examples/models/bouncing_ball.sit",
        "columns": ("h", "v"),
        "src": BALL_SRC,
        "y0": (BALL_H0, 0.0),
    },
}
SCIPY_METHODS = ("RK45", "DOP853", "LSODA")


def median_time(fn, repeats):
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


# Sit's adaptive methods: run at `--rtol 1e-K --atol 1e-K`, as the peers are (rtol = atol).
ADAPTIVE = ("dopri5", "tsit5", "dop853")


def tolerance_args(method, k):
    return ["--rtol", f"1e-{k}", "--atol", f"1e-{k}"] if method in ADAPTIVE else []


def sit_run(sitc, spec, method, k, dt, t_end, every, repeats):
    """The CSV of `sitc run` (times, states) and the median wall time of the run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.csv")
        cmd = [sitc, "run", os.path.join(ROOT, spec["file"]), "--method", method,
               *tolerance_args(method, k), "--dt", repr(dt), "--t-end", repr(t_end),
               "--every", str(every), "-o", out]
        seconds, _ = median_time(lambda: subprocess.run(cmd, check=True), repeats)
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
    t = np.array([float(r["t"]) for r in rows])
    y = np.array([[float(r[c]) for c in spec["columns"]] for r in rows])
    return t, y, seconds


def sit_python(tmp, spec, method, k, dt, t_end, every, repeats):
    """The median time of `sit.load(FILE).run(...)` in this process (FILE the model with
    the run's method declared), and its last row; None without the `sit` package."""
    if sit is None:
        return None
    with open(os.path.join(ROOT, spec["file"])) as f:
        text = f.read()
    if method != "euler":
        tol = f" rtol 1e-{k} atol 1e-{k}" if method in ADAPTIVE else ""
        text = re.sub(r"^(model \w+ \{\n)", rf"\g<1>    method {method}{tol};\n", text,
                      count=1, flags=re.M)
    path = os.path.join(tmp, f"{method}_{k}_{os.path.basename(spec['file'])}")
    with open(path, "w") as f:
        f.write(text)
    cols = list(spec["columns"])
    seconds, r = median_time(
        lambda: sit.load(path).run(dt=dt, t_end=t_end, record=cols, every=every), repeats)
    return seconds, [float(r[c][-1]) for c in cols]


def generated_time(peer_timing, name, dt, t_end, repeats):
    cmd = [peer_timing, name, repr(dt), repr(t_end), str(repeats)]
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
    sol = integrate(spec, np.array([0.0, period]), "DOP853", REFERENCE_TOL)
    # 1e-11: a few hundred steps at rtol 2.5e-14 each, below any Sit error compared
    # (the tightest, dop853 at rtol 1e-12, are about 1e-11 over the run).
    drift = abs(sol.y[0][-1] - PEND_ANGLE0) + abs(sol.y[1][-1])
    if drift > 1e-11:
        raise RuntimeError(f"reference misses the exact period by {drift}")
    return period, drift


def ball_exact(t_end):
    """The closed form's impacts up to t_end: (time, rebound speed, apex height)."""
    v1 = math.sqrt(2.0 * BALL_G * BALL_H0)
    t, k, out = math.sqrt(2.0 * BALL_H0 / BALL_G), 0, []
    while t <= t_end:
        rebound = BALL_E ** (k + 1) * v1
        out.append((t, rebound, rebound * rebound / (2.0 * BALL_G)))
        t += 2.0 * rebound / BALL_G
        k += 1
    return out


def ball_impacts_from_rows(t, y):
    """Impacts read from the rows: at the first row after each (v from < 0 to >= 0),
    the free flight through it traced back to h = 0: (time, rebound speed, apex)."""
    out = []
    a = BALL_G / 2.0
    for i in range(1, len(t)):
        if y[i - 1][1] < 0.0 <= y[i][1]:
            h, v = y[i]
            # The root s <= 0 of h + v s - a s^2 = 0, in the form without cancellation.
            s = -2.0 * h / (v + math.sqrt(v * v + 4.0 * a * h))
            rebound = v - BALL_G * s
            out.append((t[i] + s, rebound, rebound * rebound / (2.0 * BALL_G)))
    return out


def ball_exact_rows(t):
    """The closed form's (h, v) at the times t (each flight a free fall from the floor)."""
    starts = [(0.0, BALL_H0, 0.0)]  # (time, height, upward speed) of each flight
    starts += [(ti, 0.0, rebound) for ti, rebound, _apex in ball_exact(t[-1])]
    rows = []
    for ti in t:
        t0, h0, v0 = max((s for s in starts if s[0] <= ti), key=lambda s: s[0])
        s = ti - t0
        rows.append((h0 + v0 * s - BALL_G * s * s / 2.0, v0 - BALL_G * s))
    return np.array(rows)


def check_ball_reading():
    """Reading the impacts from exact rows gives the closed form's impacts: the
    measure is exact when the flight after each impact is (as under event location)."""
    t = np.arange(round(BALL_T_END / 0.02) + 1) * 0.02
    exact = ball_exact(t[-1])
    impacts = ball_impacts_from_rows(t, ball_exact_rows(t))
    errors = ball_errors(impacts, exact)
    if len(impacts) != len(exact) or max(errors) > 1e-12:
        raise RuntimeError(f"impacts read from exact rows: {len(impacts)} of "
                           f"{len(exact)}, errors {errors}")
    return len(exact)


def ball_errors(impacts, exact):
    """Largest errors of impact time, rebound speed and apex height over the impacts
    both have (the counts are reported beside them); inf with no impact."""
    if not impacts:
        return math.inf, math.inf, math.inf
    return tuple(max(abs(a[j] - b[j]) for a, b in zip(impacts, exact)) for j in range(3))


def scipy_ball(t, method, tol):
    """solve_ivp on the ball at the run's times: (impacts as from the rows' reading,
    function evaluations)."""
    _t, _y, impacts, nfev = NAMESPACE["ball"](method, tol, t[-1], t)
    rebounds = [(ti, -BALL_E * v, (BALL_E * v) ** 2 / (2.0 * BALL_G)) for ti, v in impacts]
    return rebounds, nfev


TOLERANCES = [10.0 ** (-k / 4.0) for k in range(4, 55)]  # tol from 1e-1 down to 3e-14

# The reference solution's tolerance (solve_ivp DOP853, rtol = atol): a little above the
# 100 ulp SciPy allows, two orders below the tightest Sit run's (rtol 1e-12).
REFERENCE_TOL = 2.5e-14


def match(model, spec, t, ref, target):
    """For each SciPy method: the loosest grid tolerance whose error is <= target."""
    found = {}
    for method in SCIPY_METHODS:
        found[method] = None
        for tol in TOLERANCES:
            if model == "bouncing_ball":
                try:
                    impacts, nfev = scipy_ball(t, method, tol)
                except ValueError:
                    # LSODA at some tolerances: its dense output at the step's start
                    # has not the sign of the step's event function, so brentq fails.
                    continue
                err = ball_errors(impacts, ref)[0] if len(impacts) == len(ref) else math.inf
            else:
                sol = integrate(spec, t, method, tol)
                err, nfev = error(sol.y.T, ref), sol.nfev
            if err <= target:
                found[method] = (tol, err, nfev)
                break
    return found


def scipy_in_process(model, spec, t, method, tol, repeats):
    if model == "bouncing_ball":
        return median_time(lambda: scipy_ball(t, method, tol), repeats)[0]
    return median_time(lambda: integrate(spec, t, method, tol), repeats)[0]


def scipy_process(python, model, spec, t, method, tol, repeats):
    """The median wall time of `python -c` doing the same solve and writing its rows."""
    template = PROCESS_BALL if model == "bouncing_ball" else PROCESS_SMOOTH
    code = template.format(src=spec["src"], t_end=float(t[-1]), rows=len(t),
                           y0=tuple(spec["y0"]), method=method, tol=tol)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "scipy.csv")
        cmd = [python, "-c", code, out]
        seconds, _ = median_time(lambda: subprocess.run(cmd, check=True), repeats)
    return seconds


def diffsol_match(binary, model, t, ref, target, repeats):
    """diffsol at the loosest grid tolerance whose error is <= target: (tol, error,
    median seconds), or None (no binary, a model it does not run, or no tolerance)."""
    if binary is None or model == "bouncing_ball":
        return None
    for tol in TOLERANCES:
        cmd = [binary, model, repr(float(t[-1])), str(len(t) - 1), repr(tol), str(repeats)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            return None
        out = json.loads(run.stdout)
        err = error(np.array(out["rows"]), ref)
        if err <= target:
            return tol, err, out["seconds"]
    return None


def runs(quick):
    """(model, Sit method, dt, K of the adaptive method's tolerance 1e-K) of each Sit run."""
    out = []
    if quick:
        out += [("pendulum", "euler", 1e-3, None), ("pendulum", "rk4", 0.01, None)]
        out += [("pendulum", "dopri5", 0.5, k) for k in (4, 7, 10)]
        out += [("van_der_pol", "dopri5", 0.5, k) for k in (4, 7, 10)]
        out += [("bouncing_ball", "euler", 1e-3, None), ("bouncing_ball", "dopri5", 0.02, 6)]
        out += [("pendulum", "tsit5", 0.5, k) for k in (7, 10)]
        out += [(model, "dop853", 0.5, k) for model in ("pendulum", "van_der_pol")
                for k in (7, 10, 12)]
        return out
    out += [("pendulum", "euler", 1e-3, None), ("pendulum", "euler", 1e-4, None),
            ("van_der_pol", "euler", 1e-2, None), ("van_der_pol", "euler", 1e-3, None)]
    # rk4 from an error of about 1e-3 down to about 1e-9.
    out += [("pendulum", "rk4", dt, None) for dt in (0.1, 0.04, 0.01, 0.004, 0.002)]
    out += [("van_der_pol", "rk4", dt, None) for dt in (0.1, 0.04, 0.01, 0.004, 0.001)]
    # dopri5 with host steps of 0.5 s, so that the tolerance sets the internal steps
    # (errors from about 1e-2 to 5e-9); and once with rows every 0.02 s, where each
    # host step ends an internal step and the error is that of 0.02 s steps whatever
    # the tolerance.
    for model in ("pendulum", "van_der_pol"):
        out += [(model, "dopri5", 0.5, k) for k in range(4, 11)]
        out += [(model, "dopri5", 0.02, 3)]
    out += [("bouncing_ball", "euler", 1e-3, None), ("bouncing_ball", "euler", 1e-4, None),
            ("bouncing_ball", "dopri5", 0.02, 6), ("bouncing_ball", "dopri5", 1e-3, 6)]
    # tsit5 and dop853 (the methods diffsol's TSIT45 is matched against at tight
    # tolerances), host steps of 0.5 s as for dopri5.
    for model in ("pendulum", "van_der_pol"):
        out += [(model, method, 0.5, k) for method in ("tsit5", "dop853")
                for k in (4, 6, 8, 10, 12)]
    return out


def timing_name(model, method, k):
    if method == "euler":
        return model
    return f"{model}_rk4" if method == "rk4" else f"{model}_{method}_{k}"


def fmt_s(seconds):
    return "" if seconds is None else f"{seconds:.2e}"


def ratio(a, b):
    """a / b to two or three significant digits ("" when either is missing)."""
    if a is None or b is None:
        return ""
    r = a / b
    return f"{r:.0f}" if r >= 10 else f"{r:.2g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sitc", default=os.path.join(ROOT, "target/release/sitc"))
    parser.add_argument("--peer-timing",
                        default=os.path.join(ROOT, "target/release/examples/peer_timing"))
    parser.add_argument("--diffsol",
                        default=os.path.join(ROOT, "target/peers/diffsol/release/peer_diffsol"),
                        help="the diffsol peer's binary (its columns are left empty if absent)")
    parser.add_argument("--t-end", type=float, default=20.0,
                        help="end time of the pendulum and Van der Pol runs")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs per timing (the median is reported)")
    parser.add_argument("--quick", action="store_true",
                        help="18 of the 54 Sit runs, covering each model and method")
    parser.add_argument("--stiff", action="store_true",
                        help="the stiff rows (rodas5p) instead: scripts/peer_scipy_stiff.py")
    parser.add_argument("--implicit", choices=("rodas4", "rodas5p", "radau5"), default="rodas5p",
                        help="the implicit method of the stiff rows (default rodas5p)")
    parser.add_argument("--diffsol-methods", default="bdf,tr_bdf2,esdirk34",
                        help="diffsol's methods tried in the stiff rows, comma-separated "
                        "(BDF was the fastest on every row so far: `bdf` alone is quicker)")
    args = parser.parse_args()
    if args.stiff:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import peer_scipy_stiff
        return peer_scipy_stiff.main(args)
    diffsol = args.diffsol if os.path.exists(args.diffsol) else None

    print(f"t_end = {args.t_end} (ball {BALL_T_END}); times are medians of {args.repeats} "
          "runs; error = max |y - reference| over the rows and both states (ball: max "
          "|impact time - exact|)")
    print(f"sit package: {'in-process column from ' + sit.__file__ if sit else 'absent'}; "
          f"diffsol: {diffsol or 'absent'}")
    period, drift = check_pendulum_reference(MODELS["pendulum"])
    print(f"pendulum reference checked against the exact period {period:.12f} s "
          f"(back to the start within {drift:.1e})")
    print(f"ball: the {check_ball_reading()} impacts read from the closed form's rows at "
          "dt 0.02 are exact to 1e-12")
    print()
    print("| model | Sit method | dt | rtol | Sit error | generated | sitc run | sit (Python) "
          "| method | tol | error | nfev | solve_ivp | python -c | solve_ivp / generated "
          "| python -c / sitc run | solve_ivp / sit (Python) |")
    print("|" + "---|" * 17)
    summary = []
    balls = []
    with tempfile.TemporaryDirectory() as tmp:
        for model, sit_method, dt, k in runs(args.quick):
            spec = MODELS[model]
            t_end = BALL_T_END if model == "bouncing_ball" else args.t_end
            steps = round(t_end / dt)
            every = max(1, steps // 1000)  # about 1000 rows compared
            t, y, sitc_s = sit_run(args.sitc, spec, sit_method, k, dt, t_end, every,
                                   args.repeats)
            if model == "bouncing_ball":
                ref = ball_exact(t[-1])
                impacts = ball_impacts_from_rows(t, y)
                sit_err, speed_err, apex_err = ball_errors(impacts, ref)
                balls.append((sit_method, dt, k, len(impacts), len(ref), sit_err,
                              speed_err, apex_err))
            else:
                ref = integrate(spec, t, "DOP853", REFERENCE_TOL).y.T
                sit_err = error(y, ref)
            gen = generated_time(args.peer_timing, timing_name(model, sit_method, k), dt,
                                 t_end, max(args.repeats, 5))
            # The generated code's final state is the CSV's last row (same arithmetic).
            if steps % every == 0 and list(gen["state"]) != list(y[-1]):
                raise RuntimeError(f"{model}: generated {gen['state']} != sitc run {y[-1]}")
            in_python = sit_python(tmp, spec, sit_method, k, dt, t_end, every, args.repeats)
            if in_python is not None and in_python[1] != list(y[-1]):
                raise RuntimeError(f"{model}: sit package {in_python[1]} != sitc run {y[-1]}")
            py_s = None if in_python is None else in_python[0]
            rtol = f"1e-{k}" if k is not None else ""
            head = (f"| {model} | {sit_method} | {dt:g} | {rtol} | {sit_err:.2e} | "
                    f"{gen['seconds']:.2e} | {sitc_s:.2e} | {fmt_s(py_s)} |")
            best = None
            for method, hit in match(model, spec, t, ref, sit_err).items():
                if hit is None:
                    print(f"{head} {method} | none down to 1e-13 | | | | | | | |")
                    continue
                tol, err, nfev = hit
                ivp_s = scipy_in_process(model, spec, t, method, tol, args.repeats)
                proc_s = scipy_process(sys.executable, model, spec, t, method, tol,
                                       args.repeats)
                print(f"{head} {method} | {tol:.1e} | {err:.2e} | {nfev} | {ivp_s:.2e} | "
                      f"{proc_s:.2e} | {ratio(ivp_s, gen['seconds'])} | "
                      f"{ratio(proc_s, sitc_s)} | {ratio(ivp_s, py_s)} |")
                # The fastest in-process solve and, apart, the fastest process.
                if best is None:
                    best = (method, ivp_s, proc_s)
                best = min(best, (method, ivp_s, best[2]), key=lambda b: b[1])
                best = (best[0], best[1], min(best[2], proc_s))
            ds = diffsol_match(diffsol, model, t, ref, sit_err, max(args.repeats, 5))
            summary.append((model, sit_method, dt, rtol, sit_err, gen["seconds"], sitc_s,
                            py_s, best, ds))
            sys.stdout.flush()

    print()
    print("Each Sit run against the fastest matching SciPy method (in-process), the fastest "
          "`python -c` run, and diffsol:")
    print()
    print("| model | Sit method | dt | rtol | Sit error | fastest solve_ivp | solve_ivp / "
          "generated | python -c / sitc run | solve_ivp / sit (Python) | solve_ivp / sitc run "
          "| diffsol tol | diffsol | diffsol / generated |")
    print("|" + "---|" * 13)
    for model, sit_method, dt, rtol, sit_err, gen_s, sitc_s, py_s, best, ds in summary:
        if best is None:
            cells = "none | | | | |"
        else:
            method, ivp_s, proc_s = best
            cells = (f"{method} {ivp_s:.2e} s | {ratio(ivp_s, gen_s)} | "
                     f"{ratio(proc_s, sitc_s)} | {ratio(ivp_s, py_s)} | "
                     f"{ratio(ivp_s, sitc_s)}")
        dcells = " | |" if ds is None else f"{ds[0]:.1e} | {ds[2]:.2e} s | {ratio(ds[2], gen_s)}"
        print(f"| {model} | {sit_method} | {dt:g} | {rtol} | {sit_err:.2e} | {cells} | "
              f"{dcells} |")

    print()
    print("The bouncing ball's impacts read from Sit's rows, against the closed form:")
    print()
    print("| Sit method | dt | rtol | impacts (exact) | impact time error | rebound speed "
          "error | apex height error |")
    print("|---|---|---|---|---|---|---|")
    for sit_method, dt, k, n, n_exact, t_err, v_err, h_err in balls:
        rtol = f"1e-{k}" if k is not None else ""
        print(f"| {sit_method} | {dt:g} | {rtol} | {n} ({n_exact}) | {t_err:.2e} s | "
              f"{v_err:.2e} m/s | {h_err:.2e} m |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
