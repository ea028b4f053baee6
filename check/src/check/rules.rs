//! Lowering of rules: δ rules and their targets, σ rules and their actions, stateful right-hand sides.

use super::resolve::{Ctx, Resolver};
use super::{Stateful, Sym};
use crate::ast::{self, ExprKind, Guard, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;

impl Resolver<'_> {
    pub(super) fn rules(&mut self, rules: &[ast::Rule]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for r in rules {
            match r {
                ast::Rule::Assign {
                    target,
                    value,
                    guard,
                    span,
                    ..
                } => {
                    if self.is_flag_state(target) {
                        self.flag_rule(target, value, guard);
                        continue;
                    }
                    let Some(tv) = self.target(target) else {
                        // Still check the expressions for more errors
                        // (as a right-hand side, where `integral` may stand).
                        let _ = self.rhs(value);
                        if let Guard::When(g) = guard {
                            let _ = self.expr(g, Ty::Flag, Ctx::Rule);
                        }
                        continue;
                    };
                    let rhs = self.rhs(value);
                    let assign = Assign {
                        target: tv,
                        rhs,
                        fired: self.fired.get(&tv).copied(),
                        span: *span,
                    };
                    match guard {
                        Guard::None => out.push(Stmt::Assign(assign)),
                        Guard::When(g) => {
                            let cond = self.expr(g, Ty::Flag, Ctx::Rule);
                            out.push(Stmt::If {
                                cond,
                                then: vec![Stmt::Assign(assign)],
                                span: g.span,
                            })
                        }
                        Guard::Otherwise(_) => {
                            let fired = self.fired[&tv];
                            out.push(Stmt::Otherwise { assign, fired })
                        }
                    }
                }
                // Solved into δ rules before (`super::equations`); one left here is
                // nested in a block, an error reported there.
                ast::Rule::Equation { .. } => {}
                ast::Rule::Sigma {
                    cond,
                    actions,
                    span,
                } => {
                    let c = self.expr(cond, Ty::Flag, Ctx::Rule);
                    let mut then = Vec::new();
                    for a in actions {
                        if let Some(s) = self.action(a) {
                            then.push(s);
                        }
                    }
                    let _ = span;
                    out.push(Stmt::If {
                        cond: c,
                        then,
                        span: cond.span,
                    });
                }
                ast::Rule::Transition {
                    mode,
                    from,
                    to,
                    guard,
                    rules,
                    span,
                } => {
                    let then = self.rules(rules);
                    if let Some(s) = self.transition(mode, from, to, guard.as_ref(), then, *span) {
                        out.push(s);
                    }
                }
                // Expanded before the checker reads a rule (`check::arrays`).
                ast::Rule::For(l) => out.extend(self.rules(&l.rules)),
                ast::Rule::Step { sub, span } => {
                    if let Some(s) = self.step_rule(sub, *span) {
                        out.push(s);
                    }
                }
                ast::Rule::Block { cond, rules, .. } => {
                    let c = self.expr(cond, Ty::Flag, Ctx::Rule);
                    self.blocks.push(cond.span);
                    let then = self.rules(rules);
                    self.blocks.pop();
                    out.push(Stmt::If {
                        cond: c,
                        then,
                        span: cond.span,
                    });
                }
            }
        }
        out
    }

    pub(super) fn target(&mut self, target: &Name) -> Option<VarId> {
        let sym = self.t().names.get(&target.text).copied();
        match sym {
            Some(Sym::Var(v)) => {
                let var = &self.t().vars[v];
                match (var.kind, var.ty) {
                    (VarKind::State, Ty::Real) => Some(v),
                    // E0171 is reported with the rule's value by `flag_rule`
                    // (`check/slips.rs`), before the target is looked up.
                    (VarKind::State, Ty::Flag) => None,
                    (VarKind::Param { .. }, _) => {
                        self.err(
                            cannot_assign(target, "param")
                                .with_label("params are constant during a run")
                                .with_help(format!(
                                    "declare it as a state: `real {};`",
                                    target.text
                                )),
                        );
                        None
                    }
                    (VarKind::Input, _) => {
                        self.err(
                            cannot_assign(target, "input")
                                .with_label("inputs are set by the host or the parent model"),
                        );
                        None
                    }
                }
            }
            Some(Sym::Cond(c)) => {
                let kind = match self.t().conds[c].kind {
                    CondKind::Pred => "pred",
                    CondKind::Situation => "situation",
                };
                self.err(
                    cannot_assign(target, kind)
                        .with_label(format!("a {kind} is computed from its definition"))
                        .with_help(
                            "to remember a logical value, declare a `flag` and set it in a σ rule",
                        ),
                );
                None
            }
            Some(Sym::Event(_)) => {
                self.err(
                    cannot_assign(target, "event")
                        .with_label("an event is computed from its condition"),
                );
                None
            }
            Some(Sym::Mode(_)) => {
                self.err(
                    cannot_assign(target, "mode")
                        .with_label("a mode changes only by its transitions")
                        .with_help(format!(
                            "write a transition: `{}: FROM -> TO when CONDITION;`",
                            target.text
                        )),
                );
                None
            }
            Some(Sym::Sub(_)) => {
                self.err(
                    cannot_assign(target, "submodel").with_label(
                        "a submodel is switched with `name.on` and `!name.on` in σ rules",
                    ),
                );
                None
            }
            None => {
                self.unknown(target, Ctx::Rule);
                None
            }
        }
    }

    pub(super) fn action(&mut self, a: &ast::Action) -> Option<Stmt> {
        match a {
            ast::Action::Run { phase, span } => self.run_action(phase, *span),
            ast::Action::Reset { sub, span } => match self.t().names.get(&sub.text).copied() {
                Some(Sym::Sub(s)) => Some(Stmt::Reset {
                    sub: s,
                    span: *span,
                }),
                Some(_) => {
                    self.err(
                        Diagnostic::error(
                            "E0174",
                            sub.span,
                            format!("`reset` takes a submodel, and `{}` is not one", sub.text),
                        )
                        .with_label("not a submodel"),
                    );
                    None
                }
                None => {
                    self.unknown(sub, Ctx::Rule);
                    None
                }
            },
            ast::Action::Set {
                path, value, span, ..
            } => {
                let first = &path[0];
                let sym = self.t().names.get(&first.text).copied();
                if path.len() == 2 {
                    match sym {
                        Some(Sym::Sub(s)) if path[1].text == "on" => {
                            if self.switch_of_phase(s, *span) {
                                return None;
                            }
                            return Some(Stmt::Switch {
                                sub: s,
                                on: *value,
                                span: *span,
                            });
                        }
                        Some(Sym::Sub(_)) => {
                            self.err(
                                Diagnostic::error(
                                    "E0173",
                                    path[1].span,
                                    format!(
                                        "a σ rule cannot assign `{}.{}`",
                                        first.text, path[1].text
                                    ),
                                )
                                .with_label("only `.on` of a submodel can be switched")
                                .with_note("a submodel's variables are set by its own rules; pass values in through input bindings"),
                            );
                            return None;
                        }
                        None => {
                            self.unknown(first, Ctx::Rule);
                            return None;
                        }
                        Some(_) => {
                            self.not_a_submodel(first);
                            return None;
                        }
                    }
                }
                if path.len() > 2 {
                    self.err(
                        Diagnostic::error(
                            "E0173",
                            span.to(*span),
                            "a σ rule can only switch a direct submodel (`name.on`)",
                        )
                        .with_label("too deep"),
                    );
                    return None;
                }
                match sym {
                    Some(Sym::Var(v)) => {
                        let var = &self.t().vars[v];
                        match (var.kind, var.ty) {
                            (VarKind::State, Ty::Flag) => Some(Stmt::SetFlag {
                                var: v,
                                value: *value,
                                span: *span,
                            }),
                            (VarKind::State, Ty::Real) => {
                                self.err(
                                    Diagnostic::error(
                                        "E0172",
                                        first.span,
                                        format!("`{}` is real; σ rules assign only flags and submodel switches", first.text),
                                    )
                                    .with_label("a real is assigned by a δ rule")
                                    .with_help(format!("write `{} = VALUE when CONDITION;`", first.text)),
                                );
                                None
                            }
                            (k, _) => {
                                let what = if matches!(k, VarKind::Input) {
                                    "input"
                                } else {
                                    "param"
                                };
                                self.err(
                                    cannot_assign(first, what)
                                        .with_label("σ rules assign flags and submodel switches"),
                                );
                                None
                            }
                        }
                    }
                    Some(Sym::Sub(_)) => {
                        self.err(
                            Diagnostic::error(
                                "E0173",
                                first.span,
                                format!(
                                    "`{}` is a submodel: switch it with `{0}.on` or `!{0}.on`",
                                    first.text
                                ),
                            )
                            .with_label("a submodel, not a flag"),
                        );
                        None
                    }
                    Some(Sym::Mode(_)) => {
                        self.err(
                            cannot_assign(first, "mode")
                                .with_label("a mode changes only by its transitions")
                                .with_help(format!(
                                    "write a transition: `{}: FROM -> TO when CONDITION;`",
                                    first.text
                                )),
                        );
                        None
                    }
                    Some(Sym::Cond(_)) | Some(Sym::Event(_)) => {
                        self.err(
                            Diagnostic::error(
                                "E0170",
                                first.span,
                                format!(
                                    "cannot assign to `{}`: it is computed from its definition",
                                    first.text
                                ),
                            )
                            .with_label("σ rules assign flags and submodel switches")
                            .with_help("to remember a logical value, declare a `flag`"),
                        );
                        None
                    }
                    None => {
                        self.unknown(first, Ctx::Rule);
                        None
                    }
                }
            }
        }
    }

    pub(super) fn rhs(&mut self, e: &ast::Expr) -> Rhs {
        let ExprKind::Call(name, args) = &e.kind else {
            return Rhs::Expr(self.expr(e, Ty::Real, Ctx::Rule));
        };
        let Some(proc) = Stateful::from_name(&name.text) else {
            return Rhs::Expr(self.expr(e, Ty::Real, Ctx::Rule));
        };
        let n = args.len();
        let a = |s: &mut Self, i: usize| s.expr(&args[i], Ty::Real, Ctx::Rule);
        let x = |s: &mut Self| s.proc_input(proc.name(), args);
        match (proc, n) {
            (Stateful::Integral, 1) => Rhs::Integral { x: x(self) },
            (Stateful::Integral, 3) => Rhs::IntegralLimited {
                x: x(self),
                lo: a(self, 1),
                hi: a(self, 2),
            },
            (Stateful::Lag, 2 | 3) => Rhs::Lag {
                x: x(self),
                t: a(self, 1),
                k: if n == 3 { a(self, 2) } else { Expr::Num(1.0) },
            },
            (Stateful::Deriv, 1) => {
                let x = x(self);
                self.memories.push(Memory {
                    kind: MemoryKind::Deriv,
                    span: e.span,
                });
                Rhs::Deriv {
                    x,
                    mem: self.memories.len() - 1,
                }
            }
            (Stateful::Hysteresis, 3 | 4) => Rhs::Hysteresis {
                x: x(self),
                lo: a(self, 1),
                hi: a(self, 2),
                a: if n == 4 { a(self, 3) } else { Expr::Num(1.0) },
            },
            (Stateful::Timer, 1) => Rhs::Timer {
                c: self.expr(&args[0], Ty::Flag, Ctx::Rule),
            },
            (proc, _) => {
                self.arity_error(e.span, proc.name(), proc.arity(), n);
                Rhs::Expr(Expr::Num(0.0))
            }
        }
    }
}

