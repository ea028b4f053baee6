//! The library's models of the FMI Reference FMUs against the FMUs' published results.
//!
//! The FMUs integrate with fixed-step forward Euler and handle events after
//! each step; the `.sit` models do the same operations in the same order, so
//! every row must agree to rounding.

use sit_runtime::Model;
use sit_tests::models::{get, load};
use sit_tests::oracle::{Table, reference_fmu};

/// Relative agreement required of every value: the README of the oracles
/// says the same scheme reproduces the results "to rounding (relative 1e-12;
/// the C build may contract multiply-adds)". A few ulps per step, over the
/// at most 3000 steps here, stay far below 1e-12 on these stable systems.
const REL: f64 = 1e-12;

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= REL * a.abs().max(b.abs())
}

/// Runs `model` with step `dt`, `every` steps per row, and compares each
/// column of `table` (the column `time` with the model's clock).
fn compare(model: &mut dyn Model, table: &Table, dt: f64, every: usize) -> Result<(), String> {
    for (r, row) in table.rows.iter().enumerate() {
        if r > 0 {
            for _ in 0..every {
                model.step(dt);
            }
        }
        for (c, name) in table.columns.iter().enumerate() {
            let ours = if name == "time" {
                model.time()
            } else {
                get(model, name)?
            };
            if !close(ours, row[c]) {
                return Err(format!(
                    "row {r} (t = {}): {name} = {ours:e}, the FMU has {:e}",
                    row[0], row[c]
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn dahlquist() -> Result<(), String> {
    let table = reference_fmu("Dahlquist")?;
    assert_eq!(table.rows.len(), 101, "t = 0, 0.1, ..., 10");
    let mut m = load("dahlquist.sit", "Dahlquist")?;
    compare(&mut m, &table, 0.1, 1)
}

#[test]
fn van_der_pol() -> Result<(), String> {
    let table = reference_fmu("VanDerPol")?;
    assert_eq!(table.rows.len(), 2001, "t = 0, 0.01, ..., 20");
    let mut m = load("van_der_pol.sit", "VanDerPol")?;
    compare(&mut m, &table, 0.01, 1)
}

#[test]
fn bouncing_ball() -> Result<(), String> {
    let table = reference_fmu("BouncingBall")?;
    assert_eq!(table.rows.len(), 301, "t = 0, 0.01, ..., 3");
    let mut m = load("bouncing_ball.sit", "BouncingBall")?;
    // Internal step 0.001, a row every 0.01.
    compare(&mut m, &table, 0.001, 10)?;
    // The run reaches the end state: at rest on the floor, gravity off.
    assert_eq!((get(&m, "v")?, get(&m, "g")?), (0.0, 0.0));
    Ok(())
}

#[test]
fn stair() -> Result<(), String> {
    let table = reference_fmu("Stair")?;
    // The FMU terminates when the counter reaches 10, at t = 9.
    assert_eq!(table.rows.len(), 46, "t = 0, 0.2, ..., 9");
    let mut m = load("stair.sit", "Stair")?;
    compare(&mut m, &table, 0.2, 1)?;
    assert_eq!(get(&m, "finished")?, 1.0, "the FMU's end condition");
    Ok(())
}

#[test]
fn stair_is_robust_to_the_step() -> Result<(), String> {
    // With a step that does not divide 1 exactly in binary (0.1), the
    // accumulated clock drifts from n·0.1; the counter must still step up
    // once per second, at the step ending nearest to each whole second.
    let mut m = load("stair.sit", "Stair")?;
    for n in 1..=95 {
        m.step(0.1);
        let expected = 1.0 + (n / 10) as f64;
        assert_eq!(get(&m, "counter")?, expected, "after step {n}");
    }
    Ok(())
}

// The oracle reader's own cases (`sit_tests::oracle`, a library built without a test
// harness: see tests/Cargo.toml).

#[test]
fn parses_header_and_rows() {
    let t = Table::parse("time,x\n0,1\n0.1,0.9\n").unwrap();
    assert_eq!(t.columns, ["time", "x"]);
    assert_eq!(t.rows, [vec![0.0, 1.0], vec![0.1, 0.9]]);
    assert_eq!(t.column("x"), Ok(1));
    assert!(t.column("y").is_err());
}

#[test]
fn rejects_ragged_rows_and_bad_numbers() {
    assert!(Table::parse("a,b\n1\n").is_err());
    assert!(Table::parse("a\nx\n").is_err());
    assert!(Table::parse("").is_err());
}
