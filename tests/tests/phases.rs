//! Instantaneous phases at run time: the duration read through `name.time`, and a phase
//! that does not end within its limit, which stops both back ends with the same message
//! (naming the phase, its model, the model's time and the number of steps).

use sit_runtime::Model;
use std::path::PathBuf;

use sit_tests::compiled;

fn interpreted() -> sit_interp::Instance {
    let path = PathBuf::from(env!("OUT_DIR")).join("random/random_phase_limit.sit");
    sit_host::load_file(&path, Some("PhaseLimit"))
        .map(|l| l.instance)
        .expect("the fixture checks")
}

fn compiled() -> Box<dyn Model> {
    let (_, _, make) = compiled::all()
        .into_iter()
        .find(|(stem, model, _)| *stem == "random_phase_limit" && *model == "PhaseLimit")
        .expect("the fixture is compiled");
    make()
}

/// The message of the fault of the model that stops `f`, if one does (any other panic
/// goes on unwinding).
fn fault_of(f: impl FnOnce()) -> Option<String> {
    sit_runtime::catch_fault(f)
        .err()
        .map(|fault| fault.to_string())
}

#[test]
fn a_phase_runs_to_its_end_within_one_step() {
    for mut m in [compiled(), Box::new(interpreted()) as Box<dyn Model>] {
        for _ in 0..3 {
            m.step(0.25);
        }
        // The phase ran in the step starting at t = 0.5: ten or eleven steps of 0.1
        // (0.1 added ten times is 0.9999999999999999, short of 1).
        let took = m.get("took").unwrap();
        let x = m.get("count.x").unwrap();
        assert!((1.0..1.1 + 1e-12).contains(&x), "count.x = {x}");
        // Its clock is exact (11 steps of 0.1 read 1.1, the double nearest 11 × 0.1),
        // while `x = integral(1)` sums the steps.
        assert_eq!(took, 1.1, "the phase's clock is its duration, n·h exactly");
        assert_eq!(m.time(), 0.75, "the parent's time advanced by one step");
    }
}

#[test]
fn a_phase_that_does_not_end_stops_both_back_ends_with_the_same_message() {
    let expected =
        "phase `count` of `PhaseLimit` did not end within its limit of 100 steps (run at t = 0.5)";
    let mut messages = Vec::new();
    for mut m in [compiled(), Box::new(interpreted()) as Box<dyn Model>] {
        m.set("target", 1000.0).unwrap();
        m.reset();
        m.step(0.25);
        m.step(0.25);
        messages.push(fault_of(|| m.step(0.25)));
    }
    for message in messages {
        assert_eq!(message.as_deref(), Some(expected));
    }
}