impl Resolver<'_> {
    /// E0151: `name` called with `n` arguments where it takes `expected`.
    pub(super) fn arity_error(&mut self, span: Span, name: &str, expected: &str, n: usize) {
        self.err(
            Diagnostic::error(
                "E0151",
                span,
                format!(
                    "`{name}` takes {expected} argument{}, but {n} {} given",
                    if expected == "1" { "" } else { "s" },
                    if n == 1 { "was" } else { "were" }
                ),
            )
            .with_label("wrong number of arguments")
            .with_note(signature(name)),
        );
    }

    /// E0141: a dotted path whose first name is not a submodel.
    pub(super) fn not_a_submodel(&mut self, first: &Name) {
        self.err(
            Diagnostic::error(
                "E0141",
                first.span,
                format!("`{}` is not a submodel", first.text),
            )
            .with_label("only submodels have `.` members"),
        );
    }
}

/// E0170: `name`, a `what`, cannot be the target of a rule.
fn cannot_assign(name: &Name, what: &str) -> Diagnostic {
    Diagnostic::error(
        "E0170",
        name.span,
        format!("cannot assign to the {what} `{}`", name.text),
    )
}

fn signature(name: &str) -> String {
    let s = match name {
        "integral" => "integral(rate) or integral(rate, lo, hi)",
        "lag" => "lag(input, T) or lag(input, T, gain)",
        "deriv" => "deriv(signal)",
        "hysteresis" => "hysteresis(input, lo, hi) or hysteresis(input, lo, hi, amplitude)",
        "timer" => "timer(condition)",
        "atan2" => "atan2(y, x)",
        "min" => "min(a, b)",
        "max" => "max(a, b)",
        "pow" => "pow(x, y)",
        "hypot" => "hypot(x, y)",
        "relay" => "relay(x, amplitude)",
        "limit" => "limit(x, lo, hi)",
        "deadzone" => "deadzone(x, half_width)",
        other => return format!("signature: {other}(x)"),
    };
    format!("signature: {s}")
}
