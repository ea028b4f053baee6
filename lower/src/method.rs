//! Integration methods: every model whose method is not `euler` rewritten into plain rules, by the step its method's tableau takes; the fixed step without located events written here.
//!
//! Under [`Method::Rk4`] (see "Integration methods" in [`crate::ir`]), the *continuous
//! states* are the targets of `integral` and `lag` rules; the *stage rules* are the plain
//! rules (`x = expr`, guarded or `otherwise`) whose targets the rates read, directly or
//! through other stage rules, that do not assign a continuous state, and whose target
//! is computed at every evaluation (a rule without guard or an `otherwise` rule; a
//! target assigned only under guards keeps its value between them, so its rules are
//! discrete): the split of `crate::ir`'s `split`. [`expand`] rewrites such a model
//! into an equivalent model of plain rules (method `euler`) with hidden states for the
//! stage memories, so that every back end runs the same statements and stays
//! bit-identical without knowing about methods. A method is a tableau
//! (`super::tableau`); an adaptive one is stepped by `super::dopri5`, a fixed-step one
//! by `super::rk4_loop` when events are located inside its step, else here:
//!
//! ```text
//! y0 = y                                   (every continuous state)
//! the stage passes and the solution (super::stages), the step from the host step's
//! start of length dt: under rk4,
//! stage s = 1..4:  k_s = 0; the stage pass (stage rules, `k_s = rate` for each
//!                  integral or lag; `time` reads time + c_s·dt); then, before stages
//!                  2..4, y = y0 + (c_{s+1}·dt)·k_s
//! y = y0 + dt·(((k1 + 2·k2) + 2·k3) + k4)/6
//! the body as written, each integral and lag rule keeping its target (a limited
//! integral clamps it)
//! ```

use super::LowerError;
use super::hidden::Hidden;
use super::located::watched;
use super::pass::discrete;
use super::rewrite;
use super::stages::{Start, Step, memories};
use super::tableau::{self, Tableau};
use crate::ir::{Expr, Method, Model, Program, split, split_errors, split_located};

/// `program` with every model whose method is not `euler` rewritten into plain rules
/// around the statements of [`rewrite::Rewrite`] that integrate it so; the rewritten
/// models say `euler`. Fails if a model cannot be split
/// (which the checker and [`Program::set_method`] report first, located).
pub fn expand(program: &Program) -> Result<rewrite::Program, LowerError> {
    let mut models = Vec::with_capacity(program.models.len());
    for (id, m) in program.models.iter().enumerate() {
        if m.method == Method::Euler {
            models.push(m.clone().widen());
            continue;
        }
        if let Some(d) = split_errors(m).first() {
            return Err(LowerError::Malformed(format!(
                "model `{}` cannot be integrated by `{}`: {}",
                m.name,
                m.method.name(),
                d.message
            )));
        }
        if let Method::Radau5(tol) = m.method {
            models.push(super::radau::rewrite(m, id, tol));
            continue;
        }
        if let (Some(ros), Some(tol)) = (super::rosenbrock::of(m.method), m.method.tolerance()) {
            models.push(super::implicit::rewrite(m, id, ros, tol));
            continue;
        }
        models.push(match tableau::of(m.method) {
            None => m.clone().widen(),
            Some(tab) => match m.method.tolerance() {
                Some(tol) => super::dopri5::rewrite(m, tab, tol),
                None => fixed(m, tab),
            },
        });
    }
    Ok(rewrite::Program {
        models,
        sources: program.sources.clone(),
    })
}

/// The model `m` (stepped by the fixed-step method `tab`) as plain rules (method `euler`).
fn fixed(m: &Model, tab: &'static Tableau) -> rewrite::Model {
    let sp = split(m);
    if sp.states.is_empty() {
        return Model {
            method: Method::Euler,
            ..m.clone()
        }
        .widen();
    }
    let lsp = split_located(m);
    let guards = watched(m, &lsp);
    if !guards.is_empty() {
        return super::rk4_loop::rewrite(m, tab, &sp, &lsp, guards);
    }
    let mut hid = Hidden::of(m);
    let mems = memories(&mut hid, tab, &sp, Start::Step);
    let mut body: Vec<_> = mems
        .iter()
        .zip(&sp.states)
        .map(|(mem, &(v, span))| super::build::assign(mem.y0, Expr::Var(v), None, span))
        .collect();
    let step = Step {
        tab,
        m,
        sp: &sp,
        mems: &mems,
        t: None,
        h: Expr::Dt,
    };
    body.extend(step.stages());
    body.extend(step.solution());
    body.extend(discrete(&m.body));
    let mut out = hid.out.with_body(body);
    out.fired = m.fired * (tab.c.len() + 1);
    out
}
