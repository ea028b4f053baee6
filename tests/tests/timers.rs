//! Exact timers: `timer(c)` counts whole steps, so a phase of T seconds lasts exactly
//! ⌈T/dt⌉ steps (decimal T and dt), with no drift over many cycles: the traffic light of
//! the library (green 10 s, yellow 8 s, red 2 s) for several steps.
//!
//! The expected lengths are integer arithmetic on the decimals, independent of the
//! runtime; compiled ≡ interpreted is held by `bit_identity.rs` (the model is in the
//! library) and the batch form by `examples/batch`.

use sit_runtime::Model;
use sit_tests::models::{get, load};

/// `⌈T/dt⌉` for `T = t` s and `dt = m·10^-k` s: `⌈t·10^k / m⌉`.
fn steps(t: u64, m: u64, k: u32) -> u64 {
    (t * 10u64.pow(k)).div_ceil(m)
}

/// The lengths, in steps, of the phases that ended in `n` steps of `dt`.
fn phase_lengths(dt: f64, n: usize) -> Result<Vec<(u8, u64)>, String> {
    let mut m = load("traffic.sit", "Traffic")?;
    let mut out = Vec::new();
    let (mut phase, mut since) = (get(&m, "phase")?, 0u64);
    for _ in 0..n {
        m.step(dt);
        since += 1;
        let now = get(&m, "phase")?;
        if now != phase {
            out.push((phase as u8, since));
            (phase, since) = (now, 0);
        }
    }
    Ok(out)
}

#[test]
fn phases_last_whole_steps_as_documented() -> Result<(), String> {
    // (dt as m·10^-k, the text, phases per run)
    for (m, k) in [(1, 1), (3, 1), (5, 2), (25, 2), (1, 3), (7, 1)] {
        let dt: f64 = format!("{m}e-{k}").parse().unwrap();
        let want = [
            (0, steps(10, m, k)),
            (1, steps(8, m, k)),
            (2, steps(2, m, k)),
        ];
        let cycle: u64 = want.iter().map(|w| w.1).sum();
        // Ten whole cycles: no phase drifts by a step, however long the run.
        let got = phase_lengths(dt, (10 * cycle) as usize)?;
        assert_eq!(got.len(), 30, "dt = {dt}: {got:?}");
        for (i, g) in got.iter().enumerate() {
            assert_eq!(*g, want[i % 3], "dt = {dt}, phase {i}");
        }
    }
    // The documented cases: 100 steps of 0.1 and 34 of 0.3 for the 10 s green.
    assert_eq!((steps(10, 1, 1), steps(10, 3, 1)), (100, 34));
    Ok(())
}

#[test]
fn a_timer_reads_the_time_the_condition_held() -> Result<(), String> {
    let mut m = load("traffic.sit", "Traffic")?;
    for _ in 0..70 {
        m.step(0.1);
    }
    assert_eq!(get(&m, "green_for")?, 7.0);
    assert_eq!((get(&m, "yellow_for")?, get(&m, "red_for")?), (0.0, 0.0));
    // A summed clock would read 6.999999999999991 here.
    assert_eq!(m.time(), 7.0);
    m.reset();
    assert_eq!(get(&m, "green_for")?, 0.0);
    Ok(())
}
