"""Bad input from Python gives the documented exceptions, with the CLI's messages."""

import math
import subprocess

import numpy as np
import pytest

import sit
from conftest import MODELS

BROKEN = """model Broken {
    output real h = 1, v;
    v = integral(-g);
    h = integral(vv);
}
"""


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.sit"
    path.write_text(BROKEN)
    return path


def test_check_gives_diagnostic_objects(broken):
    diags = sit.check(broken)
    assert [d.code for d in diags] == ["E0101", "E0101"]
    first = diags[0]
    assert (first.severity, first.line, first.column) == ("error", 3, 19)
    assert first.file == str(broken)
    assert "unknown name `g`" in first.message
    assert first.text.startswith(f"{broken}:3:19: error[E0101]")
    assert sit.check(MODELS / "hoop.sit") == []


def test_load_raises_with_the_rendered_diagnostics(broken, sitc_exe):
    with pytest.raises(sit.SitError) as err:
        sit.load(broken)
    cli = subprocess.run([sitc_exe, "check", str(broken)], capture_output=True, text=True)
    assert str(err.value) == cli.stderr
    assert [d.code for d in err.value.diagnostics] == ["E0101", "E0101"]


def test_unreadable_file_and_unknown_model(tmp_path):
    with pytest.raises(sit.SitError, match="cannot read"):
        sit.load(tmp_path / "missing.sit")
    with pytest.raises(sit.SitError, match="cannot read"):
        sit.check(tmp_path / "missing.sit")
    with pytest.raises(sit.SitError, match="no model named `Hop`; did you mean `Hoop`"):
        sit.load(MODELS / "hoop.sit", model="Hop")


def test_unknown_names_are_key_errors():
    m = sit.load(MODELS / "hoop.sit")
    with pytest.raises(KeyError, match="no variable named `Vyy`; did you mean `Vy`"):
        m["Vyy"]
    with pytest.raises(KeyError):
        m["nope"] = 1.0
    with pytest.raises(KeyError, match="record: no variable named `hh`"):
        m.run(0.01, 1, record=["hh"])
    with pytest.raises(KeyError, match="record: `z\\*` matches no variable"):
        m.run(0.01, 1, record="z*")
    with pytest.raises(KeyError, match="set: no variable named `kk`"):
        m.run(0.01, 1, set={"kk": 1})
    with pytest.raises(KeyError):
        sit.sweep(MODELS / "hoop.sit", {"mm": [1, 2]}, 0.01, 1)
    r = m.run(0.01, 0.1)
    with pytest.raises(KeyError, match="`Ay` was not recorded"):
        r["Ay"]


def test_values_that_cannot_be_set():
    m = sit.load(MODELS / "hoop.sit")
    with pytest.raises(sit.SitError, match="`contact` is a pred"):
        m["contact"] = 1.0
    with pytest.raises(sit.SitError, match="params: `contact` is a pred"):
        sit.sweep(MODELS / "hoop.sit", {"contact": [0, 1]}, 0.01, 1)
    with pytest.raises(sit.SitError, match="inputs\\[.h.\\]: `h` is a state"):
        m.run(0.01, 1, inputs={"h": ([0, 1], [0, 1])})


def test_nan_and_out_of_range_values():
    m = sit.load(MODELS / "hoop.sit")
    with pytest.raises(ValueError, match="`m` = NaN: expected a finite number"):
        m["m"] = math.nan
    with pytest.raises(ValueError, match="expected a finite number"):
        m.run(0.01, 1, set={"g": math.inf})
    with pytest.raises(ValueError, match="expected a finite number"):
        sit.sweep(MODELS / "hoop.sit", {"m": [1.0, math.nan]}, 0.01, 1)
    with pytest.raises(ValueError, match="dt must be a finite number > 0, not 0"):
        m.run(0, 1)
    with pytest.raises(ValueError, match="t_end must be"):
        m.run(0.1, -1)
    with pytest.raises(ValueError, match="dt must be"):
        m.step(-0.1)
    with pytest.raises(ValueError, match="every must be at least 1"):
        m.run(0.1, 1, every=0)
    with pytest.raises(ValueError, match="summary \"avg\""):
        sit.sweep(MODELS / "hoop.sit", {"m": [1.0]}, 0.01, 1, summary="avg")


def test_bad_time_series():
    m = sit.load(MODELS / "cart_pendulum.sit")
    with pytest.raises(ValueError, match="time \\[2\\] = 0.5 is before the time 1"):
        m.run(0.01, 1, inputs={"F_ext": ([0, 1, 0.5], [0, 1, 2])})
    with pytest.raises(ValueError, match="value \\[1\\] is NaN"):
        m.run(0.01, 1, inputs={"F_ext": (np.array([0.0, 1.0]), np.array([0.0, np.nan]))})
    with pytest.raises(sit.SitError, match="`F_ext` is driven by inputs"):
        m.run(0.01, 1, inputs={"F_ext": ([0], [1])}, set={"F_ext": 2})


def test_wrong_types():
    m = sit.load(MODELS / "hoop.sit")
    with pytest.raises(TypeError):
        m["h"] = "high"
    with pytest.raises(TypeError):
        m.run("0.01", 1)
    with pytest.raises(TypeError):
        m.run(0.01, 1, set={"h": [1, 2]})
    with pytest.raises(TypeError):
        sit.load(42)


def test_a_panic_becomes_a_sit_error():
    with pytest.raises(sit.SitError, match="internal error .*a deliberate panic"):
        sit._sit._panic_inside_guard()


PHASE_LIMIT = """model Count { output real x; x = integral(1); }
model PhaseLimit {
    param target = 1e6;
    output real took;
    phase count: Count step 0.1 limit 100 until count.x >= target;
    event go = time >= 0.5;
    when go => run(count);
    took = count.time;
}
"""


def test_a_fault_of_the_model_is_a_model_fault(tmp_path):
    path = tmp_path / "limit.sit"
    path.write_text(PHASE_LIMIT)
    m = sit.load(path)
    message = (
        "phase `count` of `PhaseLimit` did not end within its limit of 100 steps "
        "(run at t = 0.5)"
    )
    with pytest.raises(sit.ModelFault) as err:
        m.run(0.25, 1)
    assert str(err.value) == message
    assert (err.value.model, err.value.time, err.value.kind) == (
        "PhaseLimit",
        0.5,
        "phase_overrun",
    )
    assert isinstance(err.value, sit.SitError)
    # The same fault from a step, and from a sweep (on the workers).
    m.reset()
    m.step(0.25)
    m.step(0.25)
    with pytest.raises(sit.ModelFault, match="did not end within its limit"):
        m.step(0.25)
    with pytest.raises(sit.ModelFault, match="did not end within its limit"):
        sit.sweep(path, {"target": [1, 1e6]}, 0.25, 1)
