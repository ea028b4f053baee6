"""What a run would otherwise pass over silently: non-finite values and tables read past
their grids are reported as warnings (issue 28, items 5 and 7)."""

import math
import os
import warnings

import numpy as np
import pytest

import sit

# dL/dt = -k·sqrt(L), L(0) = 1 empties at t = 2/k; Euler at dt = 0.1 takes the level
# below zero just before, and the next step's sqrt is NaN (k = 0.5: the step from 3.8
# to 3.9, as `sitc run` reports it).
TANK = """model Tank {
    param k = 0.5;
    table valve(L) = [0, 1] -> [0, 1] clamp;
    output real level = 1;
    output real v;
    v = valve(level);
    level = integral(-k * sqrt(level));
}
"""

# A heater table over °C (0 … 100) read with kelvins: the room cools by 2 K/s from
# 300 K; 20 steps of 0.5 s read T = 300, 300, 299, …, 281 (the initial pass and each
# step read T before it is integrated): 21 reads, every one past the grid.
ROOM = """model Room {
    table heat(T) = [0, 50, 100] -> [3, 2, 0] clamp;
    output real T = 300;
    output real q;
    q = heat(T);
    T = integral(-2);
}
"""


@pytest.fixture
def model(tmp_path):
    def load(text, name="m.sit"):
        path = tmp_path / name
        path.write_text(text)
        return sit.load(path), path

    return load


def caught(f):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = f()
    return result, seen


def test_a_run_that_meets_nan_stops_naming_the_rule(model):
    m, path = model(TANK)
    with pytest.raises(sit.NonFiniteError) as caught_error:
        m.run(dt=0.1, t_end=6)
    e = caught_error.value
    assert isinstance(e, sit.SitError)
    # The rule, its line, the time at the start of the step, the values it read: the
    # words of `sitc run` (the level went below zero in the step before, as below).
    assert str(e).endswith(
        ": rule `level = integral(-k * sqrt(level))` made `level` = NaN at t = 3.8 "
        "(reading k = 0.5); allow_non_finite=True runs on past it (a model that means "
        "a value to be infinite)"
    ), str(e)
    assert (e.var, e.time, e.rule) == ("level", 3.8, "level = integral(-k * sqrt(level))")
    assert math.isnan(e.value) and e.line >= 1
    # The rows before the step that made it: t = 0 ... 3.8, the last below zero.
    assert len(e.result["t"]) == 39 and e.result["t"][-1] == 3.8
    assert e.result["level"][-1] < 0
    # Under the event log too, the same stop.
    with pytest.raises(sit.NonFiniteError, match="made `level` = NaN at t = 3.8"):
        m.run(dt=0.1, t_end=6, events=True)


def test_a_run_that_meets_nan_warns_once_with_variable_and_step(model):
    m, _ = model(TANK)
    r, seen = caught(lambda: m.run(dt=0.1, t_end=6, allow_non_finite=True))
    assert np.isnan(r["level"][-1])
    nan = [w for w in seen if issubclass(w.category, sit.NonFiniteWarning)]
    assert len(nan) == 1, [str(w.message) for w in seen]
    assert str(nan[0].message) == (
        "`level` became NaN in the step from t = 3.8 to t = 3.9; "
        "the values after it may be NaN or infinite"
    )
    # Reported at the caller's line, not inside the package.
    assert nan[0].filename == __file__
    # A finite run says nothing.
    _, seen = caught(lambda: m.run(dt=0.1, t_end=3))
    assert seen == []


def test_the_warning_can_be_made_an_error(model):
    m, _ = model(TANK)
    with warnings.catch_warnings():
        warnings.simplefilter("error", sit.NonFiniteWarning)
        with pytest.raises(sit.NonFiniteWarning, match="became NaN"):
            m.run(dt=0.1, t_end=6, allow_non_finite=True)


def test_a_table_read_past_its_grid_warns_with_count_and_range(model):
    m, _ = model(ROOM)
    r, seen = caught(lambda: m.run(dt=0.5, t_end=10))
    assert list(r["q"]) == [0.0] * 21  # heat(100) held
    assert [w.category for w in seen] == [sit.TableRangeWarning]
    assert str(seen[0].message) == (
        "table `heat` was read at T = 281 … 300 outside its grid 0 … 100 "
        "(21 of 21 reads); it held its end values (clamp)"
    )
    # With the event log too (the same interpreter under the log).
    _, seen = caught(lambda: m.run(dt=0.5, t_end=10, events=True))
    assert [w.category for w in seen] == [sit.TableRangeWarning]
    assert "(21 of 21 reads)" in str(seen[0].message)


