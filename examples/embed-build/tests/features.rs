//! The generated code of `models/features.sit` follows the step order of the IR contract (`dsl-parser/src/ir/contract.md`):
//! values worked out by hand from the model, step by step (dt = 0.25, exact in binary).

use embed_build::features::{Features, Part};
use sit_runtime::{Model, SetError, VarKind};

const DT: f64 = 0.25;

#[test]
fn names_are_mapped() {
    let f = Features::new();
    // `type` is a raw identifier, `self` gets a suffix, non-ASCII is kept.
    assert_eq!(f.r#type, 0.5);
    assert_eq!(f.Größe, 1.5);
    assert_eq!(
        f.self_.gain, 2.0,
        "param binding `gain = a` applied at construction"
    );
    assert_eq!(f.spare.gain, 1.0, "unbound param keeps its default");
    assert_eq!(f.b(), 5.0, "derived param b = a * 3 - 1");
    assert!(f.self_on && !f.spare_on);
    let names: Vec<&str> = Features::VARIABLES.iter().map(|v| v.name).collect();
    assert_eq!(&names[..4], ["a", "b", "type", "Größe"]);
    let tail = ["self.on", "self.gain", "self.fn", "self.out", "self.big"];
    let at = names.iter().position(|n| *n == "self.on").unwrap();
    assert_eq!(&names[at..at + 5], tail);
    assert_eq!(
        names[names.len() - 5..],
        [
            "spare.on",
            "spare.gain",
            "spare.fn",
            "spare.out",
            "spare.big"
        ]
    );
    assert_eq!(Part::VARIABLES.len(), 4);
}

#[test]
fn steps_follow_the_ir_order() {
    let mut f = Features::new();
    assert_eq!(f.x, 2.0, "state initial value x = a");
    f.step(DT);
    assert_eq!(f.x, 2.5);
    assert_eq!(f.d, 0.0, "deriv: first call gives 0");
    assert_eq!(f.w, 0.5, "no rule assigned w: the otherwise rule did");
    assert_eq!(
        (f.t_seen, f.dt_seen),
        (0.0, DT),
        "time at the start of the step"
    );
    f.step(DT);
    assert_eq!(f.d, (3.0 - 2.5) / DT);
    f.step(DT);
    assert!(
        !f.crossed(),
        "the event reads x before the rules move it past 3"
    );
    f.step(DT);
    assert!(f.crossed());
    assert!(f.latched && f.spare_on);
    assert_eq!(f.w, 0.5, "latched is set by a σ rule after the w rules");
    assert_eq!(f.self_.time(), 0.0, "reset(self) after self stepped");
    assert_eq!(f.time(), 4.0 * DT);
    let x_before = f.x;
    f.step(DT);
    assert!(!f.crossed(), "an event lasts one step");
    // spare stepped first with fn = -x, then w = spare.out under `latched`.
    let out = sit_runtime::lag(0.0, -x_before, 0.2, 1.0, DT);
    assert_eq!(f.spare.out.to_bits(), out.to_bits());
    assert_eq!(f.w.to_bits(), out.to_bits());
    assert_eq!(f.z, 5.0, "z = z + 1 under `active` in each of the 5 steps");
    assert!(f.in_band() && f.neg_test());
    assert_eq!(f.pw, 512.0 + 5.0, "2 ^ 3 ^ 2 is 2 ^ 9");
}

#[test]
fn settable_follows_bindings() {
    let mut f = Features::new();
    let m: &mut dyn Model = &mut f;
    m.set("spare.gain", 3.0).unwrap();
    m.set("self.on", 0.0).unwrap();
    m.set("enabled", 0.0).unwrap();
    assert_eq!(
        m.set("self.gain", 1.0).unwrap_err(),
        SetError::NotSettable {
            var: "self.gain".into(),
            kind: VarKind::Param,
            reason: SetError::BOUND
        }
    );
    assert_eq!(
        m.set("spare.fn", 1.0).unwrap_err(),
        SetError::NotSettable {
            var: "spare.fn".into(),
            kind: VarKind::Input,
            reason: SetError::BOUND
        }
    );
    assert_eq!(
        m.set("b", 1.0).unwrap_err(),
        SetError::NotSettable {
            var: "b".into(),
            kind: VarKind::Param,
            reason: SetError::DERIVED
        }
    );
    assert!(matches!(
        m.set("latched", 0.5),
        Err(SetError::NotLogical { .. })
    ));
    assert_eq!(m.get("enabled"), Some(0.0));
    m.step(DT);
    assert_eq!(
        m.get("self.out"),
        Some(0.0),
        "a switched-off submodel does not step"
    );
    assert_eq!(m.get("self.on"), Some(0.0));
    m.reset();
    assert_eq!(
        m.get("self.on"),
        Some(1.0),
        "reset switches submodels as declared"
    );
    assert_eq!(m.get("spare.gain"), Some(3.0), "reset keeps params");
    for (i, info) in Features::VARIABLES.iter().enumerate() {
        assert_eq!(m.var_index(info.name), Some(i), "{}", info.name);
    }
}
