//! Integration methods: every model whose method is not `euler` rewritten into plain rules, one entry per kind of method (fixed, adaptive explicit, Rosenbrock, Radau).
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
//! (`super::tableau`). One entry per kind of method: a fixed-step tableau is stepped by
//! `super::fixed` (below, under `rk4`), an adaptive explicit pair by `super::explicit`,
//! a Rosenbrock method by `super::rosenbrock`, `radau5` by `super::radau`:
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
use super::probe::Probe;
use super::rewrite;
use super::tableau;
use crate::ir::{Method, Program, VarId, split_errors};

/// `program` with every model whose method is not `euler` rewritten into plain rules
/// around the statements of [`rewrite::Rewrite`] that integrate it so; the rewritten
/// models say `euler`. Fails if a model cannot be split
/// (which the checker and [`Program::set_method`] report first, located).
pub fn expand(program: &Program) -> Result<rewrite::Program, LowerError> {
    expand_probed(program, &[]).map(|(p, _)| p)
}

/// [`expand`], keeping the summaries `probes` of continuous states of models under an
/// adaptive method in hidden states (`super::probe`): the program and each probe kept
/// with its hidden state.
pub fn expand_probed(
    program: &Program,
    probes: &[Probe],
) -> Result<(rewrite::Program, Vec<(Probe, VarId)>), LowerError> {
    let mut models = Vec::with_capacity(program.models.len());
    let mut kept = Vec::new();
    for (id, m) in program.models.iter().enumerate() {
        let mine: Vec<Probe> = probes.iter().filter(|p| p.model == id).copied().collect();
        let asked = (&mine[..], &mut kept);
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
            models.push(super::radau::rewrite(m, id, tol, asked));
            continue;
        }
        if let (Some(ros), Some(tol)) = (super::rosenbrock::of(m.method), m.method.tolerance()) {
            models.push(super::rosenbrock::rewrite(m, id, ros, tol, asked));
            continue;
        }
        models.push(match tableau::of(m.method) {
            None => m.clone().widen(),
            Some(tab) => match m.method.tolerance() {
                Some(tol) => super::explicit::rewrite(m, tab, tol, asked),
                None => super::fixed::rewrite(m, tab),
            },
        });
    }
    let program = rewrite::Program {
        models,
        sources: program.sources.clone(),
    };
    Ok((program, kept))
}
