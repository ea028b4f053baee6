//! `step(sub);`: a submodel's step placed among its parent's rules, checked (E0175–E0177) and noted on the submodel.

use super::Sym;
use super::resolve::{Ctx, Resolver};
use crate::ast::Name;
use crate::diag::Diagnostic;
use crate::ir::{Stmt, Sub};
use crate::source::Span;

impl Resolver<'_> {
    /// The statement `step(name);`: E0175 unless `name` is a submodel that is not a
    /// phase.
    pub(super) fn step_rule(&mut self, name: &Name, span: Span) -> Option<Stmt> {
        match self.t().names.get(&name.text).copied() {
            Some(Sym::Sub(s)) if self.t().subs[s].phase.is_none() => {
                Some(Stmt::Step { sub: s, span })
            }
            Some(Sym::Sub(_)) => {
                self.err(
                    Diagnostic::error(
                        "E0175",
                        name.span,
                        format!("`step` takes a submodel, and `{}` is a phase", name.text),
                    )
                    .with_label("a phase is run, not stepped")
                    .with_help(format!(
                        "run it to its end where it should happen: `when CONDITION => run({});`",
                        name.text
                    )),
                );
                None
            }
            Some(_) => {
                self.err(
                    Diagnostic::error(
                        "E0175",
                        name.span,
                        format!("`step` takes a submodel, and `{}` is not one", name.text),
                    )
                    .with_label("not a submodel"),
                );
                None
            }
            None => {
                self.unknown(name, Ctx::Rule);
                None
            }
        }
    }

    /// Notes on each submodel where `body` steps it ([`Sub::placed`]): E0176 for a
    /// `step` under a guard or in a transition, E0177 for a second one.
    pub(super) fn place_steps(&mut self, subs: &mut [Sub], body: &[Stmt]) {
        for s in body {
            match s {
                Stmt::Step { sub, span } => {
                    let Some(sub) = subs.get_mut(*sub) else {
                        continue;
                    };
                    if let Some(first) = sub.placed {
                        let name = sub.name.clone();
                        self.err(
                            Diagnostic::error("E0177", *span, format!("`{name}` is stepped twice"))
                                .with_label("a second step")
                                .with_related(first, "its step is placed here")
                                .with_note("a submodel steps once in each step of its parent"),
                        );
                    } else {
                        sub.placed = Some(*span);
                    }
                }
                Stmt::If { then, .. } => self.nested_steps(subs, then),
                _ => {}
            }
        }
    }

    /// E0153 for a `prev(sub.x)` in the binding of a submodel that steps after `sub`
    /// once the `step`s of `body` are placed (the checker of `prev` allowed it by the
    /// declaration order).
    pub(super) fn placed_prevs(&mut self, subs: &[Sub], body: &[Stmt]) {
        let rank = crate::ir::step_rank(subs.len(), body);
        for (k, sub) in subs.iter().enumerate() {
            for b in &sub.input_bindings {
                for &j in b.prev_subs.iter().filter(|&&j| rank[j] < rank[k]) {
                    self.err(
                        Diagnostic::error(
                            "E0153",
                            b.span,
                            format!(
                                "`prev` of an output of `{}` is only known before it steps, and it \
                                 steps before `{}`",
                                subs[j].name, sub.name
                            ),
                        )
                        .with_label(format!(
                            "`{}` has stepped when this is evaluated",
                            subs[j].name
                        ))
                        .with_note(
                            "the submodels that are not placed step first, in declaration order, \
                             then those placed by `step(…);` where their statements stand",
                        )
                        .with_help(format!(
                            "read it without `prev` (its value of this step), or step `{}` \
                             before `{}`",
                            sub.name, subs[j].name
                        )),
                    );
                }
            }
        }
    }

    /// E0176 for each `step` in `body`, a guarded block's.
    fn nested_steps(&mut self, subs: &[Sub], body: &[Stmt]) {
        let mut found = Vec::new();
        crate::ir::walk(body, &mut |s| {
            if let Stmt::Step { sub, span } = s {
                let name = subs.get(*sub).map_or("", |s| s.name.as_str());
                found.push(
                    Diagnostic::error(
                        "E0176",
                        *span,
                        format!("the step of `{name}` is under a guard"),
                    )
                    .with_label("`step` stands at the top level of the rules")
                    .with_note(
                        "a submodel steps in every step of its parent while it is on; switch it \
                         off and on (`!NAME.on`, `NAME.on`) to stop and restart it",
                    )
                    .with_help(format!(
                        "move `step({name});` out of the `when` block or transition"
                    )),
                );
            }
        });
        for d in found {
            self.err(d);
        }
    }
}
