//! The lowered step: the one implementation of the step semantics of [`crate::ir`], which every back end stores its own way.
//!
//! This crate is `sit-lower`: it reads the checked IR of `sit-check`; the back ends read
//! its result through `sit_lir::Lowering`, which [`Lowered`] implements (the
//! declarations of `sit_lir::decl`, filled once, and each model lowered on demand).
//!
//! [`model`] turns one checked model into the statements of construction, reset and
//! step, in the order of the contract of [`crate::ir`], with every name resolved to a
//! [`Place`] of the instance tree, the stateful procedure of each δ rule as a [`Proc`],
//! and the liveness of the `otherwise` flags decided. [`variables`] lists the variables
//! seen through `sit_runtime::Model`. The back ends (the scalar generator: struct fields;
//! the batch generator: lanes; the interpreter: flat slots) are storage strategies over
//! these: they decide where a [`Place`] lives, not what a step does.
//!
//! A back end walks a [`Model`] as follows (this is the contract of `ir/contract.md`, written
//! once):
//!
//! - construction: every [`Model::defaults`] entry in order, then reset;
//! - reset: for each [`SubLink`] in order, its [`SubLink::params`] then a reset of the
//!   submodel; then every `on` flag to [`SubLink::initially_on`]; then every
//!   [`Model::inits`] entry in order; then every [`ModeSlot`] to its initial state; then
//!   the memories of `deriv` cleared, the
//!   `otherwise` flags cleared, time and `dt` to 0; then each [`EventUpdate`] in order
//!   with `value = false`, then the [`Model::initial`] pass (below), then each
//!   [`EventUpdate`] in order with `prev = cond`;
//! - step: store `dt`; for each [`SubLink`] switched on and not [`SubLink::placed`],
//!   its [`SubLink::inputs`] then a step of the submodel (a placed one does the same
//!   where its [`Stmt::Step`] stands in the body, with the `dt` of that point); when
//!   [`Model::events_at_start`], each [`EventUpdate`] in order with `value = cond &&
//!   !prev; prev = cond` (else the body's [`Stmt::Event`]s do it); the `otherwise` flags to their initial value ([`FlagUse`]); each
//!   [`ModeSlot`] with `snapshot` copied to its start-of-step slot; the
//!   [`Model::body`] top to bottom; time advanced by `dt` through the instance's
//!   `sit_runtime::Clock` (reset with the time).
//!
//! # The initial pass
//!
//! [`Model::initial`] is run at reset like the body of a step (its `otherwise` flags
//! false first, used as [`Model::initial_flags`] says), with every event false and
//! `dt = 0`: the rules of the model's *computed* states, those that every step
//! assigns from other values before any rule reads them (the exact rule is in
//! `lower/src/initial.rs`), so that the values at t = 0 are consistent (`total = a + b`
//! shows `a + b`) and no rule of a step sees the difference. The computed states are
//! found on the rules as written, before a method's rewrite ([`Lowered`] keeps them),
//! so the row at t = 0 is the same under every method.

#![deny(missing_docs)]

mod adaptive;
mod band;
mod bounds;
mod build;
mod decls;
mod dense;
mod explicit;
mod fired;
mod fixed;
mod hidden;
mod initial;
pub mod jacobian;
mod labels;
mod located;
mod matrix;
pub mod method;
mod pass;
mod prev;
mod probe;
mod program;
mod radau;
pub mod rewrite;
mod rosenbrock;
mod sparse;
mod stages;
mod substep;
mod tableau;
#[cfg(test)]
mod tests;
mod vars;
mod why;

pub use labels::{labelled, variable_units, variable_units_with};
pub use probe::{Probe, ProbeKind};
pub use program::{Lowered, Prepare};
pub use rewrite::Rewrite;
pub use sit_check::term::{
    Budget, LowerError, MAX_DEPTH, MAX_OPS, Place, Reads, Slot, Term, term, term_within,
};
pub use sit_lir::{
    Assign, AtLimit, EventUpdate, FlagUse, Init, ModeSlot, Model, PhaseLink, Proc, SparseLu, Stmt,
    Storage, SubLink, SubstepLink, find_phase, walk,
};
pub use vars::{Access, Entry, Item, Own, SubRun, own_variables, variables, visible_count};
pub use why::instrument_events;

use crate::ir::{ModeId, ModelId, Rhs, VarId};
use sit_lir::flags_set;
use term::{Lowerer, get};