def test_a_sweep_stops_at_rows_that_met_nan_as_sitc_sweep_does(model):
    # Every row runs; then the rows that met NaN are an error naming each with its rule
    # (issue 47, item 3), the whole result kept on the error.
    _, path = model(TANK)
    with pytest.raises(sit.NonFiniteError) as info:
        sit.sweep(path, {"k": [0.25, 0.5, 1]}, dt=0.1, t_end=6)
    e = info.value
    assert e.rows == [1, 2]
    lines = str(e).split("\n")
    assert lines[0].startswith("row 2 (k=0.5): ") and lines[0].endswith(
        "rule `level = integral(-k * sqrt(level))` made `level` = NaN at t = 3.8 "
        "(reading k = 0.5)"
    ), lines[0]
    assert lines[1].startswith("row 3 (k=1): "), lines[1]
    assert lines[2].startswith("2 of 3 rows met a non-finite value"), lines[2]
    assert np.isfinite(e.result["final(level)"][0]) and np.isnan(e.result["final(level)"][1])


def test_a_sweep_names_each_row_that_met_nan_and_adds_table_reads(model):
    _, path = model(TANK)
    r, seen = caught(
        lambda: sit.sweep(path, {"k": [0.25, 0.5, 1]}, dt=0.1, t_end=6, allow_non_finite=True)
    )
    assert np.isnan(r["final(level)"][1]) and np.isfinite(r["final(level)"][0])
    messages = [(w.category, str(w.message)) for w in seen]
    assert messages == [
        (
            sit.NonFiniteWarning,
            "row 2 (k=0.5): `level` became NaN in the step from t = 3.8 to t = 3.9",
        ),
        (
            sit.NonFiniteWarning,
            "row 3 (k=1): `level` became NaN in the step from t = 1.8 to t = 1.9",
        ),
        (
            sit.NonFiniteWarning,
            "2 of 3 rows met a non-finite value; their values may be NaN or infinite",
        ),
        (
            sit.TableRangeWarning,
            "in 2 of 3 runs, table `valve` was read at L = -0.0008739833809577272 … 1 "
            "outside its grid 0 … 1 (2 of 183 reads); it held its end values (clamp)",
        ),
    ]
    assert all(w.filename == __file__ for w in seen)


# Van der Pol under dopri5: at mu = 1000 the slow branch of the relaxation oscillation
# (|λ| ≈ mu) bounds the steps by stability, which Hairer's test finds (issue 29).
VDP = """model Vdp {
    method dopri5;
    param mu = 1.0;
    output real x0 = 2.0, x1 = 0.0;
    x0 = integral(x1);
    x1 = integral(mu * ((1.0 - x0 * x0) * x1) - x0);
}
"""


def test_a_sweep_reports_the_runs_found_stiff_as_sitc_sweep_does(model):
    _, path = model(VDP)
    r, seen = caught(lambda: sit.sweep(path, {"mu": [1, 1000]}, dt=1, t_end=20))
    assert len(r["final(x0)"]) == 2
    messages = [(w.category, str(w.message)) for w in seen]
    assert messages == [
        (
            sit.StiffnessWarning,
            "in 1 of 2 runs, first row 2 (mu=1000): `Vdp` seems stiff from "
            "t = 1.0852457036384577 under `dopri5`: h·λ stayed past the method's "
            "stability bound for 15 accepted steps in a row (Hairer's test), so its "
            "steps were bounded by stability, not by the tolerances; the implicit method "
            "`rodas5p` suits it",
        ),
    ]
    assert all(w.filename == __file__ for w in seen)


# A fast relaxation past Euler's stability limit (issue 47, item 2): at dt = 2.5e-3 each
# step multiplies y by 1 - 2.5 = -1.5, and `rate = -k·y` passes 1e100 in the step from
# t = 1.3775 (1000·1.5^551), as `sitc run` stops at it (cli/tests/accuracy.rs).
RELAXATION = """model Relaxation {
    param k = 1000;
    output real y = 1;
    real rate;
    rate = -k * y;
    y = integral(rate);
}
"""


