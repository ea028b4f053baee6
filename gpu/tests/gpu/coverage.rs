//! The constructs the GPU form supports, each met by the models that `host_c.rs` runs as C against the interpreter (the library under its methods, sit-synth's random models): a construct added to the lowering without a case here fails this test.

use sit_driver::{Options, Source};
use sit_middle::ir::Method;
use sit_middle::lower::{self, Proc, Reads, Stmt, Term};
use std::collections::BTreeSet;

/// Every construct of the lowered step that `sit-gpu` writes as C.
const SUPPORTED: &[&str] = &[
    // statements
    "rule",
    "otherwise",
    "guard",
    "set flag",
    "switch submodel",
    "set mode",
    "reset submodel",
    "run phase",
    "step submodel",
    "repeat (adaptive steps)",
    "note modes",
    "event in the body",
    "set dt",
    // procedures of a rule
    "expr",
    "integral",
    "integral limited",
    "lag",
    "deriv",
    "hysteresis",
    "timer",
    // model parts
    "submodel",
    "input binding",
    "param binding",
    "event",
    "mode",
    "mode start",
    "phase",
    "substeps",
    "initial pass",
    // terms
    "table 1-D",
    "table 2-D",
    "in mode",
    "time",
    "dt",
    "sub on",
    "call",
    "pow",
];

fn note_term(t: &Term, seen: &mut BTreeSet<&'static str>) {
    t.visit(&mut |t| {
        let what = match t {
            Term::Table(t, _) if t.grids.len() == 1 => "table 1-D",
            Term::Table(..) => "table 2-D",
            Term::InMode(p, _) if matches!(p.slot, lower::Slot::ModeStart(_)) => "mode start",
            Term::InMode(..) => "in mode",
            Term::Read(p) => match p.slot {
                lower::Slot::Time => "time",
                lower::Slot::Dt => "dt",
                lower::Slot::On(_) => "sub on",
                _ => return,
            },
            Term::Call(..) => "call",
            Term::Arith(sit_middle::ir::ArithOp::Pow, ..) => "pow",
            _ => return,
        };
        seen.insert(what);
    });
}

fn note(m: &lower::Model, seen: &mut BTreeSet<&'static str>) {
    let mut stmts = Vec::new();
    lower::walk(&m.body, &mut |s| stmts.push(s));
    lower::walk(&m.initial, &mut |s| stmts.push(s));
    // A model under an implicit method (`rodas4`), which the C form refuses by name, is
    // not run as C: none of its constructs count.
    if stmts.iter().any(|s| matches!(s, Stmt::Factor { .. })) {
        return;
    }
    for s in stmts {
        let what = match s {
            Stmt::Assign(a) | Stmt::Otherwise { assign: a, .. } => {
                seen.insert(match a.proc {
                    Proc::Expr => "expr",
                    Proc::Integral => "integral",
                    Proc::IntegralLimited => "integral limited",
                    Proc::Lag => "lag",
                    Proc::Deriv { .. } => "deriv",
                    Proc::Hysteresis => "hysteresis",
                    Proc::Timer => "timer",
                });
                a.operands.iter().for_each(|t| note_term(t, seen));
                if matches!(s, Stmt::Otherwise { .. }) {
                    "otherwise"
                } else {
                    "rule"
                }
            }
            Stmt::If { cond, .. } => {
                note_term(cond, seen);
                "guard"
            }
            Stmt::SetFlag { .. } => "set flag",
            Stmt::Switch { .. } => "switch submodel",
            Stmt::SetMode { .. } => "set mode",
            Stmt::Reset { .. } => "reset submodel",
            Stmt::Run { .. } => "run phase",
            Stmt::Step { .. } => "step submodel",
            Stmt::Repeat { until, .. } => {
                note_term(until, seen);
                "repeat (adaptive steps)"
            }
            Stmt::NoteModes { .. } => "note modes",
            Stmt::Event(ev) => {
                note_term(&ev.cond, seen);
                "event in the body"
            }
            Stmt::SetDt { value, .. } => {
                note_term(value, seen);
                "set dt"
            }
            // An implicit method's (left out above).
            Stmt::Factor { .. } | Stmt::Solve { .. } | Stmt::Underflow { .. } => continue,
        };
        seen.insert(what);
    }
    for link in &m.subs {
        seen.insert("submodel");
        if !link.inputs.is_empty() {
            seen.insert("input binding");
        }
        if !link.params.is_empty() {
            seen.insert("param binding");
        }
    }
    if !m.events.is_empty() {
        seen.insert("event");
    }
    if !m.modes.is_empty() {
        seen.insert("mode");
    }
    if !m.phases.is_empty() {
        seen.insert("phase");
    }
    if m.substeps.is_some() {
        seen.insert("substeps");
    }
    if !m.initial.is_empty() {
        seen.insert("initial pass");
    }
}

fn note_source(source: &Source<'_>, method: Option<Method>, seen: &mut BTreeSet<&'static str>) {
    let opts = Options {
        method,
        ..Options::default()
    };
    let Ok(compiled) = sit_driver::compile(source, &opts) else {
        return;
    };
    for id in 0..compiled.lowered.program().models.len() {
        note(&compiled.lowered.model(id, Reads::Inline).unwrap(), seen);
    }
}

#[test]
fn every_supported_construct_is_run_as_c_against_the_interpreter() {
    let mut seen = BTreeSet::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models");
    for f in sit_driver::sit_files(&root) {
        for m in [None, Method::from_name("dopri5")] {
            note_source(&Source::path(&f), m, &mut seen);
        }
    }
    // The random models of host_c.rs (seeds 0..6).
    for seed in 0..6 {
        let text = sit_synth::random_file(seed, sit_synth::Size::default());
        note_source(&Source::text("random.sit", &text), None, &mut seen);
    }
    let missing: Vec<&&str> = SUPPORTED.iter().filter(|c| !seen.contains(**c)).collect();
    assert!(missing.is_empty(), "not run by host_c.rs: {missing:?}");
    let unlisted: Vec<&&str> = seen.iter().filter(|c| !SUPPORTED.contains(c)).collect();
    assert!(unlisted.is_empty(), "not listed as supported: {unlisted:?}");
}
