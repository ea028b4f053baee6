//! Lowering of expressions: name resolution, types, and where each name may be read.

use super::{Ctx, Resolver, Stateful, Sym};
use crate::ast::{self, ExprKind, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::source::Span;
use crate::suggest::did_you_mean;

impl Resolver<'_> {
    /// Lower an expression that must have type `want`.
    pub(super) fn expr(&mut self, e: &ast::Expr, want: Ty, ctx: Ctx) -> Expr {
        let before = self.errors();
        let (x, ty) = self.any(e, ctx);
        if ty != want {
            // An error inside the expression already explains it.
            if self.errors() == before {
                self.type_error(e, want, ty);
            }
            return match want {
                Ty::Real => Expr::Num(0.0),
                Ty::Flag => Expr::Bool(false),
            };
        }
        x
    }

    pub(super) fn type_error(&mut self, e: &ast::Expr, want: Ty, got: Ty) {
        let text = self.sources.text(e.span).to_string();
        let short = if text.chars().count() > 40 {
            "this expression".to_string()
        } else {
            format!("`{text}`")
        };
        let (msg, label, help) = match want {
            Ty::Flag => (
                format!("expected a logical value, found the real {short}"),
                "this is a real number",
                Some("compare it to make a logical value, as in `x > 0`".to_string()),
            ),
            Ty::Real => (
                format!("expected a real value, found the logical {short}"),
                "this is a logical value",
                Some(
                    "logical values are used in `when` conditions, preds and situations"
                        .to_string(),
                ),
            ),
        };
        let _ = got;
        let mut d = Diagnostic::error("E0160", e.span, msg).with_label(label);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.err(d);
    }

    pub(super) fn any(&mut self, e: &ast::Expr, ctx: Ctx) -> (Expr, Ty) {
        match &e.kind {
            // A literal's unit is erased: the step computes the number alone.
            ExprKind::Num(v) | ExprKind::Quantity(v, _) => (Expr::Num(*v), Ty::Real),
            ExprKind::Bool(b) => (Expr::Bool(*b), Ty::Flag),
            ExprKind::Paren(inner) => self.any(inner, ctx),
            ExprKind::Neg(inner) => {
                let x = self.expr(inner, Ty::Real, ctx);
                (Expr::Neg(Box::new(x)), Ty::Real)
            }
            ExprKind::Not(inner) => {
                let before = self.errors();
                let (x, ty) = self.any(inner, ctx);
                if ty == Ty::Real && self.errors() > before {
                    return (Expr::Bool(false), Ty::Flag);
                }
                if ty == Ty::Real {
                    let text = self.sources.text(inner.span).to_string();
                    let mut d = Diagnostic::error(
                        "E0160",
                        inner.span,
                        "`!` needs a logical value, found a real",
                    )
                    .with_label("this is a real number");
                    if let ExprKind::Path(_) = inner.kind {
                        d = d.with_help(format!("`!` binds tighter than comparisons: write `!({text} ...)` to negate a comparison"));
                    }
                    self.err(d);
                    return (Expr::Bool(false), Ty::Flag);
                }
                (Expr::Not(Box::new(x)), Ty::Flag)
            }
            ExprKind::Binary(op, l, r) => {
                use ast::BinOp::*;
                match op {
                    Or | And => {
                        let a = self.expr(l, Ty::Flag, ctx);
                        let b = self.expr(r, Ty::Flag, ctx);
                        let x = if *op == Or {
                            Expr::Or(Box::new(a), Box::new(b))
                        } else {
                            Expr::And(Box::new(a), Box::new(b))
                        };
                        (x, Ty::Flag)
                    }
                    _ => {
                        let a = self.expr(l, Ty::Real, ctx);
                        let b = self.expr(r, Ty::Real, ctx);
                        let aop = match op {
                            Add => ArithOp::Add,
                            Sub => ArithOp::Sub,
                            Mul => ArithOp::Mul,
                            Div => ArithOp::Div,
                            _ => ArithOp::Pow,
                        };
                        (Expr::Arith(aop, Box::new(a), Box::new(b)), Ty::Real)
                    }
                }
            }
            ExprKind::Compare(first, rest) => {
                if let Some(x) = self.mode_compare(first, rest, ctx) {
                    return x;
                }
                let mut prev = self.expr(first, Ty::Real, ctx);
                let mut prev_span = first.span;
                let mut acc: Option<Expr> = None;
                for (op, rhs) in rest {
                    let r = self.expr(rhs, Ty::Real, ctx);
                    if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                        // W0210 is decided once the model's rules are known (`exact`).
                        let text = |s: Span| self.sources.text(s).to_string();
                        self.equalities.push(super::exact::Equality {
                            span: prev_span.to(rhs.span),
                            op: *op,
                            sides: [(prev.clone(), text(prev_span)), (r.clone(), text(rhs.span))],
                        });
                    }
                    prev_span = rhs.span;
                    let c = Expr::Cmp(*op, Box::new(prev), Box::new(r.clone()));
                    acc = Some(match acc {
                        None => c,
                        Some(a) => Expr::And(Box::new(a), Box::new(c)),
                    });
                    prev = r;
                }
                (acc.unwrap_or(Expr::Bool(false)), Ty::Flag)
            }
            ExprKind::Call(name, args) => {
                if let Some(t) = self.t().lookups.get(&name.text).cloned() {
                    return self.table_call(t, e.span, args, ctx);
                }
                if name.text == "prev" {
                    return self.prev(name, e.span, args, ctx);
                }
                let Some(f) = Func::from_name(&name.text) else {
                    if Stateful::from_name(&name.text).is_some() {
                        self.err(
                            Diagnostic::error(
                                "E0152",
                                e.span,
                                format!("`{}` must be the whole right-hand side of a δ rule", name.text),
                            )
                            .with_label("used inside an expression")
                            .with_note(format!(
                                "`{}` computes the next value of the rule's target from its current value",
                                name.text
                            ))
                            .with_help(format!(
                                "give it its own state, as in `real s; s = {};`, and use `s` here",
                                self.sources.text(e.span)
                            )),
                        );
                    } else {
                        let all = Func::ALL
                            .iter()
                            .map(|f| f.name())
                            .chain(Stateful::ALL.iter().map(|s| s.name()))
                            .chain(["prev"]);
                        let mut d = Diagnostic::error(
                            "E0150",
                            name.span,
                            format!("unknown procedure `{}`", name.text),
                        )
                        .with_label("not in the runtime library");
                        let call = self.sources.text(e.span);
                        let arguments = call.get(name.text.len()..).unwrap_or_default();
                        if let Some(help) = other_language(&name.text, args.len(), arguments) {
                            d = d.with_help(help);
                        } else if let Some(s) = did_you_mean(&name.text, all) {
                            d = d.with_help(format!("did you mean `{s}`?"));
                        } else {
                            d = d.with_note("the procedures are listed in docs/language.md, section \"Procedures\"");
                        }
                        self.err(d);
                    }
                    for a in args {
                        let _ = self.any(a, ctx);
                    }
                    return (Expr::Num(0.0), Ty::Real);
                };
                if args.len() != f.arity() {
                    let n = args.len();
                    self.arity_error(e.span, f.name(), &f.arity().to_string(), n);
                    return (Expr::Num(0.0), Ty::Real);
                }
                let xs = args.iter().map(|a| self.expr(a, Ty::Real, ctx)).collect();
                (Expr::Call(f, xs), Ty::Real)
            }
            ExprKind::Path(path) => self.path(path, e.span, ctx),
            // Expanded before the checker reads a model (`check::arrays`, on every model
            // that reads a cell anywhere: rules, declarations, bindings, substeps): only
            // an error of the expansion leaves one.
            ExprKind::Index(..) | ExprKind::Reduce(..) => (Expr::Num(0.0), Ty::Real),
        }
    }

    /// `prev(x)`: `x` a param, input or state of this model, read as it was at the start
    /// of the step (E0153 for anything else).
    fn prev(&mut self, name: &Name, span: Span, args: &[ast::Expr], ctx: Ctx) -> (Expr, Ty) {
        if ctx != Ctx::Rule {
            self.not_here(name, ctx, "a value of the previous step");
            return (Expr::Num(0.0), Ty::Real);
        }
        if args.len() != 1 {
            self.arity_error(span, "prev", "1", args.len());
            return (Expr::Num(0.0), Ty::Real);
        }
        let arg = &args[0];
        let before = self.errors();
        let (x, ty) = self.any(arg, ctx);
        if self.errors() > before {
            return (x, ty);
        }
        if let Expr::Var(v) = x {
            return (Expr::Prev(v), ty);
        }
        // A later submodel's output, in the binding of an earlier one: it has not
        // stepped yet, so the read is as of the start of the step already.
        if let (Expr::SubVar(j, _), Some((k, later))) = (&x, &mut self.binding_of)
            && *j > *k
        {
            later.push(*j);
            return (x, ty);
        }
        if let Expr::SubVar(..) = x {
            self.err(
                Diagnostic::error(
                    "E0153",
                    arg.span,
                    format!(
                        "`prev` of a submodel's output is only known before it steps, not here: `{}`",
                        self.sources.text(arg.span)
                    ),
                )
                .with_label("this submodel has stepped by the time this is read")
                .with_note(
                    "the submodels step first, in declaration order; `prev(sub.x)` may be written \
                     in the input binding of a submodel declared before `sub`",
                )
                .with_help(
                    "read it without `prev` (its value of this step), or copy it into a state of \
                     this model (`real x_seen; x_seen = sub.x;`) and write `prev(x_seen)`",
                ),
            );
            return (x, ty);
        }
        let text = self.sources.text(arg.span).to_string();
        self.err(
            Diagnostic::error(
                "E0153",
                arg.span,
                format!("`prev` takes a variable of this model, not `{text}`"),
            )
            .with_label("not a param, input, state or flag of this model")
            .with_note(
                "`prev(x)` is the value `x` had at the start of the step, before the step's rules",
            )
            .with_help(match x {
                Expr::Cond(_) | Expr::Event(_) | Expr::SubCond(..) | Expr::SubEvent(..) => {
                    "a pred, situation or event is recomputed where it is read: give the value \
                     you need a flag state (`flag f; f = cond;`) and write `prev(f)`"
                }
                _ => "name a variable: `prev(x)`, not an expression or a submodel's value",
            }),
        );
        (x, ty)
    }

    pub(super) fn path(&mut self, path: &[Name], span: Span, ctx: Ctx) -> (Expr, Ty) {
        let first = &path[0];
        let bad = (Expr::Num(0.0), Ty::Real);
        if path.len() == 1 {
            match first.text.as_str() {
                "time" | "dt" => {
                    if ctx != Ctx::Rule {
                        self.not_here(first, ctx, "the clock");
                        return bad;
                    }
                    return (
                        if first.text == "time" {
                            Expr::Time
                        } else {
                            Expr::Dt
                        },
                        Ty::Real,
                    );
                }
                _ => {}
            }
            let sym = self.t().names.get(&first.text).copied();
            return match sym {
                Some(Sym::Var(v)) => {
                    let var = &self.t().vars[v];
                    let allowed = matches!(
                        (ctx, var.kind),
                        (Ctx::Rule, _) | (_, VarKind::Param { .. }) | (Ctx::Init, VarKind::Input)
                    );
                    if !allowed {
                        let what = match var.kind {
                            VarKind::Input => "an input",
                            _ => "a state",
                        };
                        self.not_here(first, ctx, what);
                        return bad;
                    }
                    (Expr::Var(v), var.ty)
                }
                Some(Sym::Cond(c)) => {
                    if ctx != Ctx::Rule {
                        self.not_here(first, ctx, "a condition");
                        return (Expr::Bool(false), Ty::Flag);
                    }
                    (Expr::Cond(c), Ty::Flag)
                }
                Some(Sym::Event(ev)) => {
                    if ctx != Ctx::Rule {
                        self.not_here(first, ctx, "an event");
                        return (Expr::Bool(false), Ty::Flag);
                    }
                    (Expr::Event(ev), Ty::Flag)
                }
                Some(Sym::Mode(m)) => {
                    let mode = self.t().modes[m].clone();
                    self.bare_mode(first, &mode);
                    (Expr::Bool(false), Ty::Flag)
                }
                Some(Sym::Sub(_)) => {
                    self.err(
                        Diagnostic::error(
                            "E0140",
                            first.span,
                            format!("`{}` is a submodel, not a value", first.text),
                        )
                        .with_label("a submodel")
                        .with_help(format!(
                            "read one of its outputs, as in `{0}.x`, or its switch `{0}.on`",
                            first.text
                        )),
                    );
                    bad
                }
                None => {
                    self.unknown(first, ctx);
                    bad
                }
            };
        }
        // Dotted path: a direct submodel's output or switch.
        let sym = self.t().names.get(&first.text).copied();
        let s = match sym {
            Some(Sym::Sub(s)) => s,
            None => {
                self.unknown(first, ctx);
                return bad;
            }
            Some(_) => {
                self.not_a_submodel(first);
                return bad;
            }
        };
        if ctx != Ctx::Rule {
            self.not_here(first, ctx, "a submodel's variable");
            return bad;
        }
        if path.len() > 2 {
            self.err(
                Diagnostic::error(
                    "E0142",
                    span,
                    format!(
                        "`{}` reaches into a submodel of a submodel",
                        path.iter()
                            .map(|n| n.text.as_str())
                            .collect::<Vec<_>>()
                            .join(".")
                    ),
                )
                .with_label("only the outputs of direct submodels are visible")
                .with_help(format!(
                    "declare an output in the model of `{}` that copies `{}`, and read that",
                    first.text,
                    path[1..]
                        .iter()
                        .map(|n| n.text.as_str())
                        .collect::<Vec<_>>()
                        .join(".")
                )),
            );
            return bad;
        }
        let member = &path[1];
        if member.text == "on" {
            return (Expr::SubOn(s), Ty::Flag);
        }
        if member.text == "time" {
            return (Expr::SubTime(s), Ty::Real);
        }
        let Some(child) = self.sub_models[self.this][s] else {
            // The unknown model is reported (E0120, or the failed import it
            // may be in): an error here only follows from it.
            self.unknown_reads += 1;
            return bad;
        };
        let ct = &self.tables[child];
        let model_name = self.t().subs[s].model.text.clone();
        match ct.names.get(&member.text).copied() {
            Some(sym) => {
                let (output, x, ty) = match sym {
                    Sym::Var(v) => (ct.vars[v].output, Expr::SubVar(s, v), ct.vars[v].ty),
                    Sym::Cond(c) => (ct.conds[c].output, Expr::SubCond(s, c), Ty::Flag),
                    Sym::Event(ev) => (ct.events[ev].output, Expr::SubEvent(s, ev), Ty::Flag),
                    Sym::Sub(_) => (false, Expr::Num(0.0), Ty::Real),
                    Sym::Mode(md) if ct.modes[md].output => {
                        self.bare_sub_mode(s, member);
                        return (Expr::Bool(false), Ty::Flag);
                    }
                    Sym::Mode(_) => (false, Expr::Num(0.0), Ty::Real),
                };
                if !output {
                    self.err(
                        Diagnostic::error(
                            "E0143",
                            member.span,
                            format!("`{}` of `{}` is not an output", member.text, first.text),
                        )
                        .with_label("private to the submodel")
                        .with_help(format!(
                            "declare it `output` in model `{model_name}` to read it from here"
                        )),
                    );
                    return bad;
                }
                (x, ty)
            }
            None => {
                let outputs: Vec<&str> = ct
                    .vars
                    .iter()
                    .filter(|v| v.output)
                    .map(|v| v.name.as_str())
                    .chain(
                        ct.conds
                            .iter()
                            .filter(|c| c.output)
                            .map(|c| c.name.as_str()),
                    )
                    .chain(
                        ct.events
                            .iter()
                            .filter(|c| c.output)
                            .map(|c| c.name.as_str()),
                    )
                    .collect();
                let mut d = Diagnostic::error(
                    "E0101",
                    member.span,
                    format!(
                        "`{}` (model `{model_name}`) has no variable `{}`",
                        first.text, member.text
                    ),
                )
                .with_label("unknown name");
                if let Some(sug) = self.suggest(&member.text, outputs.iter().copied().chain(["on"]))
                {
                    d = d.with_help(format!("did you mean `{}.{sug}`?", first.text));
                } else if outputs.is_empty() {
                    d = d.with_note(format!("`{model_name}` has no outputs"));
                } else {
                    d = d.with_note(format!(
                        "its outputs: {}",
                        crate::diag::list(outputs.iter().map(|o| format!("`{o}`")))
                    ));
                }
                self.err(d);
                bad
            }
        }
    }

    pub(super) fn not_here(&mut self, name: &Name, ctx: Ctx, what: &str) {
        let (place, allowed) = match ctx {
            Ctx::Param => ("a param's value", "constants and params"),
            Ctx::InputDefault => ("an input's default", "constants and params"),
            Ctx::Init => ("an initial value", "constants, params and inputs"),
            Ctx::Rule => ("this place", "anything"),
        };
        self.err(
            Diagnostic::error(
                "E0132",
                name.span,
                format!("{place} cannot read {what} (`{}`)", name.text),
            )
            .with_label("not known before the run starts")
            .with_note(format!("{place} may use {allowed}")),
        );
    }

    /// The submodels of this model that declare `name`, as the paths that read it
    /// (`t1.h`), in declaration order, each with its model's name when `name` is not an
    /// output there (reading it is E0143).
    fn sub_members(&self, name: &str) -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        for (s, sub) in self.t().subs.iter().enumerate() {
            let Some(child) = self.sub_models[self.this].get(s).copied().flatten() else {
                continue;
            };
            let ct = &self.tables[child];
            let output = match ct.names.get(name).copied() {
                Some(Sym::Var(v)) => ct.vars[v].output,
                Some(Sym::Cond(c)) => ct.conds[c].output,
                Some(Sym::Event(e)) => ct.events[e].output,
                Some(Sym::Mode(m)) => ct.modes[m].output,
                Some(Sym::Sub(_)) | None => continue,
            };
            let private = (!output).then(|| sub.model.text.clone());
            out.push((format!("{}.{name}", sub.name.text), private));
        }
        out
    }

    pub(super) fn unknown(&mut self, name: &Name, ctx: Ctx) {
        let t = self.t();
        // In declaration order, so that ties between suggestions are decided
        // the same way in every run (a hash map's order is random).
        let candidates: Vec<&str> = t
            .vars
            .iter()
            .map(|v| v.name.as_str())
            .chain(t.conds.iter().map(|c| c.name.as_str()))
            .chain(t.events.iter().map(|e| e.name.as_str()))
            .chain(t.subs.iter().map(|s| s.name.text.as_str()))
            .chain(["time", "dt"])
            .collect();
        let mut d = Diagnostic::error(
            "E0101",
            name.span,
            format!("unknown name `{}`", crate::diag::shorten(&name.text)),
        )
        .with_label("not declared in this model");
        let in_subs = self.sub_members(&name.text);
        if ctx == Ctx::Rule && !in_subs.is_empty() {
            let paths: Vec<String> = in_subs.iter().map(|(p, _)| format!("`{p}`")).collect();
            let paths = match &paths[..] {
                [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
                _ => paths.concat(),
            };
            d = d.with_help(format!(
                "a submodel's variable is read with its submodel's name: did you mean {paths}?"
            ));
            for (path, model) in in_subs.iter().filter(|(_, m)| m.is_some()) {
                d = d.with_note(format!(
                    "`{path}` is not an output: declare it `output` in model `{}` to read it \
                     from here",
                    model.as_deref().unwrap_or_default()
                ));
            }
        } else if let Some(s) = self.suggest(&name.text, candidates.iter().copied()) {
            d = d.with_help(format!("did you mean `{s}`?"));
        } else if ctx == Ctx::Rule {
            d = d.with_help(format!(
                "declare it, as in `real {};`",
                crate::diag::shorten(&name.text)
            ));
        }
        if Func::from_name(&name.text).is_some() || Stateful::from_name(&name.text).is_some() {
            d = d.with_note(format!(
                "`{}` is a procedure: call it as `{}(...)`",
                name.text, name.text
            ));
        }
        self.diags.push(d);
    }
}