def test_a_run_past_1e100_stops_with_the_rule_as_sitc_run_does(model, sitc_exe):
    import subprocess

    m, path = model(RELAXATION)
    with pytest.raises(sit.NonFiniteError) as info:
        m.run(dt=2.5e-3, t_end=2)
    e = info.value
    text = str(e)
    # The words of `sitc run`'s error, the same rule, time and values read.
    out = subprocess.run(
        [sitc_exe, "run", str(path), "--dt", "2.5e-3", "--t-end", "2"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    first = out.stderr.splitlines()[0].removeprefix("error: ")
    assert first.startswith("probable instability: "), first
    assert text.startswith(first + "; a value past 1e100"), (text, first)
    assert text.endswith("allow_non_finite=True runs on past it (a model that means such values)")
    assert (e.var, e.time, e.rule) == ("rate", 1.3775, "rate = -k * y")
    # The rows before that step are kept, the last at t = 1.3775, as sitc run writes them.
    assert e.result["t"][-1] == 1.3775 and len(e.result["t"]) == 552
    # allow_non_finite=True runs on to the end.
    r = m.run(dt=2.5e-3, t_end=2, allow_non_finite=True)
    assert r["t"][-1] == 2 and abs(r["y"][-1]) > 1e100


def test_a_sweep_row_past_1e100_is_an_error_the_others_go_on(model):
    _, path = model(RELAXATION)
    with pytest.raises(sit.NonFiniteError) as info:
        sit.sweep(path, {"k": [10, 1000, 100]}, dt=2.5e-3, t_end=2, summary=["final", "max"])
    e = info.value
    assert e.rows == [1]
    lines = str(e).split("\n")
    assert lines[0] == (
        "row 2 (k=1000): probable instability: " + str(path) + ":5: rule `rate = -k * y` "
        "made `rate` = 1.062389426448763e100 at t = 1.3775 (reading k = 1000, "
        "y = -1.062389426448763e97)"
    ), lines[0]
    assert lines[1].startswith("1 of 3 rows reached a value past 1e100, a probable instability")
    assert lines[1].endswith(
        "allow_non_finite=True takes these rows as the answer (a model that means such values)"
    ), lines[1]
    # The other rows went on: the Euler decay (1 - k·dt)^800.
    assert abs(e.result["final(y)"][0] / 0.975**800 - 1) < 1e-9
    assert abs(e.result["final(y)"][2] / 0.75**800 - 1) < 1e-9
    assert abs(e.result["final(y)"][1]) > 1e100


# Explicit Euler on x' = v, v' = -x: the energy grows by e^(dt·t), from 0.5 to 1.36 by
# t = 100 at dt = 0.01 (issue 47, item 2). The estimate of `sitc run` (from a copy at
# 2·dt, cli/tests/accuracy.rs) is made by `Model.run` too, once, in Python's words.
OSCILLATOR = """model Oscillator {
    output real x = 1;
    output real v = 0;
    real a;
    a = -x;
    x = integral(v);
    v = integral(a);
}
"""


def test_a_fixed_step_run_whose_error_is_large_warns_as_sitc_run_does(model, sitc_exe):
    import subprocess

    m, path = model(OSCILLATOR)
    cli = subprocess.run(
        [sitc_exe, "run", str(path), "--dt", "0.01", "--t-end", "100", "-o", os.devnull],
        capture_output=True,
        text=True,
        check=True,
    ).stderr.strip()
    for events in (False, True):
        r, seen = caught(lambda: m.run(dt=0.01, t_end=100, events=events))
        # The rows are the plain run's: the estimate steps copies.
        energy = 0.5 * (r["x"][-1] ** 2 + r["v"][-1] ** 2)
        assert abs(energy - 1.359) < 1e-3, energy
        messages = [(w.category, str(w.message)) for w in seen]
        assert messages == [
            (
                sit.AccuracyWarning,
                "the fixed steps of `euler` at dt=0.01 may be off by about 38% of `x`'s "
                "magnitude by t = 100 (estimated from a run at 2·dt; this warning is for "
                "more than 5.0%); for a smaller error: `method rk4;` or `method dopri5;` "
                "in the model, or a smaller dt",
            )
        ]
        assert issubclass(sit.AccuracyWarning, UserWarning)
        assert seen[0].filename == __file__
    # The same estimate as `sitc run`'s, in its words.
    want = (
        str(seen[0].message)
        .replace("dt=0.01", "--dt 0.01")
        .replace("in the model,", "in the model (--method rk4, --method dopri5),")
        .replace("smaller dt", "smaller --dt")
    )
    assert cli == "warning: " + want
    # Under rk4 the same run is accurate: nothing is said.
    m, _ = model(OSCILLATOR.replace("model Oscillator {", "model Oscillator {\n    method rk4;"), "rk4.sit")
    _, seen = caught(lambda: m.run(dt=0.01, t_end=100))
    assert [w for w in seen if w.category is sit.AccuracyWarning] == []
    # A sweep estimates each run as `Model.run` does, and warns once with the worst row.
    _, sweep_path = model(OSCILLATOR.replace("a = -x;", "param k = 1;\n    a = -k * x;"), "k.sit")
    _, seen = caught(lambda: sit.sweep(sweep_path, {"k": [0.0001, 1]}, dt=0.01, t_end=100, record="x"))
    said = [str(w.message) for w in seen if w.category is sit.AccuracyWarning]
    _, alone = caught(lambda: sit.load(sweep_path).run(dt=0.01, t_end=100))
    assert said == ["in 1 of 2 runs, worst row 2 (k=1): " + str(alone[0].message)], said
