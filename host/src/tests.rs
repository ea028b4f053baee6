//! Unit tests of the host layer on small inline models.

use crate::inputs::{InputProblem, drivable, driven, input_index};
use crate::names::{RecordError, hint, index, record_list};
use crate::study::{Ask, Study, StudyError};
use crate::summary::Summary;
use crate::values::{SetProblem, run_failed, settable, target};
use sit_interp::Instance;
use sit_runtime::Model;
use sit_runtime::drive::Driven;
use sit_runtime::signal::OwnedSignal;

const PLANT: &str = "
model Pi {
    param kp = 2;
    input real e;
    output real u;
    u = kp * e;
}
model Plant {
    param k = 1.5, k2 = 2 * k;
    input real load;
    input flag open;
    output real x = 1, y;
    real z;
    flag hot;
    sub pi: Pi(e = x);
    when x > 3 => hot;
    y = x * 2;
    z = y;
    x = integral(k - load);
}
";

fn plant() -> Instance {
    let out = sit_middle::check_source("plant.sit", PLANT);
    assert!(!out.has_errors(), "{}", out.render());
    let p = out.program.expect("checked program");
    let lowered = sit_middle::lower::Lowered::new(&p, Default::default()).expect("lowers");
    Instance::new(&lowered, p.model("Plant").expect("root"))
}

fn names(m: &Instance, list: &[usize]) -> Vec<String> {
    list.iter()
        .map(|&i| m.var_info(i).unwrap().name.to_string())
        .collect()
}

#[test]
fn hints_suggest_near_names_and_inner_paths() {
    let m = plant();
    assert_eq!(hint(&m, "kq"), "; did you mean `k`?");
    assert_eq!(hint(&m, "kp"), "; did you mean `pi.kp`?");
    assert_eq!(hint(&m, "completely_else"), "");
    assert_eq!(
        index(&m, "x"),
        m.var_index("x").ok_or_else(|| unreachable!())
    );
    assert_eq!(
        index(&m, "kp").unwrap_err().to_string(),
        "no variable named `kp`; did you mean `pi.kp`?"
    );
}

#[test]
fn record_lists_take_names_globs_and_all() {
    let m = plant();
    let list = |names: &[&str]| record_list(&m, Some(names));
    assert_eq!(
        names(&m, &record_list::<&str>(&m, None).unwrap()),
        ["x", "y"]
    );
    assert_eq!(list(&["all"]).unwrap().len(), m.var_count());
    assert_eq!(names(&m, &list(&["y", "x", "y"]).unwrap()), ["y", "x"]);
    assert_eq!(
        names(&m, &list(&["pi.*"]).unwrap()),
        ["pi.on", "pi.kp", "pi.e", "pi.u"]
    );
    assert_eq!(names(&m, &list(&["k?"]).unwrap()), ["k2"]);
    assert_eq!(list(&["q*"]), Err(RecordError::NoMatch("q*".to_string())));
    assert_eq!(
        list(&["x", "yy"]).unwrap_err().to_string(),
        "no variable named `yy`; did you mean `y`?"
    );
}

#[test]
fn values_name_settable_variables() {
    let m = plant();
    let load = m.var_index("load").unwrap();
    let series = OwnedSignal::new(vec![0.0, 1.0], vec![0.0, 1.0]).unwrap();
    let driven_model = Driven::new(m.clone(), vec![driven(load, false, series).unwrap()]);
    assert_eq!(target(&driven_model, "k"), Ok(m.var_index("k").unwrap()));
    assert_eq!(target(&driven_model, "load"), Err(SetProblem::Driven));
    assert!(matches!(
        target(&driven_model, "kk"),
        Err(SetProblem::Unknown(u)) if u.hint == "; did you mean `k`?"
    ));
    // A derived param is computed, a bound input is bound: the model's own reasons.
    let Err(SetProblem::Refused(why)) = settable(&driven_model, "k2") else {
        panic!("k2 is derived");
    };
    assert!(why.contains("`k2`"), "{why}");
    assert!(matches!(
        settable(&driven_model, "pi.e"),
        Err(SetProblem::Refused(_))
    ));
    assert_eq!(settable(&driven_model, "x"), Ok(m.var_index("x").unwrap()));
}

#[test]
fn inputs_are_checked_by_kind() {
    let m = plant();
    assert_eq!(drivable(&m), ["load", "open"]);
    assert_eq!(
        input_index(&m, "load"),
        Ok((m.var_index("load").unwrap(), false))
    );
    assert_eq!(
        input_index(&m, "open"),
        Ok((m.var_index("open").unwrap(), true))
    );
    assert_eq!(input_index(&m, "nothing"), Err(InputProblem::Unknown));
    assert_eq!(
        input_index(&m, "k"),
        Err(InputProblem::NotAnInput {
            is: "a param".into()
        })
    );
    assert_eq!(
        input_index(&m, "pi.on"),
        Err(InputProblem::NotAnInput {
            is: "a submodel's on state".into()
        })
    );
    assert!(matches!(
        input_index(&m, "pi.e"),
        Err(InputProblem::NotSettable(_))
    ));
    let open = m.var_index("open").unwrap();
    let half = OwnedSignal::new(vec![0.0], vec![0.5]).unwrap();
    assert!(driven(open, true, half).is_err());
}

