"""`Model.run` against `sitc run`, bit for bit, and against the Reference FMUs."""

import csv

import numpy as np
import pytest

import sit
from conftest import MODELS, ROOT, library, same_bits


def assert_same(result, header, rows, states=None):
    """`states`: each mode's state names (`Variable.states`), by column name."""
    assert result.columns == header
    assert len(result) == len(rows)
    for c, name in enumerate(header):
        ours = result[name]
        for r, row in enumerate(rows):
            if isinstance(row[c], str):
                # A mode: sitc writes its state's name, Python the state's index in
                # `Variable.states`.
                assert states is not None and name in states, (name, row[c])
                index = float(ours[r])
                assert index.is_integer(), (name, r, index)
                assert states[name][int(index)] == row[c], (name, r, row[c], index)
                continue
            assert same_bits(float(ours[r]), row[c]), (name, r, ours[r], row[c])


def mode_states(m):
    """Each mode's state names, by name."""
    return {v.name: v.states for v in m.variables if v.states}


@pytest.mark.parametrize("path", library(), ids=lambda p: p.stem)
def test_every_library_model_runs_as_sitc_run(sitc, path):
    m = sit.load(path)
    result = m.run(dt=0.01, t_end=3, record="all", every=7)
    header, rows = sitc("run", path, "--dt", 0.01, "--t-end", 3, "--record", "all", "--every", 7)
    assert_same(result, header, rows, mode_states(m))


def test_set_partial_last_step_and_default_record(sitc):
    path = MODELS / "hoop.sit"
    m = sit.load(path)
    result = m.run(dt=0.3e-3, t_end=0.1, set={"k_press": 80000, "h": 350})
    header, rows = sitc("run", path, "--dt", 0.3e-3, "--t-end", 0.1,
                        "--set", "k_press=80000", "--set", "h=350")
    assert result.columns == ["t", "h", "Vy", "defl"]
    assert_same(result, header, rows)
    # The model itself is not changed by a run.
    assert (m.time, m["k_press"], m["h"]) == (0.0, 60000.0, 400.0)


def test_inputs_from_arrays_as_sitc_input(sitc):
    path = MODELS / "cart_pendulum.sit"
    data = ROOT / "examples" / "data" / "push.csv"
    t, u = [], []
    with open(data) as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            if row[0] != "t":
                t.append(float(row[0]))
                u.append(float(row[1]))
    m = sit.load(path)
    result = m.run(dt=1e-3, t_end=4, every=50, record=["F_ext", "X_cart", "V_cart"],
                   inputs={"F_ext": (np.array(t), np.array(u))})
    header, rows = sitc("run", path, "--input", f"F_ext={data}:force", "--dt", 1e-3,
                        "--t-end", 4, "--every", 50, "--record", "F_ext,X_cart,V_cart")
    assert_same(result, header, rows)
    assert result["F_ext"].max() == 5.0


def reference(name):
    path = ROOT / "tests" / "oracles" / "reference-fmus" / f"{name}_out.csv"
    with open(path) as f:
        table = list(csv.reader(f))
    return table[0], np.array([[float(x) for x in row] for row in table[1:]])


@pytest.mark.parametrize(
    "file,name,dt,every",
    [
        ("dahlquist.sit", "Dahlquist", 0.1, 1),
        ("van_der_pol.sit", "VanDerPol", 0.01, 1),
        ("bouncing_ball.sit", "BouncingBall", 0.001, 10),
        ("stair.sit", "Stair", 0.2, 1),
    ],
)
def test_reference_fmu_results(file, name, dt, every):
    header, table = reference(name)
    m = sit.load(MODELS / file)
    t_end = table[-1, 0]
    result = m.run(dt=dt, t_end=t_end, every=every, record=header[1:])
    assert len(result) == len(table)
    # The FMUs' published results, to rounding (as tests/tests/reference_fmus.rs).
    np.testing.assert_allclose(result.t, table[:, 0], rtol=1e-12, atol=0)
    for c, column in enumerate(header[1:], start=1):
        np.testing.assert_allclose(result[column], table[:, c], rtol=1e-12, atol=0)


