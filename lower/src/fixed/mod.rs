//! The fixed-step methods (`rk4`, `heun`, …: a tableau without error weights): the straight-line step written here, the step split at located events in [`looped`].

mod looped;

use crate::hidden::Hidden;
use crate::ir::{Expr, Method, Model, split, split_located};
use crate::located::watched;
use crate::pass::discrete;
use crate::rewrite;
use crate::stages::{Start, Step, memories};
use crate::tableau::Tableau;

/// The model `m` (stepped by the fixed-step method `tab`) as plain rules (method `euler`).
pub(super) fn rewrite(m: &Model, tab: &'static Tableau) -> rewrite::Model {
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
        return looped::rewrite(m, tab, &sp, &lsp, guards);
    }
    let mut hid = Hidden::of(m);
    let mems = memories(&mut hid, tab, &sp, Start::Step);
    let mut body: Vec<_> = mems
        .iter()
        .zip(&sp.states)
        .map(|(mem, &(v, span))| crate::build::assign(mem.y0, Expr::Var(v), None, span))
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
