//! A tiny hand-written `Model`, exercising the trait's provided methods, `SetError` and traces.

use sit_runtime::{
    Deriv, Model, SetError, ValueType, Var, VarInfo, VarKind, Variables, from_logical, integral,
    logical, rising,
};

/// What generated code would look like for
/// ```sit
/// model Toy {
///     param rate = 0.2;
///     output real s = 0.1;
///     flag q;
///     output pred contact = s > 0.25;
///     event bump = contact;
///     sub sub: Follower(u = s);   // Follower: input real u; real y; y = integral(u); real dy = deriv(y)
///     when bump => q;
///     s = integral(rate);
/// }
/// ```
#[derive(Debug)]
struct Toy {
    t: f64,
    rate: f64,
    s: f64,
    q: bool,
    contact: bool,
    bump: bool,
    bump_prev: bool,
    sub_on: bool,
    sub_u: f64,
    sub_y: f64,
    sub_dy: f64,
    sub_dy_mem: Deriv,
}

const fn info(name: &'static str, kind: VarKind, ty: ValueType, output: bool) -> VarInfo<'static> {
    let settable = matches!(kind, VarKind::Param | VarKind::State);
    VarInfo {
        name,
        kind,
        ty,
        output,
        settable,
    }
}

const VARS: [VarInfo<'static>; 9] = [
    info("rate", VarKind::Param, ValueType::Real, false),
    info("s", VarKind::State, ValueType::Real, true),
    info("q", VarKind::State, ValueType::Logical, false),
    info("contact", VarKind::Predicate, ValueType::Logical, true),
    info("bump", VarKind::Event, ValueType::Logical, false),
    info("sub.on", VarKind::SubmodelOn, ValueType::Logical, false),
    VarInfo {
        settable: false,
        ..info("sub.u", VarKind::Input, ValueType::Real, false)
    },
    info("sub.y", VarKind::State, ValueType::Real, false),
    info("sub.dy", VarKind::State, ValueType::Real, false),
];

impl Toy {
    fn new() -> Toy {
        Toy {
            t: 0.0,
            rate: 0.2,
            s: 0.1,
            q: false,
            contact: false,
            bump: false,
            bump_prev: false,
            sub_on: true,
            sub_u: 0.0,
            sub_y: 0.0,
            sub_dy: 0.0,
            sub_dy_mem: Deriv::new(),
        }
    }
}

impl Model for Toy {
    fn step(&mut self, dt: f64) {
        if self.sub_on {
            self.sub_u = self.s;
            self.sub_y = integral(self.sub_y, self.sub_u, dt);
            self.sub_dy = self.sub_dy_mem.next(self.sub_y, dt);
        }
        self.contact = self.s > 0.25;
        self.bump = rising(self.contact, &mut self.bump_prev);
        if self.bump {
            self.q = true;
        }
        self.s = integral(self.s, self.rate, dt);
        self.t += dt;
    }

    fn reset(&mut self) {
        *self = Toy {
            rate: self.rate,
            ..Toy::new()
        };
    }

    fn time(&self) -> f64 {
        self.t
    }

    fn var_count(&self) -> usize {
        VARS.len()
    }

    fn var_info(&self, index: usize) -> Option<VarInfo<'_>> {
        VARS.get(index).copied()
    }

    fn get_at(&self, index: usize) -> Option<f64> {
        Some(match index {
            0 => self.rate,
            1 => self.s,
            2 => logical(self.q),
            3 => logical(self.contact),
            4 => logical(self.bump),
            5 => logical(self.sub_on),
            6 => self.sub_u,
            7 => self.sub_y,
            8 => self.sub_dy,
            _ => return None,
        })
    }

    fn set_at(&mut self, index: usize, value: f64) -> Result<(), SetError<'static>> {
        match index {
            0 => self.rate = value,
            1 => self.s = value,
            2 => self.q = from_logical(index, value)?,
            3..=6 => return Err(SetError::not_settable(index, VARS[index].kind)),
            7 => self.sub_y = value,
            8 => self.sub_dy = value,
            _ => return Err(SetError::Unknown(Var::Index(index))),
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
fn csv(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

#[test]
fn var_index_and_get() {
    let toy = Toy::new();
    assert_eq!(toy.var_index("rate"), Some(0));
    assert_eq!(toy.var_index("sub.y"), Some(7));
    assert_eq!(toy.var_index("y"), None);
    assert_eq!(toy.var_index(""), None);
    assert_eq!(toy.get("s"), Some(0.1));
    assert_eq!(toy.get("sub.on"), Some(1.0));
    assert_eq!(toy.get("nope"), None);
    assert_eq!(toy.get_at(9), None);
    assert_eq!(toy.var_info(9), None);
}

#[test]
fn set_through_dyn_model() {
    let mut toy = Toy::new();
    let model: &mut dyn Model = &mut toy;
    model.set("rate", 0.5).unwrap();
    model.set("q", 1.0).unwrap();
    model.set("sub.y", -3.0).unwrap();
    assert_eq!(model.get("rate"), Some(0.5));
    assert_eq!(model.get("q"), Some(1.0));
    model.set("q", 0.0).unwrap();
    assert_eq!(model.get("q"), Some(0.0));
    assert_eq!(model.get("sub.y"), Some(-3.0));
}

#[test]
fn set_errors_name_the_variable() {
    let mut toy = Toy::new();
    let cases: [(&str, f64, &str); 7] = [
        ("x", 1.0, "no variable named `x`"),
        (
            "contact",
            1.0,
            "`contact` is a pred: it is computed from other variables and cannot be set",
        ),
        (
            "bump",
            0.0,
            "`bump` is an event: it is computed from other variables and cannot be set",
        ),
        ("q", 0.5, "`q` is logical: expected 0 or 1, got 0.5"),
        ("q", f64::NAN, "`q` is logical: expected 0 or 1, got NaN"),
        (
            "sub.u",
            2.0,
            "`sub.u` is an input: it is bound by its parent model and cannot be set",
        ),
        (
            "sub.on",
            0.0,
            "`sub.on` is a submodel's on state: it is switched by its parent model's rules and cannot be set",
        ),
    ];
    for (name, value, message) in cases {
        let err = toy.set(name, value).unwrap_err();
        assert_eq!(err.to_string(), message);
        assert_eq!(err.var(), Var::Name(name));
    }
    // A failed set leaves the model unchanged.
    assert_eq!(toy.get("q"), Some(0.0));

    // set_at names the variable by index.
    let err = toy.set_at(3, 1.0).unwrap_err();
    assert_eq!(
        err,
        SetError::NotSettable {
            var: Var::Index(3),
            kind: VarKind::Predicate,
            reason: SetError::COMPUTED,
        }
    );
    assert_eq!(
        err.to_string(),
        "variable #3 is a pred: it is computed from other variables and cannot be set"
    );
    assert_eq!(
        toy.set_at(99, 1.0).unwrap_err().to_string(),
        "no variable with index 99"
    );

    // Errors are `'static` from set_at and usable as `dyn Error`.
    let boxed: Box<dyn std::error::Error> = Box::new(toy.set_at(2, 2.0).unwrap_err());
    assert_eq!(
        boxed.to_string(),
        "variable #2 is logical: expected 0 or 1, got 2"
    );
    fn uses_question_mark(m: &mut dyn Model) -> Result<(), Box<dyn std::error::Error>> {
        m.set("contact", 1.0)?;
        Ok(())
    }
    assert!(uses_question_mark(&mut toy).is_err());
}

#[test]
fn variables_iterator() {
    let toy = Toy::new();
    let names: Vec<&str> = toy.variables().map(|v| v.name).collect();
    assert_eq!(
        names,
        [
            "rate", "s", "q", "contact", "bump", "sub.on", "sub.u", "sub.y", "sub.dy"
        ]
    );
    let model: &dyn Model = &toy;
    let outputs: Vec<usize> = Variables::new(model)
        .enumerate()
        .filter(|(_, v)| v.output)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(outputs, [1, 3]);
    assert_eq!(VARS[3].kind.to_string(), "pred");
}

#[test]
fn step_and_reset() {
    let mut toy = Toy::new();
    toy.set("rate", 0.25).unwrap();
    for _ in 0..4 {
        toy.step(0.5);
    }
    assert_eq!(toy.time(), 2.0);
    assert_eq!(toy.get("q"), Some(1.0));
    toy.reset();
    assert_eq!(toy.time(), 0.0);
    assert_eq!(toy.get("q"), Some(0.0));
    assert_eq!(toy.get("s"), Some(0.1));
    assert_eq!(toy.get("rate"), Some(0.25), "reset keeps parameters");
}

#[cfg(feature = "std")]
#[test]
fn trace_exact_text() {
    let mut toy = Toy::new();
    let record = [1, 2, 3, 4, 7, 8];
    let mut out = Vec::new();
    sit_runtime::trace::run_trace(&mut toy, 1.0, 3, 1, &record, &mut out).unwrap();
    assert_eq!(
        csv(out),
        "t,s,q,contact,bump,sub.y,sub.dy\n\
         0,0.1,0,0,0,0,0\n\
         1,0.30000000000000004,0,0,0,0.1,0\n\
         2,0.5,1,1,1,0.4,0.30000000000000004\n\
         3,0.7,1,1,0,0.9,0.5\n"
    );
}

#[cfg(feature = "std")]
#[test]
fn trace_rows_at_multiples_of_every_and_at_the_end() {
    let mut toy = Toy::new();
    let mut out = Vec::new();
    sit_runtime::trace::run_trace(&mut toy, 0.5, 5, 2, &[1], &mut out).unwrap();
    // Steps 2 and 4, then the 5th: the end time always has its row.
    assert_eq!(
        csv(out),
        "t,s\n0,0.1\n1,0.30000000000000004\n2,0.5\n2.5,0.6\n"
    );
    assert_eq!(toy.time(), 2.5);
    let mut out = Vec::new();
    sit_runtime::trace::run_trace(&mut Toy::new(), 0.5, 4, 2, &[1], &mut out).unwrap();
    assert_eq!(
        csv(out),
        "t,s\n0,0.1\n1,0.30000000000000004\n2,0.5\n",
        "no second row at an end that `every` divides"
    );

    let mut out = Vec::new();
    sit_runtime::trace::run_trace(&mut Toy::new(), 0.5, 0, 3, &[1], &mut out).unwrap();
    assert_eq!(csv(out), "t,s\n0,0.1\n");
}

#[cfg(feature = "std")]
#[test]
fn trace_errors() {
    let mut toy = Toy::new();
    let mut out = Vec::new();
    let err = sit_runtime::trace::run_trace(&mut toy, 1.0, 3, 0, &[1], &mut out).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    let err = sit_runtime::trace::run_trace(&mut toy, 1.0, 3, 1, &[1, 42], &mut out).unwrap_err();
    assert_eq!(err.to_string(), "no variable with index 42");
    assert!(out.is_empty(), "nothing is written on a bad argument");
    assert_eq!(toy.time(), 0.0);
    let err = sit_runtime::trace::Recorder::with_names(&toy, &["s", "w"]).unwrap_err();
    assert_eq!(err.to_string(), "no variable named `w`");
}

#[cfg(feature = "std")]
#[test]
fn recorder_special_values() {
    use sit_runtime::trace::Recorder;
    let mut toy = Toy::new();
    let rec = Recorder::with_names(&toy, &["s", "sub.y", "sub.dy", "rate", "q"]).unwrap();
    assert_eq!(rec.indices().collect::<Vec<_>>(), [1, 7, 8, 0, 2]);
    let mut out = Vec::new();
    rec.write_header(&toy, &mut out).unwrap();
    toy.set("s", -0.0).unwrap();
    toy.set("sub.y", f64::NAN).unwrap();
    toy.set("sub.dy", f64::NEG_INFINITY).unwrap();
    toy.set("rate", 1e21).unwrap();
    toy.set("q", 1.0).unwrap();
    rec.write_row(&toy, &mut out).unwrap();
    toy.set("s", f64::INFINITY).unwrap();
    toy.set("rate", 1.5e-7).unwrap();
    toy.set("q", -0.0).unwrap();
    rec.write_row(&toy, &mut out).unwrap();
    assert_eq!(
        csv(out),
        "t,s,sub.y,sub.dy,rate,q\n\
         0,-0,NaN,-inf,1e21,1\n\
         0,inf,NaN,-inf,1.5e-7,0\n"
    );

    assert_eq!(
        Recorder::outputs(&toy).indices().collect::<Vec<_>>(),
        [1, 3]
    );
    assert_eq!(Recorder::all(&toy).indices().count(), VARS.len());
}

#[cfg(feature = "std")]
#[test]
fn recorder_writes_to_dyn_write() {
    let toy = Toy::new();
    let rec = sit_runtime::trace::Recorder::new(&toy, &[0, 0]).unwrap();
    let mut buf = Vec::new();
    {
        let out: &mut dyn std::io::Write = &mut buf;
        rec.write_header(&toy, out).unwrap();
        rec.write_row(&toy, out).unwrap();
    }
    assert_eq!(csv(buf), "t,rate,rate\n0,0.2,0.2\n");
}
