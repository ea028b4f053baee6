//! The cart between two limiters: the `stop` event and the `standing` situation.

use sit_runtime::Model;
use sit_tests::models::{get, load};

#[test]
fn stop_event_and_standing_situation() -> Result<(), String> {
    let mut m = load("cart_limiters.sit", "CartLimiters")?;
    let (x_left, x_right) = (get(&m, "X_left")?, get(&m, "X_right")?);
    let dt = 1e-3;
    let (mut standing_steps, mut releases, mut impacts) = (0, 0, 0);
    let mut after_stop: Option<(f64, f64)> = None; // (limiter, X at the stop)
    for _ in 0..12_000 {
        // What the event and the situation read: the state at the step's start.
        let (x0, v0, f0) = (get(&m, "X")?, get(&m, "V")?, get(&m, "F")?);
        m.step(dt);
        let (x, v) = (get(&m, "X")?, get(&m, "V")?);
        let (stop, standing) = (get(&m, "stop")? == 1.0, get(&m, "standing")? == 1.0);
        assert!(x_left <= x && x <= x_right, "passed a limiter: X = {x}");
        // The step after a stop: the cart moves off, away from the limiter.
        if let Some((limiter, x_stop)) = after_stop.take() {
            assert!(
                (x - x_stop) * (0.0 - limiter) > 0.0,
                "did not move off: X = {x}"
            );
        }
        if stop {
            // The force points away from the limiter the cart is at...
            let at_right = x0 >= x_right;
            assert!(
                at_right || x0 <= x_left,
                "stop away from the limiters: X = {x0}"
            );
            assert!(if at_right { f0 < 0.0 } else { f0 > 0.0 }, "F = {f0}");
            // ...the cart stops instantly, without moving in this step.
            assert_eq!((v, x), (0.0, x0), "did not stop");
            if v0 == 0.0 {
                releases += 1
            } else {
                impacts += 1
            }
            after_stop = Some((if at_right { 1.0 } else { -1.0 }, x));
        }
        // `standing` is read after the step with the new F; check the rules
        // with what they saw: at a limiter, pushed into it.
        let held = (x0 >= x_right && f0 > 0.0) || (x0 <= x_left && f0 < 0.0);
        if held {
            assert_eq!((v, x), (0.0, x0), "not held at the limiter");
            standing_steps += 1;
        }
        // Read after the step, the situation reflects the state then.
        let f = get(&m, "F")?;
        let pressed = (x >= x_right && f > 0.0) || (x <= x_left && f < 0.0);
        assert_eq!(standing, pressed, "standing misread at X = {x}, F = {f}");
    }
    // The scenario of the model's doc: the cart stands at the right limiter
    // from t ≈ 0.8 s to 1 s (about 190 steps), is released there, and hits
    // the limiters later with the force pointing back.
    assert!(
        standing_steps > 100,
        "standing for only {standing_steps} steps"
    );
    assert!(releases >= 1, "no release after standing");
    assert!(impacts >= 3, "only {impacts} impacts");
    Ok(())
}

#[test]
fn standing_situation_is_visible_and_lasts() -> Result<(), String> {
    let mut m = load("cart_limiters.sit", "CartLimiters")?;
    let x_right = get(&m, "X_right")?;
    let mut first = None;
    let mut last = None;
    for _ in 0..1500 {
        m.step(1e-3);
        if get(&m, "standing")? == 1.0 {
            first.get_or_insert(m.time());
            last = Some(m.time());
            assert_eq!(
                get(&m, "X")?,
                x_right,
                "standing away from the right limiter"
            );
        }
    }
    let (first, last) = (
        first.ok_or("never standing")?,
        last.ok_or("never standing")?,
    );
    // It stands while the first positive half-wave of F (period 2 s) pushes
    // it right, that is until t = 1 s, to the step (1e-3 s).
    assert!((0.7..0.95).contains(&first), "standing from {first}");
    assert!((last - 1.0).abs() <= 1.5e-3, "standing until {last}");
    Ok(())
}