def test_step_get_set_reset_by_hand():
    m = sit.load(MODELS / "dahlquist.sit")
    assert [v.name for v in m.variables] == ["k", "x", "der_x"]
    k, x, _ = m.variables
    assert (k.kind, k.type, k.settable, x.kind, x.output) == ("param", "real", True, "state", True)
    m["k"] = 2.0
    m.step(0.1)
    assert m["x"] == 1.0 + -(2.0 * 1.0) * 0.1
    assert m.time == 0.1
    m.reset()
    assert (m.time, m["x"], m["k"]) == (0.0, 1.0, 2.0)
    assert "x" in m and "y" not in m


def test_a_mode_names_its_states():
    m = sit.load(MODELS / "traffic_light.sit")
    # A mode is a state (kind "state") whose values are named.
    light = next(v for v in m.variables if v.name == "light")
    assert (light.kind, light.states) == ("state", ["red", "green", "yellow"])
    assert all(v.states == [] for v in m.variables if v.name != "light")
    # Its value is the index of its state: green after the 30 s of red.
    result = m.run(dt=0.5, t_end=31)
    assert light.states[int(result["light"][-1])] == "green"


def test_units_of_variables():
    # Declared (`h [m]`), inferred (the bounce's `der_h` from `h = integral(der_h)`),
    # none for a logical value.
    m = sit.load(MODELS / "bouncing_ball.sit")
    units = {v.name: v.unit for v in m.variables}
    assert (units["h"], units["v"], units["g0"], units["e"]) == ("m", "m/s", "m/s^2", "1")
    m = sit.load(MODELS / "conveyor.sit")
    units = {v.name: v.unit for v in m.variables}
    assert units["sensor.on"] is None and units["sensor.blocked"] is None
    assert units["sensor.distance"] == units["distance"] == "m"


def test_docs_of_variables():
    m = sit.load(MODELS / "complex" / "coordinator.sit")
    documented = [v for v in m.variables if v.doc]
    assert documented, "the coordinator documents some of its variables"
    assert any("." in v.name for v in m.variables), "submodel variables by dotted path"


def test_to_pandas_and_numpy():
    pd = pytest.importorskip("pandas")
    m = sit.load(MODELS / "van_der_pol.sit")
    r = m.run(0.01, 1, every=10)
    frame = r.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["t", "x0", "x1"]
    assert np.array_equal(frame["x1"].to_numpy(), r["x1"])
    assert r.to_numpy().shape == (11, 3)
    assert np.array_equal(r.to_numpy()[:, 1], r["x0"])


def test_progress_is_called_and_can_stop_a_run():
    m = sit.load(MODELS / "van_der_pol.sit")
    calls = []
    m.run(1e-5, 2, every=1000, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (200000, 200000)
    assert len(calls) >= 3 and calls == sorted(calls)

    def stop(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        m.run(1e-5, 2, progress=stop)


def test_the_gil_is_released_during_a_run():
    import threading
    import time

    m = sit.load(MODELS / "van_der_pol.sit")
    ticks = []
    running = threading.Event()

    def tick():
        running.wait()
        for _ in range(20):
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    running.set()
    start = time.perf_counter()
    m.run(1e-6, 2, every=100000)
    end = time.perf_counter()
    thread.join()
    # The other thread ran while the run was in Rust.
    assert sum(start < t < end for t in ticks) >= 3


def test_flag_inputs_from_arrays_hold_as_sitc_input(sitc, tmp_path):
    path = tmp_path / "gated.sit"
    path.write_text("model Gated { input flag go; output real x; x = integral(1) when go; }\n")
    data = tmp_path / "go.csv"
    data.write_text("t,go\n0,0\n0.25,1\n0.5,0\n0.8,1\n")
    m = sit.load(path)
    t, go = np.array([0, 0.25, 0.5, 0.8]), np.array([0.0, 1.0, 0.0, 1.0])
    result = m.run(dt=0.1, t_end=1, record=["go", "x"], inputs={"go": (t, go)})
    header, rows = sitc("run", path, "--input", f"go={data}", "--dt", 0.1, "--t-end", 1,
                        "--record", "go,x")
    assert_same(result, header, rows)
    # Held from row to row: on for the steps starting at 0.3, 0.4, 0.8 and 0.9.
    assert list(result["go"]) == [0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="takes 0 .false. or 1 .true."):
        m.run(dt=0.1, t_end=1, inputs={"go": (t, np.array([0.0, 0.5, 0.0, 1.0]))})
