//! Every schematic of the library runs under every integration method: the generated
//! model orders its rules so that a method's stages (which evaluate the rules in the order
//! written) read nothing before it is computed, and the high-order methods agree.

use sit_middle::ir::Method;
use sit_runtime::Model;
use std::path::PathBuf;

/// The `.sch` files of `examples/schematics`, sorted.
fn library() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/schematics");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/schematics exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| sit_schematic::is_schematic(p))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    files
}

/// The speeds (`w_*`) of `path` after `steps` steps of `dt` under `method`.
fn speeds(path: &PathBuf, method: &str, dt: f64, steps: usize) -> Vec<(String, f64)> {
    let method = Method::from_name(method).expect("a method");
    let out = sit_driver::check_file(path).expect("readable");
    let mut program = (out.program.clone()).unwrap_or_else(|| panic!("{}", out.render()));
    program
        .set_method(method)
        .unwrap_or_else(|e| panic!("{} under {}: {e:?}", path.display(), method.name()));
    let lowered = sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers");
    let root = program.roots()[0];
    let mut m = sit_interp::Instance::new(&lowered, root);
    for _ in 0..steps {
        m.step(dt);
    }
    let all: Vec<(String, f64)> = sit_runtime::Variables::new(&m)
        .enumerate()
        .map(|(i, v)| (v.name.to_string(), m.get_at(i).unwrap_or(f64::NAN)))
        .collect();
    for (name, v) in &all {
        assert!(v.is_finite(), "{}: {name} = {v}", path.display());
    }
    // The root's outputs: the speeds and moments, not the methods' hidden memories.
    let outputs = m.root_outputs();
    (all.into_iter().enumerate())
        .filter(|(i, (n, _))| outputs.contains(i) && n.starts_with("w_"))
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn every_library_schematic_runs_under_every_method() {
    for path in library() {
        for method in ["euler", "rk4", "dopri5"] {
            speeds(&path, method, 1e-3, 200);
        }
    }
}

/// rk4 and dopri5 (tolerance 1e-6, 1e-9) integrate the same equations: over 0.2 s of
/// steps of 1 ms, far below the stiffest period (2π/√(c/J) ≈ 30 ms for the axle's
/// differential), their speeds agree to within 1e-4 relative (3.5e-5 seen, on the convoluted axle), where forward Euler's
/// first-order error is larger.
#[test]
fn rk4_and_dopri5_agree() {
    for path in library() {
        let a = speeds(&path, "rk4", 1e-3, 200);
        let b = speeds(&path, "dopri5", 1e-3, 200);
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            let scale = x.abs().max(y.abs()).max(1.0);
            assert!(
                (x - y).abs() <= 1e-4 * scale,
                "{}: {name}: rk4 {x}, dopri5 {y}",
                path.display()
            );
        }
    }
}