// The checker's modules, under the names the lowering's files read them by.
#[cfg(test)]
use sit_check::check_source;
use sit_check::{Span, ir, source, term};

/// Lowers model `id` of a lowered program, with reads of derived params and conditions
/// as `reads` says.
pub fn model(lowered: &Lowered, id: ModelId, reads: Reads) -> Result<Model, LowerError> {
    let program = lowered.program();
    let m = get(&program.models, id, "model")?;
    debug_assert_eq!(
        m.method,
        ir::Method::Euler,
        "methods are rewritten by `Lowered::new`"
    );
    let mut lw = Lowerer::new(program, reads);
    let mut defaults = Vec::new();
    let mut inits = Vec::new();
    for (v, var) in m.vars.iter().enumerate() {
        let list = match var.kind {
            _ if var.is_derived() => continue,
            ir::VarKind::Param { .. } | ir::VarKind::Input => &mut defaults,
            ir::VarKind::State => &mut inits,
        };
        list.push(Init {
            var: v,
            value: lw.term(id, &var.init)?,
            span: var.span,
        });
    }
    let mut subs = Vec::with_capacity(m.subs.len());
    let mut phases = Vec::new();
    for (s, sub) in m.subs.iter().enumerate() {
        let child = get(&program.models, sub.model, "model")?;
        let mut bind = |bs: &[ir::Binding]| -> Result<Vec<Init>, LowerError> {
            bs.iter()
                .map(|b| {
                    let var = get(&child.vars, b.var, "bound variable")?;
                    if var.is_derived() {
                        return Err(LowerError::Malformed(format!(
                            "binding of the derived param `{}`",
                            var.name
                        )));
                    }
                    Ok(Init {
                        var: b.var,
                        value: lw.term(id, &b.value)?,
                        span: b.span,
                    })
                })
                .collect()
        };
        let params = bind(&sub.param_bindings)?;
        let mut inputs = bind(&sub.input_bindings)?;
        if let Some(ph) = &sub.phase {
            phases.push(PhaseLink {
                sub: s,
                model: sub.model,
                name: sub.name.clone(),
                binds: std::mem::take(&mut inputs),
                step: ph.step,
                limit: ph.limit,
                until: lw.term(id, &ph.until)?,
                span: sub.span,
            });
        }
        subs.push(SubLink {
            sub: s,
            model: sub.model,
            params,
            inputs,
            initially_on: sub.initially_on && sub.phase.is_none(),
            placed: sub.placed.is_some(),
            span: sub.span,
        });
    }
    let events = m
        .events
        .iter()
        .enumerate()
        .map(|(e, ev)| {
            Ok(EventUpdate {
                event: e,
                cond: lw.term(id, &ev.cond)?,
                span: ev.span,
            })
        })
        .collect::<Result<_, LowerError>>()?;
    let substeps = substep::link(&mut lw, id, m)?;
    let live = fired::Fired::new(&m.body, m.fired);
    let flags = flag_uses(&live, &m.body, m.fired);
    let mut rules = Rules {
        lw,
        model: id,
        m,
        live: &live,
        pos: 0,
    };
    let body = rules.stmts(&m.body)?;
    let mut events_at_start = true;
    walk(&body, &mut |s| {
        events_at_start &= !matches!(s, Stmt::Event(_))
    });
    let modes = m
        .modes
        .iter()
        .enumerate()
        .map(|(k, md)| ModeSlot {
            mode: k,
            initial: 0,
            states: md.states.len(),
            snapshot: reads_start(&body, k),
            span: md.span,
        })
        .collect();
    // On the rules as written, not on the method's stages (where a guarded rule that
    // feeds the continuous part is no longer a rule of the step's top level): the row
    // at t = 0 is the same under every method.
    let mut pass: Vec<rewrite::Stmt> = initial::pass(lowered.unrewritten(), id)
        .into_iter()
        .map(ir::Stmt::widen)
        .collect();
    pass.extend(lowered.copy_statements(id));
    let live = fired::Fired::new(&pass, m.fired);
    let initial_flags = flag_uses(&live, &pass, m.fired);
    let mut rules = Rules {
        live: &live,
        pos: 0,
        ..rules
    };
    let initial = rules.stmts(&pass)?;
    Ok(Model {
        id,
        defaults,
        subs,
        events,
        events_at_start,
        inits,
        flags,
        body,
        phases,
        modes,
        initial,
        initial_flags,
        substeps,
    })
}