fn study(
    m: &Instance,
    axes: &[(String, Vec<f64>)],
    fixed: &[(String, f64)],
    record: Option<&[&str]>,
    summaries: &[&str],
) -> Result<Study, StudyError> {
    let summaries = Summary::parse_all(summaries.iter().copied()).unwrap();
    let model = Driven::new(m.clone(), Vec::new());
    Study::new(
        &model,
        &Ask {
            axes,
            fixed,
            record,
            summaries: &summaries,
            dt: 0.5,
            steps: 4,
        },
    )
}

#[test]
fn a_study_has_its_grid_and_columns() {
    let m = plant();
    let (k, x) = (m.var_index("k").unwrap(), m.var_index("x").unwrap());
    let axes = [
        ("k".to_string(), vec![1.0, 2.0]),
        ("x".to_string(), vec![0.0, 5.0, 6.0]),
    ];
    let s = study(
        &m,
        &axes,
        &[("load".into(), 0.5)],
        Some(&["x", "y"]),
        &["final", "max", "first-crossing(y)=4", "first-crossing=4"],
    )
    .unwrap();
    assert_eq!(
        s.columns,
        [
            "k",
            "x",
            "final(x)",
            "max(x)",
            "crossing(x=4)",
            "final(y)",
            "max(y)",
            "crossing(y=4)"
        ]
    );
    assert_eq!(s.axes(), 2);
    assert_eq!(s.sets.len(), 6);
    let load = m.var_index("load").unwrap();
    assert_eq!(s.sets[1], [(k, 1.0), (x, 5.0), (load, 0.5)]);
    let model = Driven::new(m.clone(), Vec::new());
    let rows = s.sweep.run(&model, &s.sets).unwrap();
    // x = x0 + (k − 0.5)·t; y = 2x of the step before (its rule precedes x's integral),
    // 2·x(t − dt) after the first step. For k = 2, x0 = 0: x = 1.5·t reaches 4 at t = 8/3
    // (after the run's 2 s: NaN), y = 3·(t − 0.5) at t = 0.5 + 4/3, on the line between
    // the rows of t = 1.5 and 2, exact for a line.
    let row = &rows[3];
    assert_eq!(row[..2], [3.0, 3.0]);
    assert!(row[2].is_nan());
    assert!((row[5] - (0.5 + 4.0 / 3.0)).abs() < 1e-15, "{row:?}");
}

#[test]
fn studies_refuse_what_cannot_be_run() {
    let m = plant();
    let axis = |n: &str| vec![(n.to_string(), vec![1.0])];
    let err = |r: Result<Study, StudyError>| r.unwrap_err();
    assert_eq!(
        err(study(&m, &axis("kk"), &[], None, &["final"])).to_string(),
        "no variable named `kk`; did you mean `k`?"
    );
    let twice = [("k".to_string(), vec![1.0]), ("k".to_string(), vec![2.0])];
    assert_eq!(
        err(study(&m, &twice, &[], None, &["final"])),
        StudyError::AxisTwice("k".into())
    );
    assert_eq!(
        err(study(
            &m,
            &axis("k"),
            &[("k".into(), 1.0)],
            None,
            &["final"]
        )),
        StudyError::FixedIsAxis("k".into())
    );
    assert!(matches!(
        err(study(&m, &axis("k2"), &[], None, &["final"])),
        StudyError::Axis(n, SetProblem::Refused(_)) if n == "k2"
    ));
    assert_eq!(
        err(study(&m, &axis("k"), &[], None, &["first-crossing(z)=1"])).to_string(),
        "`z` is not recorded (the recorded variables are `x`, `y`); record it too"
    );
    assert_eq!(
        err(study(&m, &axis("k"), &[], None, &["first-crossing(yy)=1"])).to_string(),
        "no variable named `yy`; did you mean `y`?"
    );
    assert_eq!(
        err(study(&m, &axis("k"), &[], Some(&["w*"]), &["final"])),
        StudyError::Record(RecordError::NoMatch("w*".into()))
    );
}

#[test]
fn a_failed_run_names_its_set() {
    let m = plant();
    let k = m.var_index("k").unwrap();
    let mut copy = m.clone();
    let e = copy.set_at(m.var_index("k2").unwrap(), 1.0).unwrap_err();
    let text = run_failed(&m, &[(k, 2.0), (m.var_index("x").unwrap(), 0.5)], &e);
    assert!(text.starts_with("the run with k=2 x=0.5: "), "{text}");
    assert!(text.contains("`k2`"), "{text}");
}
