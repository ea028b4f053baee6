//! The random generator's tests: valid, reproducible files that cover every construct of the lowering.

use super::*;

#[test]
fn random_files_are_valid_and_reproducible() {
    for seed in 0..200 {
        let text = random_file(seed, Size::default());
        assert_eq!(text, random_file(seed, Size::default()));
        let out = sit_middle::check_source(format!("random{seed}.sit"), &text);
        assert!(!out.has_errors(), "seed {seed}:\n{}\n{text}", out.render());
    }
}

/// Equations, and among them rates `der(…)` and equations solved by Newton's iteration,
/// occur in the first 40 random files,
/// and each is solved into a rule (no `equation` reaches the checked program: the
/// files are valid, as the test above checks of 200).
#[test]
fn random_files_state_equations() {
    let texts: Vec<String> = (0..40).map(|s| random_file(s, Size::default())).collect();
    let equations: usize = texts
        .iter()
        .map(|t| t.matches("    equation ").count())
        .sum();
    let rates: usize = texts
        .iter()
        .map(|t| t.matches("equation der(").count())
        .sum();
    let newton = texts
        .iter()
        .map(|t| t.matches("equation ye + 0.5 * sin(ye)").count())
        .sum::<usize>();
    let constraints = texts
        .iter()
        .map(|t| t.matches("    equation zb = ").count())
        .sum::<usize>();
    assert!(
        equations >= 40 && rates >= 5 && newton >= 5 && constraints >= 2,
        "{equations} equations, {rates} rates, {newton} solved by Newton's iteration, \
         {constraints} constraints among states"
    );
    for (seed, t) in texts.iter().enumerate() {
        let out = sit_middle::check_source(format!("random{seed}.sit"), t);
        let program = out.program.expect("valid");
        for m in &program.models {
            if t.contains(&format!("model {} {{", m.name)) && m.vars.iter().any(|v| v.name == "yb")
            {
                // `yb` is computed by a rule: the equation solved for it.
                let mut found = false;
                sit_middle::ir::walk(&m.body, &mut |st| {
                    found |= st.assign().is_some_and(|a| m.vars[a.target].name == "yb");
                });
                assert!(found, "seed {seed}: no rule for yb in {}", m.name);
            }
        }
    }
}

/// Arrays, loops (nested too) and reductions occur in the first 40 random files, and
/// their cells are variables of the checked models (the files are valid, as the test
/// above checks of 200).
#[test]
fn random_files_hold_arrays_and_loops() {
    let texts: Vec<String> = (0..40).map(|s| random_file(s, Size::default())).collect();
    let loops: usize = texts
        .iter()
        .map(|t| t.matches("    for i in ").count())
        .sum();
    let nested: usize = texts
        .iter()
        .map(|t| t.matches(", j in 1:an {").count())
        .sum();
    let sums: usize = texts.iter().map(|t| t.matches("sum(ar[i]").count()).sum();
    // A submodel's cells read through its path (`s0.ar[2]`, `sum(s0.ar[i] for …)`).
    let paths: usize = texts
        .iter()
        .map(|t| t.matches(".ar[i] for i in").count())
        .sum();
    assert!(
        loops >= 10 && nested >= 5 && sums >= 5 && paths >= 3,
        "{loops} loops, {nested} nested, {sums} sums, {paths} reads of a submodel's cells"
    );
    // σ actions on cells of a flag array.
    let latched: usize = texts.iter().map(|t| t.matches("=> af[i];").count()).sum();
    assert!(latched >= 5, "{latched} σ actions on cells");
    // Instances that bind the size of their model's arrays (`sub s0: M1(…, an = 4)`):
    // each gets a copy of the model, `M1(an = 4)`, with that many cells.
    let bound: Vec<usize> = (texts.iter().enumerate())
        .filter(|(_, t)| t.contains(", an = ") || t.contains("(an = "))
        .map(|(s, _)| s)
        .collect();
    assert!(bound.len() >= 3, "{} files bind a size", bound.len());
    for &seed in &bound {
        let out = sit_middle::check_source(format!("random{seed}.sit"), &texts[seed]);
        let program = out.program.expect("valid");
        assert!(
            (program.models.iter()).any(|m| m.name.contains("(an = ")),
            "seed {seed}: no copy of a model for its bound size"
        );
    }
    for (seed, t) in texts
        .iter()
        .enumerate()
        .filter(|(_, t)| t.contains("ar[an]"))
    {
        let out = sit_middle::check_source(format!("random{seed}.sit"), t);
        let program = out.program.expect("valid");
        assert!(
            (program.models.iter()).any(|m| m.vars.iter().any(|v| v.name == "ag[2][2]")),
            "seed {seed}: no cell `ag[2][2]`"
        );
    }
}

