"""Forward sensitivities in `Model.run`, `Model.fit` and `Model.residuals`: against
`sitc run --sensitivities` and `sitc fit` bit for bit, against finite differences, a
fit that recovers the params the data was made with, SciPy's `least_squares` on the
exact Jacobian, and the messages for bad arguments."""

import subprocess

import numpy as np
import pytest

import sit
from conftest import ROOT, same_bits

DAMPED = """
/// A pendulum with viscous damping `c` (1/s).
model Damped {
    param L = 2.0;
    param g = 9.81;
    param c = 0.3;
    output real angle = 1.0;
    output real omega = 0.0;
    omega = integral(-g / L * sin(angle) - c * omega);
    angle = integral(omega);
}
"""


@pytest.fixture
def damped(tmp_path):
    path = tmp_path / "damped.sit"
    path.write_text(DAMPED)
    return path


def test_run_with_sensitivities_is_sitc_run(sitc, damped):
    m = sit.load(damped)
    for record, flag in [(None, []), (["omega"], ["--record", "omega"])]:
        r = m.run(dt=0.01, t_end=2, every=20, record=record, sensitivities=["c", "L", "angle"])
        header, rows = sitc(
            "run", damped, "--method", "euler", "--dt", 0.01, "--t-end", 2, "--every", 20,
            "--sensitivities", "c,L,angle", *flag,
        )
        assert r.columns == header
        for c, name in enumerate(header):
            for i, row in enumerate(rows):
                assert same_bits(float(r[name][i]), row[c]), (name, i)
    # With an explicit record, each variable's sensitivities sit right beside it.
    assert r.columns == ["t", "omega", "d(omega)/d(c)", "d(omega)/d(L)", "d(omega)/d(angle(0))"]


def test_sensitivities_match_central_differences(damped):
    """d(angle)/d(c) and d(angle)/d(L) at t = 3 under rk4: the variational equations
    integrated by the same method are the derivative of the discrete run, so they agree
    with central differences (step 1e-6, truncation ~1e-12) to about 1e-7 relative."""
    m = sit.load(damped)
    m_rk4 = dict(dt=0.01, t_end=3, record=["angle"])
    base = m.run(**m_rk4, sensitivities="c,L")
    for p, v in [("c", 0.3), ("L", 2.0)]:
        h = 1e-6 * v
        up = m.run(**m_rk4, set={p: v + h})["angle"][-1]
        down = m.run(**m_rk4, set={p: v - h})["angle"][-1]
        fd = (up - down) / (2 * h)
        exact = base[f"d(angle)/d({p})"][-1]
        assert abs(exact - fd) <= 1e-6 * abs(fd), (p, exact, fd)


def noisy_data(m, seed=7):
    """Angle and omega every 0.1 s from t = 0.1 to 5 at c = 0.3, L = 2, with noise of
    σ = 0.01 (NumPy's generator, seeded: the same data every run)."""
    r = m.run(dt=0.01, t_end=5, every=10, record=["angle", "omega"])
    rng = np.random.default_rng(seed)
    t = r.t[1:]
    return {
        "t": t,
        "angle": r["angle"][1:] + rng.normal(0, 0.01, t.size),
        "omega": r["omega"][1:] + rng.normal(0, 0.01, t.size),
    }


def test_fit_recovers_the_params_within_their_errors(damped):
    m = sit.load(damped)
    data = noisy_data(m)
    start = m.copy()
    start["c"] = 0.1
    start["L"] = 1.5
    f = start.fit(data, {"c": (0.0, 2.0), "L": (0.5, 5.0)}, dt=0.01, sigma={"angle": 0.01, "omega": 0.01})
    assert f.converged and f.names == ["c", "L"]
    assert f.start == {"c": 0.1, "L": 1.5}
    for p, true in [("c", 0.3), ("L", 2.0)]:
        # Within three standard errors of the value the data was made with; the errors
        # themselves small (the data determines both well).
        assert abs(f.values[p] - true) < 3 * f.std_errors[p], (p, f.values[p], f.std_errors[p])
        assert f.std_errors[p] < 0.02 * true
    # σ is the noise's: the weighted sum of squares is about the number of points.
    assert 0.7 * f.points < f.sum_sq < 1.3 * f.points
    assert f.points == 2 * data["t"].size
    assert f.correlation.shape == (2, 2) and f.correlation[0, 0] == pytest.approx(1.0)
    assert set(f.fitted) == {"angle", "omega"} and f.fitted["angle"].shape == data["t"].shape
    assert "param" in str(f) and "std error" in str(f)
    # The copy fitted was not changed; the fit ran copies.
    assert start["c"] == 0.1


