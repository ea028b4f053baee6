//! `include_model!(PATH, sensitivities = "...")`: the forward sensitivities compiled,
//! scalar and batch, against the interpreter with the same rewrite, bit for bit.

use sit_runtime::Model;

/// The interpreted instance of `file`'s root with the sensitivities to `wrt`, under
/// `method` when given.
fn interpreted(
    file: &str,
    method: Option<sit_middle::ir::Method>,
    wrt: &[&str],
) -> sit_interp::Instance {
    let path = format!("{}/../models/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut program = sit_middle::check_file(&path).unwrap().program.unwrap();
    if let Some(m) = method {
        program.set_method(m).unwrap();
    }
    let root = program.roots()[0];
    let wrt: Vec<String> = wrt.iter().map(|s| s.to_string()).collect();
    let (program, _) = sit_middle::lower::jacobian::sensitivity::add(&program, root, &wrt).unwrap();
    sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    )
}

/// Every variable and hidden state of `a` and `b`, bit for bit.
fn same(a: &dyn Model, b: &dyn Model, what: &str) {
    assert_eq!(a.var_count(), b.var_count());
    for i in 0..a.var_count() + a.hidden_count() {
        let (x, y) = (a.get_at(i).unwrap(), b.get_at(i).unwrap());
        assert_eq!(
            x.to_bits(),
            y.to_bits(),
            "{what}: variable #{i} ({x} vs {y})"
        );
    }
}

#[test]
fn pendulum_sensitivities_are_bit_identical_compiled_batch_and_interpreted() {
    use embed_macro::pendulum_sensitive::{Pendulum, PendulumBatch};
    let mut interp = interpreted(
        "pendulum.sit",
        Some(sit_middle::ir::Method::Rk4),
        &["L", "g", "angle0"],
    );
    let mut scalar = Pendulum::new();
    let mut batch = PendulumBatch::<4>::splat(&scalar);
    assert!(scalar.get("d(angle)/d(L)").is_some());
    assert_eq!(scalar.get("d(angle)/d(angle0)"), Some(1.0));
    for _ in 0..500 {
        scalar.step(0.01);
        interp.step(0.01);
        batch.step(0.01);
    }
    same(&scalar, &interp, "interpreted");
    same(&scalar, &batch.lane(2).unwrap(), "lane 2");
    assert!(scalar.get("d(omega)/d(g)").unwrap().abs() > 0.01);
}

#[test]
fn robertson_sensitivities_under_rodas4_are_bit_identical() {
    use embed_macro::robertson_sensitive::Robertson;
    let mut interp = interpreted("robertson.sit", None, &["k1", "k2", "k3"]);
    let mut scalar = Robertson::new();
    for _ in 0..200 {
        scalar.step(0.05);
        interp.step(0.05);
    }
    same(&scalar, &interp, "interpreted");
    assert!(scalar.get("d(y3)/d(k1)").unwrap() > 0.0);
}