/// `prev` of a flag occurs in the first 40 random files (a copy taken by σ actions).
#[test]
fn random_files_read_prev_of_flags() {
    let texts: Vec<String> = (0..40).map(|s| random_file(s, Size::default())).collect();
    let flags = texts
        .iter()
        .map(|t| {
            let declared: Vec<&str> = (t.lines())
                .filter_map(|l| l.trim().strip_prefix("output flag "))
                .filter_map(|l| l.split([' ', '=', ';']).next())
                .collect();
            declared
                .iter()
                .filter(|f| t.contains(&format!("prev({f})")))
                .count()
        })
        .sum::<usize>();
    assert!(flags >= 10, "{flags} flags read through prev in 40 files");
}

/// `prev` occurs in the first 40 random files, drawn and where a loop was broken.
#[test]
fn random_files_read_prev() {
    let texts: Vec<String> = (0..40).map(|s| random_file(s, Size::default())).collect();
    let count: usize = texts.iter().map(|t| t.matches("prev(").count()).sum();
    assert!(count >= 40, "{count} reads of prev in 40 files");
}

/// Every construct of the lowered step (`sit_middle::lower`) occurs in the first 40
/// random files, the ones the bit-identity tests compile (`tests/build.rs`).
#[test]
fn random_files_cover_every_construct_of_the_lowering() {
    use sit_middle::lower::{self, FlagUse, Place, Proc, Reads, Slot, Stmt, Term};
    use std::collections::BTreeSet;
    fn stmts(body: &[Stmt], seen: &mut BTreeSet<String>, guarded: bool) {
        for s in body {
            let what = match s {
                Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                    terms(&a.operands, seen);
                    let kind = if matches!(s, Stmt::Otherwise { .. }) {
                        "otherwise"
                    } else {
                        "assign"
                    };
                    seen.insert(format!(
                        "{kind} {:?} guarded={guarded}",
                        a.proc.runtime().unwrap_or(a.proc.name())
                    ));
                    continue;
                }
                Stmt::If { cond, then, .. } => {
                    terms(std::slice::from_ref(cond), seen);
                    stmts(then, seen, true);
                    "if"
                }
                Stmt::SetFlag { .. } => "set flag",
                Stmt::Switch { .. } => "switch",
                Stmt::Reset { .. } => "reset",
                Stmt::Run { .. } => "run",
                Stmt::Step { .. } => "step",
                Stmt::SetMode { .. } => "set mode",
                Stmt::Repeat {
                    until,
                    body,
                    events,
                    at_limit,
                    ..
                } => {
                    terms(std::slice::from_ref(until), seen);
                    stmts(body, seen, guarded);
                    if events.is_some() {
                        seen.insert("repeat locating events".into());
                    }
                    if *at_limit == lower::AtLimit::Leave {
                        seen.insert("repeat left at its limit".into());
                    }
                    "repeat"
                }
                Stmt::SetDt { value, .. } => {
                    terms(std::slice::from_ref(value), seen);
                    "set dt"
                }
                Stmt::NoteModes { .. } => "note modes",
                Stmt::Event(ev) => {
                    terms(std::slice::from_ref(&ev.cond), seen);
                    "event located"
                }
                Stmt::Factor {
                    storage: lower::Storage::Dense,
                    ..
                } => "factor dense",
                Stmt::Factor {
                    storage: lower::Storage::Pattern { .. },
                    ..
                } => "factor pattern",
                Stmt::Factor {
                    storage: lower::Storage::Band { .. },
                    ..
                } => "factor band",
                Stmt::Factor {
                    storage: lower::Storage::Sparse { complex: false, .. },
                    ..
                } => "factor sparse",
                Stmt::Factor {
                    storage: lower::Storage::Sparse { complex: true, .. },
                    ..
                } => "factor sparse complex",
                Stmt::Solve { .. } => "solve",
                Stmt::Underflow { .. } => "underflow",
            };
            seen.insert(format!("{what} guarded={guarded}"));
        }
    }
    fn terms(ts: &[Term], seen: &mut BTreeSet<String>) {
        for t in ts {
            t.visit(&mut |t| {
                if let Term::Table(t, _) = t {
                    seen.insert(format!("table {}-D {}", t.grids.len(), t.beyond.name()));
                }
                if let Term::TableSlope(t, k, _) = t {
                    seen.insert(format!("table slope {}-D axis {k}", t.grids.len()));
                }
                if let Term::Read(Place { path, slot }) | Term::InMode(Place { path, slot }, _) = t
                {
                    let slot = match slot {
                        Slot::Var(_) => "var",
                        Slot::Event(_) => "event",
                        Slot::On(_) => "on",
                        Slot::Time => "time",
                        Slot::Dt => "dt",
                        Slot::Mode(_) => "mode",
                        Slot::ModeStart(_) => "mode start",
                    };
                    seen.insert(format!("read {slot} depth={}", path.len().min(2)));
                }
            });
        }
    }
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let out = sit_middle::check_source("r.sit", &random_file(seed, Size::default()));
        let program = out.program.expect("valid");
        for m in &program.models {
            seen.insert(format!("method {}", m.method.name()));
        }
        let lowered = lower::Lowered::new(&program, Default::default()).expect("expands");
        let methods: Vec<_> = program.models.iter().map(|m| m.method.name()).collect();
        let program = lowered.program();
        for (id, method) in methods.iter().enumerate().take(program.models.len()) {
            let m = lowered.model(id, Reads::Inline).expect("lowers");
            stmts(&m.body, &mut seen, false);
            let mut located = false;
            lower::walk(&m.body, &mut |s| located |= matches!(s, Stmt::Event(_)));
            if located {
                seen.insert(format!("event located under {method}"));
            }
            for f in &m.flags {
                seen.insert(format!("flag {f:?}"));
            }
            for link in &m.subs {
                seen.insert(format!("sub on={}", link.initially_on));
            }
            for p in &m.phases {
                seen.insert(format!("phase of {} bindings", p.binds.len().min(2)));
                terms(std::slice::from_ref(&p.until), &mut seen);
            }
            if let Some(s) = &m.substeps {
                let nested = program
                    .models
                    .iter()
                    .any(|p| p.subs.iter().any(|x| x.model == id && x.phase.is_none()));
                seen.insert(format!("substeps nested={nested}"));
                terms(&[s.when.clone(), s.count.clone()], &mut seen);
            }
        }
    }
    let mut missing = Vec::new();
    let mut want: Vec<String> = Vec::new();
    for p in [
        Proc::Expr,
        Proc::Integral,
        Proc::IntegralLimited,
        Proc::Lag,
        Proc::Deriv { mem: 0 },
        Proc::Hysteresis,
        Proc::Timer,
    ] {
        let p = p.runtime().unwrap_or(p.name());
        want.push(format!("assign {p:?} guarded=true"));
        want.push(format!("assign {p:?} guarded=false"));
    }
    want.push("otherwise \"expr\" guarded=false".into());
    want.extend(["phase of 1 bindings".into(), "phase of 2 bindings".into()]);
    want.extend([
        "substeps nested=false".into(),
        "substeps nested=true".into(),
    ]);
    for w in ["set flag", "switch", "reset", "run", "if", "set mode"] {
        want.push(format!("{w} guarded=true"));
    }
    want.push("if guarded=false".into());
    want.push("repeat guarded=false".into());
    // `radau5`'s Newton iteration: a loop inside the internal steps', left at its limit.
    want.extend([
        "repeat guarded=true".into(),
        "repeat left at its limit".into(),
    ]);
    want.push("step guarded=false".into());
    // Events located inside a dopri5 step: `dt` written at each event and after.
    want.extend([
        "repeat locating events".into(),
        "set dt guarded=true".into(),
        "set dt guarded=false".into(),
        "note modes guarded=true".into(),
        // An `event` located: evaluated at each located event and after the loop.
        "event located guarded=true".into(),
        "event located guarded=false".into(),
    ]);
    // An implicit method's stage solves, and its step underflow under its guard.
    want.extend([
        "factor dense guarded=true".into(),
        "factor pattern guarded=true".into(),
        "factor band guarded=true".into(),
        "factor sparse guarded=true".into(),
        "factor sparse complex guarded=true".into(),
        "solve guarded=true".into(),
        "underflow guarded=true".into(),
    ]);
    for f in [FlagUse::AlwaysSet, FlagUse::Tracked { mutated: true }] {
        want.push(format!("flag {f:?}"));
    }
    want.extend(["sub on=true".into(), "sub on=false".into()]);
    for method in sit_middle::ir::Method::ALL {
        want.push(format!("method {}", method.name()));
        // An `event` on what moves, located under every method that locates.
        if method != sit_middle::ir::Method::Euler {
            want.push(format!("event located under {}", method.name()));
        }
    }
    for slot in ["var", "event", "on", "time", "dt", "mode", "mode start"] {
        want.push(format!("read {slot} depth=0"));
    }
    // Through a submodel (its outputs, and its conditions inlined where read).
    for slot in ["var", "event", "time", "mode"] {
        want.push(format!("read {slot} depth=1"));
    }
    for dim in [1, 2] {
        for b in ["clamp", "extrapolate"] {
            want.push(format!("table {dim}-D {b}"));
        }
    }
    // A table read in the rates of a model under `rodas4`: its Jacobian reads the
    // table's slope along each argument.
    want.extend([
        "table slope 1-D axis 0".into(),
        "table slope 2-D axis 0".into(),
        "table slope 2-D axis 1".into(),
    ]);
    for w in want {
        if !seen.contains(&w) {
            missing.push(w);
        }
    }
    assert!(
        missing.is_empty(),
        "never generated: {missing:?}\nseen: {seen:?}"
    );
}

/// Networks of parts joined by `connect` occur in the first 40 random files, and each
/// is flattened into its holder: the checked `Network` has the parts' variables under
/// their dotted names and no port left unconnected (every section's capacitor is a
/// state).
#[test]
fn random_files_build_networks_of_parts() {
    let mut networks = 0;
    for seed in 0..40 {
        let text = random_file(seed, Size::default());
        if !text.contains("model Network {") {
            continue;
        }
        networks += 1;
        let out = sit_middle::check_source(format!("random{seed}.sit"), &text);
        let program = out.program.expect("valid");
        let m = program
            .models
            .iter()
            .find(|m| m.name == "Network")
            .expect("the network is a model of the program");
        assert!(m.vars.iter().any(|v| v.name == "c0.v"), "seed {seed}");
        assert!(m.vars.iter().any(|v| v.name == "r0.p.i"), "seed {seed}");
    }
    assert!(networks >= 5, "only {networks} networks");
}