def test_fit_is_sitc_fit(sitc_exe, damped, tmp_path):
    """The same data as a dict and as the CSV `sitc fit` reads: the same report."""
    m = sit.load(damped)
    data = noisy_data(m, seed=11)
    csv = tmp_path / "data.csv"
    lines = ["t,angle,omega"] + [
        f"{float(t)!r},{float(a)!r},{float(w)!r}"
        for t, a, w in zip(data["t"], data["angle"], data["omega"])
    ]
    csv.write_text("\n".join(lines) + "\n")
    ours = m.fit(data, {"c": 0.2, "L": (1.0, 3.0)}, dt=0.01, log=["c"])
    from_csv = m.fit(str(csv), {"c": 0.2, "L": (1.0, 3.0)}, dt=0.01, log=["c"])
    assert ours.text == from_csv.text
    by_path = sit.fit(damped, data, {"c": 0.2, "L": (1.0, 3.0)}, dt=0.01, log=["c"])
    assert by_path.text == ours.text
    out = subprocess.run(
        [sitc_exe, "fit", damped, "--data", csv, "--param", "c=0.2", "--param", "L=1..3",
         "--log", "c", "--dt", "0.01", "--quiet"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n", 1)[1] == ours.text


def test_residuals_serve_scipy_least_squares(damped):
    m = sit.load(damped)
    data = noisy_data(m, seed=3)
    r = m.residuals(data, {"c": 0.1, "L": (0.5, 5.0)}, dt=0.01)
    assert r.names == ["c", "L"]
    assert list(r.x0) == [0.1, 2.0]
    lo, hi = r.bounds
    assert list(lo) == [-np.inf, 0.5] and list(hi) == [np.inf, 5.0]
    # The Jacobian against central differences of the residuals (smooth in the params
    # under Euler; the differences' truncation and rounding are below 1e-5 relative).
    q = np.array([0.25, 1.8])
    jac = r.jac(q)
    assert jac.shape == (2 * data["t"].size, 2)
    for j in range(2):
        h = 1e-6 * q[j]
        e = np.zeros(2)
        e[j] = h
        fd = (r(q + e) - r(q - e)) / (2 * h)
        assert np.max(np.abs(jac[:, j] - fd)) <= 1e-5 * np.max(np.abs(fd))
    # One run serves the residuals and the Jacobian at the same point.
    runs = r.runs
    r(q)
    r.jac(q)
    assert r.runs == runs + 1
    from scipy.optimize import least_squares

    got = least_squares(r, r.x0, jac=r.jac, bounds=r.bounds, xtol=1e-12, ftol=1e-12)
    f = m.fit(data, {"c": 0.1, "L": (0.5, 5.0)}, dt=0.01)
    for i, p in enumerate(["c", "L"]):
        assert got.x[i] == pytest.approx(f.values[p], rel=1e-6, abs=1e-9)


def test_fit_errors_say_what_was_expected(damped):
    m = sit.load(damped)
    data = noisy_data(m)
    with pytest.raises(KeyError, match="no param or state `k`"):
        m.fit(data, ["k"], dt=0.01)
    with pytest.raises(KeyError, match="data has no column `t`"):
        m.fit({"time": data["t"], "angle": data["angle"]}, ["c"], dt=0.01)
    with pytest.raises(ValueError, match="column `angle` has 3 values for 50 times"):
        m.fit({"t": data["t"], "angle": data["angle"][:3]}, ["c"], dt=0.01)
    with pytest.raises(ValueError, match="column `speed` is not a variable of model `Damped`"):
        m.fit({"t": data["t"], "speed": data["angle"]}, ["c"], dt=0.01)
    with pytest.raises(ValueError, match="lower bound -1 is negative"):
        m.fit(data, {"c": (-1, 1)}, dt=0.01, log=["c"])
    with pytest.raises(KeyError, match="log: `g` is not one of the fitted params"):
        m.fit(data, ["c"], dt=0.01, log=["g"])
    with pytest.raises(ValueError, match="sigma: `angle` must be > 0"):
        m.fit(data, ["c"], dt=0.01, sigma={"angle": 0})
    with pytest.raises(TypeError, match="must be None, a start value or a pair"):
        m.fit(data, {"c": "fast"}, dt=0.01)
    with pytest.raises(ValueError, match="dt must be > 0"):
        m.fit(data, ["c"], dt=0)
    with pytest.raises(KeyError, match="sensitivities: model `Damped` has no param or state `x`"):
        m.run(dt=0.1, t_end=1, sensitivities=["x"])