/// The help for a procedure of another language that Sit writes otherwise
/// (`saturate(x, lo, hi)` is `limit(x, lo, hi)`), if `name` is one; `arguments` is the
/// call's text after the name (`(v, 0, 1)`), quoted in the help when there are `n` of
/// them, as the Sit procedure takes, and it is short.
fn other_language(name: &str, n: usize, arguments: &str) -> Option<String> {
    let (sit, what) = match name {
        "saturate" | "saturation" | "sat" | "clamp" | "clip" | "limiter" | "bound" => {
            if n == 3 && arguments.len() <= 40 && !arguments.contains('\n') {
                return Some(format!(
                    "Sit writes `{name}` as `limit`, which clamps its first argument to \
                     `[lo, hi]`: `limit{arguments}`"
                ));
            }
            ("limit(x, lo, hi)", "clamps `x` to `[lo, hi]`")
        }
        "log" => (
            "ln(x)",
            "is the natural logarithm (`log10(x)` the decimal one)",
        ),
        "sgn" | "signum" => ("sign(x)", "is −1, 0 or 1"),
        "fabs" => ("abs(x)", "is the absolute value"),
        "power" => ("x ^ y", "is a power (also `pow(x, y)`)"),
        "fmin" | "minimum" => ("min(a, b)", "is the smaller value"),
        "fmax" | "maximum" => ("max(a, b)", "is the larger value"),
        _ => return None,
    };
    Some(format!("Sit writes `{name}` as `{sit}`, which {what}"))
}
