//! `include_model!(PATH, method = rk4, batch)`: the pendulum integrated by `rk4`, scalar
//! and batch, against the interpreter with the same override, bit for bit.

use embed_macro::pendulum_rk4::{Pendulum, PendulumBatch};
use sit_runtime::Model;

#[test]
fn the_macro_passes_the_method_through() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/pendulum.sit");
    let mut program = sit_middle::check_file(path).unwrap().program.unwrap();
    program.set_method(sit_middle::ir::Method::Rk4).unwrap();
    let root = program.model("Pendulum").unwrap();
    let mut interp = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    );
    let mut scalar = Pendulum::new();
    let mut batch = PendulumBatch::<4>::splat(&scalar);
    // The stage memories are hidden states of the generated code: after the variables,
    // out of the names `get` knows.
    assert!(scalar.get("angle_rk4_k4").is_none());
    assert!(scalar.hidden_index("angle_rk4_k4").unwrap() >= scalar.var_count());
    for _ in 0..500 {
        scalar.step(0.01);
        interp.step(0.01);
        batch.step(0.01);
    }
    let lane = batch.lane(2).unwrap();
    for i in 0..scalar.var_count() + scalar.hidden_count() {
        let (a, b) = (scalar.get_at(i).unwrap(), interp.get_at(i).unwrap());
        assert_eq!(a.to_bits(), b.to_bits(), "variable #{i}");
        assert_eq!(a.to_bits(), lane.get_at(i).unwrap().to_bits(), "lane, #{i}");
    }
}

#[test]
fn the_macro_passes_dopri5_and_its_tolerances_through() {
    use embed_macro::pendulum_dopri5::Pendulum as Adaptive;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/pendulum.sit");
    let mut program = sit_middle::check_file(path).unwrap().program.unwrap();
    let tol = sit_middle::ir::Tolerance {
        rtol: 1e-9,
        atol: 1e-12,
    };
    program
        .set_method(sit_middle::ir::Method::Dopri5(tol))
        .unwrap();
    let root = program.model("Pendulum").unwrap();
    let mut interp = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    );
    let mut scalar = Adaptive::new();
    assert!(scalar.hidden_index("angle_dopri5_k7").is_some());
    for _ in 0..50 {
        scalar.step(0.1);
        interp.step(0.1);
    }
    for i in 0..scalar.var_count() + scalar.hidden_count() {
        let (a, b) = (scalar.get_at(i).unwrap(), interp.get_at(i).unwrap());
        assert_eq!(a.to_bits(), b.to_bits(), "variable #{i}");
    }
}