/// Whether a statement of `body` reads the start-of-step state of mode `mode`.
fn reads_start(body: &[Stmt], mode: ModeId) -> bool {
    let term = |t: &Term| {
        let mut found = false;
        t.visit(&mut |x| {
            found |=
                matches!(x, Term::InMode(Place { slot: Slot::ModeStart(m), .. }, _) if *m == mode)
        });
        found
    };
    body.iter().any(|s| match s {
        Stmt::If { cond, then, .. } => term(cond) || reads_start(then, mode),
        _ => false,
    })
}

/// How a rule list uses each of its `fired` flags.
fn flag_uses(live: &fired::Fired, body: &[rewrite::Stmt], fired: usize) -> Vec<FlagUse> {
    (0..fired)
        .map(|k| {
            if !live.read[k] {
                FlagUse::Unread
            } else if !live.initial_live[k] {
                FlagUse::AlwaysSet
            } else {
                FlagUse::Tracked {
                    mutated: live.ever_set(body, k),
                }
            }
        })
        .collect()
}

/// Lowers the rules of one model, in the pre-order of [`fired::Fired`]'s positions.
struct Rules<'p, 'f> {
    lw: Lowerer<'p, Rewrite>,
    model: ModelId,
    m: &'p rewrite::Model,
    live: &'f fired::Fired,
    /// Pre-order position of the last statement lowered.
    pos: usize,
}

