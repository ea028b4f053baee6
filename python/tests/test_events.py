"""`Model.run(events=True)`: the event log, against the physics of the thermostat and
against `sitc run --events`, row for row, on every library model."""

import csv
import math

import pytest

import sit
from conftest import MODELS, library, same_bits

THERMOSTAT = MODELS / "thermostat.sit"


def line_of(path, text):
    """The line number of the first line of `path` containing `text`."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def next_switch(m, T, heating):
    """How long the thermostat takes from the temperature `T` to its next switch: the
    room tends exponentially (time constant C/k) to T_out + P_heater/k while heating,
    up to T_high, and to T_out while not, down to T_low."""
    tau = m["C"] / m["k"]
    if heating:
        target, threshold = m["T_out"] + m["P_heater"] / m["k"], m["T_high"]
    else:
        target, threshold = m["T_out"], m["T_low"]
    return tau * math.log((T - target) / (threshold - target))


@pytest.mark.parametrize("power", [6000.0, 9000.0])
def test_the_thermostat_switches_when_the_exponential_says(power):
    m = sit.load(THERMOSTAT)
    m["P_heater"] = power  # carried into the run built for the log
    dt = 1.0
    r = m.run(dt=dt, t_end=9000, record=["T", "heating"], events=True)
    log = [e for e in r.events if e[1] == "heating"]
    assert len(log) >= 5, log
    off = line_of(THERMOSTAT, "when T >= T_high")
    on = line_of(THERMOSTAT, "when T <= T_low")
    for i, (t, name, was, now, rule) in enumerate(log):
        assert (was, now) == (("1", "0") if i % 2 == 0 else ("0", "1")), log[i]
        assert rule == f"{THERMOSTAT}:{off if i % 2 == 0 else on}", rule
    # Each switch against the exponential from the previous one (from 12 °C, heating,
    # for the first), at the temperature the trace shows there. The σ rules stand
    # before `T = integral(dT)`, so they see a crossing in the step after it, and the
    # log's time is that step's end: between one and two steps late, give or take
    # forward Euler's drift over the interval (about t·dt/2τ, under 0.2 s here).
    start, T, heating = 0.0, 12.0, True
    for i, (t, *_rest) in enumerate(log):
        late = t - (start + next_switch(m, T, heating))
        assert dt - 0.2 <= late <= 2 * dt + 0.2, (i, t, late)
        start, T, heating = t, r["T"][round(t / dt)], not heating
    # The run built for the log took the power set on the model: same values.
    plain = m.run(dt=dt, t_end=9000, record=["T", "heating"])
    assert (plain.to_numpy() == r.to_numpy()).all()
    # The heater at each row is the log replayed: on until the first switch.
    for row_t, heating in zip(r.t, r["heating"]):
        switches = sum(1 for e in log if e[0] <= row_t)
        assert heating == (1.0 if switches % 2 == 0 else 0.0), row_t


def test_without_events_there_is_no_log_and_the_values_are_the_same():
    m = sit.load(MODELS / "traffic_light.sit")
    plain = m.run(dt=0.5, t_end=120, record="all")
    logged = m.run(dt=0.5, t_end=120, record="all", events=True)
    assert plain.events is None
    assert logged.events, "the light changes"
    assert plain.columns == logged.columns
    for name in plain.columns:
        for a, b in zip(plain[name], logged[name]):
            assert same_bits(float(a), float(b)), name


@pytest.mark.parametrize("path", library(), ids=lambda p: p.stem)
def test_the_log_is_the_one_of_sitc_run_events(sitc_exe, sitc, tmp_path, path):
    log = tmp_path / "log.csv"
    sitc("run", path, "--dt", 0.01, "--t-end", 3, "--every", 50, "--events", log)
    with open(log, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["t", "name", "from", "to", "rule"]
    ours = sit.load(path).run(dt=0.01, t_end=3, every=50, events=True).events
    assert len(ours) == len(rows) - 1
    for (t, name, was, now, rule), row in zip(ours, rows[1:]):
        # Rust writes the shortest decimal that reads back to the same bits.
        assert (float(row[0]), row[1], row[2], row[3], row[4]) == (t, name, was, now, rule)
