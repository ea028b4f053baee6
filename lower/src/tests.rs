//! Tests of the lowering: the variable list, reads through submodels, procedures, limits.

use super::*;
use crate::ir::Program;

fn program(src: &str) -> Program {
    let out = crate::check_source("t.sit", src);
    assert!(!out.has_errors(), "{}", out.render());
    out.program.expect("checks")
}

const TWO: &str = "model Leaf {
    param g = 1;
    param g2 = 2 * g;
    input real u = 1;
    output real y;
    output pred big = y > g2;
    output event e = y > 2;
    y = lag(u, 1);
}
model Top {
    sub a: Leaf(g = 3);
    flag f;
    real d;
    when a.big => f;
    d = deriv(a.y) when a.e;
}";

#[test]
fn the_variable_list_follows_the_contract() {
    let p = program(TWO);
    let top = p.model("Top").unwrap();
    let vars = variables(&p, top).unwrap();
    let got: Vec<(&str, Access, usize)> = vars
        .iter()
        .map(|e| (e.name.as_str(), e.access, e.path.len()))
        .collect();
    assert_eq!(
        got,
        [
            ("f", Access::Settable, 0),
            ("d", Access::Settable, 0),
            ("a.on", Access::Settable, 0),
            ("a.g", Access::Bound, 1),
            ("a.g2", Access::Derived, 1),
            ("a.u", Access::Settable, 1),
            ("a.y", Access::Settable, 1),
            ("a.big", Access::Computed, 1),
            ("a.e", Access::Computed, 1),
        ]
    );
}

#[test]
fn conditions_and_derived_params_of_submodels_are_inlined_through_them() {
    let p = program(TWO);
    let top = p.model("Top").unwrap();
    let a = |slot| Place {
        path: vec![0],
        slot,
    };
    let inlined = model(
        &Lowered::new(&p, Default::default()).unwrap(),
        top,
        Reads::Inline,
    )
    .unwrap();
    let Stmt::If { cond, .. } = &inlined.body[0] else {
        panic!("{:?}", inlined.body[0]);
    };
    // `a.big` is `y > g2` in `a`, and `g2` is `2 * g` there.
    let expected = Term::Cmp(
        ir::CmpOp::Gt,
        Box::new(Term::Read(a(Slot::Var(3)))),
        Box::new(Term::Arith(
            ir::ArithOp::Mul,
            Box::new(Term::Num(2.0)),
            Box::new(Term::Read(a(Slot::Var(0)))),
        )),
    );
    assert_eq!(cond, &expected);
    let named = model(
        &Lowered::new(&p, Default::default()).unwrap(),
        top,
        Reads::Named,
    )
    .unwrap();
    let Stmt::If { cond, then, .. } = &named.body[0] else {
        panic!("{:?}", named.body[0]);
    };
    assert_eq!(cond, &Term::Cond(vec![0], 0));
    assert!(matches!(then[..], [Stmt::SetFlag { value: true, .. }]));
    // The guarded `deriv` rule reads the event of `a` and owns memory 0.
    let Stmt::If { cond, then, .. } = &named.body[1] else {
        panic!("{:?}", named.body[1]);
    };
    assert_eq!(cond, &Term::Read(a(Slot::Event(0))));
    let [Stmt::Assign(d)] = &then[..] else {
        panic!("{then:?}")
    };
    assert_eq!(d.proc, Proc::Deriv { mem: 0 });
    assert_eq!(d.operands, [Term::Read(a(Slot::Var(3)))]);
}

#[test]
fn procedures_know_their_runtime_call() {
    let p = program(TWO);
    let leaf = model(
        &Lowered::new(&p, Default::default()).unwrap(),
        p.model("Leaf").unwrap(),
        Reads::Inline,
    )
    .unwrap();
    let Stmt::Assign(lag) = &leaf.body[0] else {
        panic!("{:?}", leaf.body[0]);
    };
    assert_eq!(lag.proc, Proc::Lag);
    assert_eq!(lag.proc.runtime(), Some("lag"));
    assert!(lag.proc.reads_target() && lag.proc.takes_dt());
    // `lag(u, 1)`: the gain defaults to 1.
    assert_eq!(lag.operands[1..], [Term::Num(1.0), Term::Num(1.0)]);
    assert!(!Proc::Hysteresis.takes_dt() && Proc::Hysteresis.reads_target());
    assert_eq!(Proc::Deriv { mem: 0 }.runtime(), None);
    // Construction: free params and inputs; reset: states; derived params have neither.
    let defaults: Vec<usize> = leaf.defaults.iter().map(|i| i.var).collect();
    assert_eq!(defaults, [0, 2]);
    assert_eq!(leaf.inits.iter().map(|i| i.var).collect::<Vec<_>>(), [3]);
}

#[test]
fn inlining_that_doubles_at_each_level_is_an_error_not_a_hang() {
    let mut src = String::from("model M {\n    param p0 = 1;\n");
    for i in 1..40 {
        src.push_str(&format!("    param p{i} = p{} + p{};\n", i - 1, i - 1));
    }
    src.push_str("    real x;\n    x = p39;\n}\n");
    let p = program(&src);
    let err = model(
        &Lowered::new(&p, Default::default()).unwrap(),
        0,
        Reads::Inline,
    )
    .unwrap_err();
    assert!(matches!(err, LowerError::TooLarge(_)), "{err}");
    // Read through their accessors, they stay small.
    assert!(
        model(
            &Lowered::new(&p, Default::default()).unwrap(),
            0,
            Reads::Named
        )
        .is_ok()
    );
}
