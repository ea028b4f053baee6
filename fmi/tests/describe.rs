//! Snapshots of what `sitc fmu` writes (`modelDescription.xml`, the FMU crate's `lib.rs`)
//! and the rules behind them: fixed and tunable params, bound params of submodels,
//! start values, the GUID.

use sit_fmi::Access;
use sit_fmi::build::prepare;
use sit_fmi::describe::{Causality, Variability};
use std::path::{Path, PathBuf};

fn model(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
fn bouncing_ball_model_description() {
    let p = prepare(&model("examples/models/bouncing_ball.sit"), None, None).unwrap();
    insta::assert_snapshot!(p.description.xml());
    insta::assert_snapshot!(p.lib_rs().unwrap());
    // The `State` impls appended to the generated code.
    let model_rs = p.model_rs().unwrap();
    assert!(model_rs.starts_with(&p.code));
    insta::assert_snapshot!(&model_rs[p.code.len()..]);
}

#[test]
fn submodels_in_the_model_description() {
    let p = prepare(
        &model("examples/models/complex/coordinator.sit"),
        None,
        None,
    )
    .unwrap();
    insta::assert_snapshot!(p.description.xml());
    let var = |name: &str| {
        (p.description.variables.iter())
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    // A param the parent binds is not settable: a calculated parameter.
    let bound = var("p1.start");
    assert_eq!(bound.causality, Causality::CalculatedParameter);
    assert_eq!(bound.access, Access::Computed);
    assert_eq!(bound.start, None);
    // A parent param read by a param binding is fixed (bindings apply at reset).
    assert_eq!(var("start1").variability, Variability::Fixed);
    assert_eq!(var("start1").access, Access::Fixed);
    // A derived param is calculated.
    assert_eq!(var("d1").causality, Causality::CalculatedParameter);
}

#[test]
fn the_guid_follows_the_model_and_the_step() {
    let file = model("examples/models/bouncing_ball.sit");
    let a = prepare(&file, None, None).unwrap().description;
    let b = prepare(&file, None, None).unwrap().description;
    let c = prepare(&file, None, Some(0.002)).unwrap().description;
    assert_eq!(a.guid, b.guid);
    assert_ne!(a.guid, c.guid);
    assert_eq!(
        (a.dt, a.stop_time),
        (0.001, Some(3.0)),
        "from the documented run"
    );
    assert_eq!(c.dt, 0.002);
}

#[test]
fn params_are_fixed_when_initial_values_read_them() {
    let p = prepare(&model("examples/models/bouncing_ball.sit"), None, None).unwrap();
    let access: Vec<(&str, Access)> = (p.description.variables.iter())
        .map(|v| (v.name.as_str(), v.access))
        .collect();
    assert_eq!(
        access,
        [
            ("g0", Access::Fixed),  // g = g0
            ("e", Access::Tunable), // read by rules only
            ("v_min", Access::Tunable),
            ("h0", Access::Fixed),   // h = h0
            ("h", Access::Computed), // initial value h0: calculated
            ("v", Access::Start),    // initial value 0: a start value
            ("g", Access::Computed),
            ("der_h", Access::Start),
            ("der_v", Access::Start),
        ]
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.sit");
    std::fs::write(&bad, "model M { real x = 1; x = integral(y); }").unwrap();
    let e = prepare(&bad, None, None).unwrap_err().to_string();
    assert!(
        e.contains("bad.sit:1:") && e.contains("unknown name"),
        "{e}"
    );
    let e = prepare(&model("examples/models/hoop.sit"), Some("Nope"), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Nope"), "{e}");
    let e = prepare(&model("examples/models/hoop.sit"), None, Some(-1.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("> 0"), "{e}");
}

#[test]
fn the_method_is_passed_through() {
    use sit_fmi::build::prepare_with;
    use sit_middle::ir::Method;
    let file = model("examples/models/pendulum.sit");
    let euler = prepare_with(&file, None, None, None).unwrap();
    let rk4 = prepare_with(&file, None, None, Some(Method::Rk4)).unwrap();
    let names = |p: &sit_fmi::build::Prepared| -> Vec<String> {
        (p.description.variables.iter())
            .map(|v| v.name.clone())
            .collect()
    };
    // The stage memories are hidden states: fields of the code, saved in an FMU state
    // (the `State` impl written after the code), but no variables of the description.
    assert_eq!(names(&rk4), names(&euler));
    assert!(rk4.code.contains("angle_rk4_k4"));
    let saves = |p: &sit_fmi::build::Prepared, field: &str| -> bool {
        let model_rs = p.model_rs().unwrap();
        model_rs[p.code.len()..].contains(&format!("::sit_fmi::State::save(&self.{field}, out);"))
    };
    for n in ["omega_rk4_y0", "omega_rk4_k4", "angle_rk4_k1"] {
        assert!(saves(&rk4, n), "{n} is not saved");
    }
    assert_ne!(euler.description.guid, rk4.description.guid);
    // dopri5 with its tolerances: its hidden states, the tolerance in the code.
    let tol = sit_middle::ir::Tolerance {
        rtol: 1e-7,
        atol: 1e-11,
    };
    let dopri5 = prepare_with(&file, None, None, Some(Method::Dopri5(tol))).unwrap();
    assert_eq!(names(&dopri5), names(&euler));
    for n in [
        "angle_dopri5_k7",
        "omega_dopri5_yc",
        "dopri5_steps",
        "dopri5_h",
    ] {
        assert!(saves(&dopri5, n), "{n} is not saved");
    }
    assert!(dopri5.code.contains("internal_steps_overrun"));
    assert!(dopri5.code.contains("1e-7") || dopri5.code.contains("0.0000001"));
    assert_ne!(rk4.description.guid, dopri5.description.guid);
    // A model whose rules do not split for the method is a located model error: the
    // stage rule `a = f` reads `f` before the rule computing it.
    let dir = tempfile::tempdir().unwrap();
    let spring = dir.path().join("spring.sit");
    std::fs::write(
        &spring,
        "model Spring {\n    param k = 4.0;\n    output real x = 1, v;\n    real a, f;\n    \
         a = f;\n    f = -k * x;\n    v = integral(a);\n    x = integral(v);\n}\n",
    )
    .unwrap();
    let e = prepare_with(&spring, None, None, Some(Method::Rk4))
        .unwrap_err()
        .to_string();
    assert!(e.contains("spring.sit:5:5") && e.contains("E0472"), "{e}");
}