impl Rules<'_, '_> {
    fn stmts(&mut self, body: &[rewrite::Stmt]) -> Result<Vec<Stmt>, LowerError> {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &rewrite::Stmt) -> Result<Stmt, LowerError> {
        self.pos += 1;
        Ok(match s {
            ir::Stmt::Assign(a) => Stmt::Assign(self.assign(a)?),
            ir::Stmt::Otherwise { assign, fired } => {
                if *fired >= self.m.fired {
                    return Err(LowerError::Malformed(format!(
                        "`otherwise` flag {fired} out of range"
                    )));
                }
                Stmt::Otherwise {
                    assign: self.assign(assign)?,
                    fired: *fired,
                }
            }
            ir::Stmt::If { cond, then, span } => {
                let one_rule = matches!(
                    then.as_slice(),
                    [ir::Stmt::Assign(a)] if a.span.start <= span.start && span.end <= a.span.end
                );
                Stmt::If {
                    cond: self.lw.term(self.model, cond)?,
                    then: self.stmts(then)?,
                    span: *span,
                    one_rule,
                }
            }
            ir::Stmt::SetFlag { var, value, span } => {
                let v = get(&self.m.vars, *var, "variable")?;
                if v.kind != ir::VarKind::State || v.ty != ir::Ty::Flag {
                    return Err(LowerError::Malformed(format!(
                        "σ action on `{}`, which is not a flag state",
                        v.name
                    )));
                }
                Stmt::SetFlag {
                    var: *var,
                    value: *value,
                    span: *span,
                }
            }
            ir::Stmt::Switch { sub, on, span } => {
                get(&self.m.subs, *sub, "submodel")?;
                Stmt::Switch {
                    sub: *sub,
                    on: *on,
                    span: *span,
                }
            }
            ir::Stmt::SetMode { mode, state, span } => {
                let md = get(&self.m.modes, *mode, "mode")?;
                get(&md.states, *state, "state")?;
                Stmt::SetMode {
                    mode: *mode,
                    state: *state,
                    span: *span,
                }
            }
            ir::Stmt::Reset { sub, span } => {
                get(&self.m.subs, *sub, "submodel")?;
                Stmt::Reset {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Step { sub, span } => {
                let s = get(&self.m.subs, *sub, "submodel")?;
                if s.phase.is_some() || s.placed.is_none() {
                    return Err(LowerError::Malformed(format!(
                        "`step` of `{}`, which is a phase or placed elsewhere",
                        s.name
                    )));
                }
                Stmt::Step {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Run { sub, span } => {
                if get(&self.m.subs, *sub, "submodel")?.phase.is_none() {
                    return Err(LowerError::Malformed(format!(
                        "`run` of `{}`, which is not a phase",
                        self.m.subs[*sub].name
                    )));
                }
                Stmt::Run {
                    sub: *sub,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Repeat {
                body,
                until,
                count,
                limit,
                at_limit,
                method,
                events,
                span,
            }) => {
                get(&self.m.vars, *count, "variable")?;
                if let Some((n, _)) = events {
                    get(&self.m.vars, *n, "variable")?;
                }
                let body = self.stmts(body)?;
                let mut clear = Vec::new();
                flags_set(&body, &mut clear);
                clear.sort_unstable();
                clear.dedup();
                Stmt::Repeat {
                    body,
                    until: self.lw.term(self.model, until)?,
                    count: *count,
                    limit: *limit,
                    at_limit: *at_limit,
                    method,
                    clear,
                    events: *events,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::NoteModes { span }) => Stmt::NoteModes { span: *span },
            ir::Stmt::Added(Rewrite::Event { event, cond, span }) => {
                get(&self.m.events, *event, "event")?;
                Stmt::Event(EventUpdate {
                    event: *event,
                    cond: self.lw.term(self.model, cond)?,
                    span: *span,
                })
            }
            ir::Stmt::Added(Rewrite::SetDt { value, span }) => Stmt::SetDt {
                value: self.lw.term(self.model, value)?,
                span: *span,
            },
            ir::Stmt::Added(Rewrite::Factor {
                matrix,
                storage,
                pivots,
                method,
                span,
            }) => {
                self.reals(matrix.iter().chain(pivots))?;
                if !storage.fits(matrix.len(), pivots.len(), None) {
                    return Err(LowerError::Malformed(format!(
                        "a factorisation of {} entries with {} pivots",
                        matrix.len(),
                        pivots.len()
                    )));
                }
                Stmt::Factor {
                    matrix: matrix.clone(),
                    storage: storage.clone(),
                    pivots: pivots.clone(),
                    method,
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Solve {
                matrix,
                storage,
                pivots,
                rhs,
                span,
            }) => {
                self.reals(matrix.iter().chain(pivots).chain(rhs))?;
                let n = pivots.len();
                if !storage.fits(matrix.len(), n, Some(rhs.len())) {
                    return Err(LowerError::Malformed(format!(
                        "a stage solve of {} unknowns with {} entries and {n} pivots",
                        rhs.len(),
                        matrix.len()
                    )));
                }
                Stmt::Solve {
                    matrix: matrix.clone(),
                    storage: storage.clone(),
                    pivots: pivots.clone(),
                    rhs: rhs.clone(),
                    span: *span,
                }
            }
            ir::Stmt::Added(Rewrite::Underflow { step, method, span }) => {
                self.reals(std::iter::once(step))?;
                Stmt::Underflow {
                    step: *step,
                    method,
                    span: *span,
                }
            }
        })
    }

    /// Checks that every variable of `vars` is a real state (a stage solve's).
    fn reals<'v>(&self, vars: impl Iterator<Item = &'v VarId>) -> Result<(), LowerError> {
        for &v in vars {
            let var = get(&self.m.vars, v, "variable")?;
            if var.kind != ir::VarKind::State || var.ty != ir::Ty::Real {
                return Err(LowerError::Malformed(format!(
                    "a stage solve on `{}`, which is not a real state",
                    var.name
                )));
            }
        }
        Ok(())
    }

    fn assign(&mut self, a: &ir::Assign) -> Result<Assign, LowerError> {
        let v = get(&self.m.vars, a.target, "variable")?;
        if v.kind != ir::VarKind::State || v.ty != ir::Ty::Real {
            return Err(LowerError::Malformed(format!(
                "δ rule on `{}`, which is not a real state",
                v.name
            )));
        }
        let proc = match &a.rhs {
            Rhs::Expr(_) => Proc::Expr,
            Rhs::Integral { .. } => Proc::Integral,
            Rhs::IntegralLimited { .. } => Proc::IntegralLimited,
            Rhs::Lag { .. } => Proc::Lag,
            Rhs::Deriv { mem, .. } => {
                get(&self.m.memories, *mem, "memory")?;
                Proc::Deriv { mem: *mem }
            }
            Rhs::Hysteresis { .. } => Proc::Hysteresis,
            Rhs::Timer { .. } => Proc::Timer,
        };
        let operands = a
            .rhs
            .operands()
            .into_iter()
            .map(|e| self.lw.term(self.model, e))
            .collect::<Result<_, _>>()?;
        let sets = a.fired.filter(|&k| self.live.sets(k, self.pos));
        Ok(Assign {
            target: a.target,
            proc,
            operands,
            sets,
            span: a.span,
        })
    }
}
