//! A compact, readable text form of the checked IR (for `sitc check --ir` and snapshots).

use crate::ir::*;
use std::fmt::Write as _;

impl Program {
    /// The program as indented text: one block per model, names resolved,
    /// every guard and rule with its source line.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for m in &self.models {
            Printer {
                p: self,
                m,
                out: &mut out,
            }
            .model();
        }
        out
    }

    /// `e`, an expression of model `m`, in the compact text of [`Program::dump`].
    pub fn expr_text(&self, m: ModelId, e: &Expr) -> String {
        let mut out = String::new();
        Printer {
            p: self,
            m: &self.models[m],
            out: &mut out,
        }
        .expr(e)
    }
}

struct Printer<'a> {
    p: &'a Program,
    m: &'a Model,
    out: &'a mut String,
}

impl Printer<'_> {
    fn line(&self, span: crate::source::Span) -> usize {
        self.p.sources.line(span)
    }

    fn model(&mut self) {
        let m = self.m;
        let _ = writeln!(self.out, "model {} (line {})", m.name, self.line(m.span));
        for v in &m.vars {
            let kind = match v.kind {
                VarKind::Param { derived: true } => "param (derived)",
                VarKind::Param { derived: false } => "param",
                VarKind::Input => "input",
                VarKind::State => "state",
            };
            let ty = match v.ty {
                Ty::Real => "real",
                Ty::Flag => "flag",
            };
            let out = if v.output { "output " } else { "" };
            let init = self.expr(&v.init);
            let _ = writeln!(self.out, "  {out}{kind} {ty} {} = {init}", v.name);
        }
        for c in &m.conds {
            let kind = match c.kind {
                CondKind::Pred => "pred",
                CondKind::Situation => "situation",
            };
            let out = if c.output { "output " } else { "" };
            let e = self.expr(&c.expr);
            let _ = writeln!(self.out, "  {out}{kind} {} = {e}", c.name);
        }
        for ev in &m.events {
            let out = if ev.output { "output " } else { "" };
            let e = self.expr(&ev.cond);
            let _ = writeln!(self.out, "  {out}event {} = rising({e})", ev.name);
        }
        for md in &m.modes {
            let out = if md.output { "output " } else { "" };
            let states = md.states.join(", ");
            let _ = writeln!(self.out, "  {out}mode {} {{ {states} }}", md.name);
        }
        if let Some(ss) = &m.substeps {
            let (n, c) = (self.expr(&ss.count), self.expr(&ss.when));
            let _ = writeln!(self.out, "  substeps {n} when {c} limit {}", ss.limit);
        }
        for s in &m.subs {
            let model = &self.p.models[s.model];
            let mut binds = Vec::new();
            for b in &s.param_bindings {
                binds.push(format!(
                    "param {} = {}",
                    model.vars[b.var].name,
                    self.expr(&b.value)
                ));
            }
            for b in &s.input_bindings {
                binds.push(format!(
                    "input {} = {}",
                    model.vars[b.var].name,
                    self.expr(&b.value)
                ));
            }
            let off = match &s.phase {
                Some(ph) => format!(
                    " phase step {:?} limit {} until {}",
                    ph.step,
                    ph.limit,
                    self.expr(&ph.until)
                ),
                None if s.initially_on => String::new(),
                None => " off".to_string(),
            };
            let _ = writeln!(
                self.out,
                "  sub {}: {}({}){off}",
                s.name,
                model.name,
                binds.join(", ")
            );
        }
        for (i, mem) in m.memories.iter().enumerate() {
            let _ = writeln!(
                self.out,
                "  memory #{i}: {:?} (line {})",
                mem.kind,
                self.line(mem.span)
            );
        }
        let _ = writeln!(self.out, "  step:");
        let body = m.body.clone();
        self.stmts(&body, 2);
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) {
        let pad = "  ".repeat(depth);
        for s in stmts {
            match s {
                Stmt::Assign(a) => {
                    let t = self.assign(a);
                    let _ = writeln!(self.out, "{pad}{t}");
                }
                Stmt::Otherwise { assign, fired } => {
                    let t = self.assign(assign);
                    let _ = writeln!(self.out, "{pad}unless fired#{fired}: {t}");
                }
                Stmt::If { cond, then, span } => {
                    let c = self.expr(cond);
                    let _ = writeln!(self.out, "{pad}when {c}: (line {})", self.line(*span));
                    self.stmts(then, depth + 1);
                }
                Stmt::SetFlag { var, value, span } => {
                    let n = &self.m.vars[*var].name;
                    let _ = writeln!(self.out, "{pad}{n} := {value} (line {})", self.line(*span));
                }
                Stmt::Switch { sub, on, span } => {
                    let n = &self.m.subs[*sub].name;
                    let _ = writeln!(self.out, "{pad}{n}.on := {on} (line {})", self.line(*span));
                }
                Stmt::SetMode { mode, state, span } => {
                    let md = &self.m.modes[*mode];
                    let st = &md.states[*state];
                    let _ = writeln!(
                        self.out,
                        "{pad}{} := {st} (line {})",
                        md.name,
                        self.line(*span)
                    );
                }
                Stmt::Reset { sub, span } => {
                    let n = &self.m.subs[*sub].name;
                    let _ = writeln!(self.out, "{pad}reset {n} (line {})", self.line(*span));
                }
                Stmt::Run { sub, span } => {
                    let n = &self.m.subs[*sub].name;
                    let _ = writeln!(self.out, "{pad}run {n} (line {})", self.line(*span));
                }
                Stmt::Step { sub, span } => {
                    let n = &self.m.subs[*sub].name;
                    let _ = writeln!(self.out, "{pad}step {n} (line {})", self.line(*span));
                }
                Stmt::Added(x) => match *x {},
            }
        }
    }

    fn assign(&self, a: &Assign) -> String {
        let t = &self.m.vars[a.target].name;
        let rhs = match &a.rhs {
            Rhs::Expr(e) => self.expr(e),
            Rhs::Integral { x } => format!("integral({})", self.expr(x)),
            Rhs::IntegralLimited { x, lo, hi } => format!(
                "integral({}, {}, {})",
                self.expr(x),
                self.expr(lo),
                self.expr(hi)
            ),
            Rhs::Lag { x, t, k } => {
                format!("lag({}, {}, {})", self.expr(x), self.expr(t), self.expr(k))
            }
            Rhs::Deriv { x, mem } => format!("deriv#{mem}({})", self.expr(x)),
            Rhs::Hysteresis { x, lo, hi, a } => format!(
                "hysteresis({}, {}, {}, {})",
                self.expr(x),
                self.expr(lo),
                self.expr(hi),
                self.expr(a)
            ),
            Rhs::Timer { c } => format!("timer({})", self.expr(c)),
        };
        let fired = a
            .fired
            .map(|f| format!(" [sets fired#{f}]"))
            .unwrap_or_default();
        format!("{t} := {rhs}{fired} (line {})", self.line(a.span))
    }

    fn expr(&self, e: &Expr) -> String {
        let m = self.m;
        let sub_model = |s: usize| &self.p.models[m.subs[s].model];
        match e {
            Expr::Num(v) => format!("{v:?}"),
            Expr::Bool(b) => b.to_string(),
            Expr::Var(v) => m.vars[*v].name.clone(),
            Expr::Cond(c) => m.conds[*c].name.clone(),
            Expr::Event(ev) => m.events[*ev].name.clone(),
            Expr::SubVar(s, v) => format!("{}.{}", m.subs[*s].name, sub_model(*s).vars[*v].name),
            Expr::SubCond(s, c) => {
                format!("{}.{}", m.subs[*s].name, sub_model(*s).conds[*c].name)
            }
            Expr::SubEvent(s, ev) => {
                format!("{}.{}", m.subs[*s].name, sub_model(*s).events[*ev].name)
            }
            Expr::SubOn(s) => format!("{}.on", m.subs[*s].name),
            Expr::SubTime(s) => format!("{}.time", m.subs[*s].name),
            Expr::InMode(md, k) => {
                format!("({} == {})", m.modes[*md].name, m.modes[*md].states[*k])
            }
            Expr::ModeAtStart(md, k) => {
                format!(
                    "({}@start == {})",
                    m.modes[*md].name, m.modes[*md].states[*k]
                )
            }
            Expr::SubInMode(s, md, k) => {
                let sm = &sub_model(*s).modes[*md];
                format!("({}.{} == {})", m.subs[*s].name, sm.name, sm.states[*k])
            }
            Expr::Prev(v) => format!("prev({})", m.vars[*v].name),
            Expr::Time => "time".into(),
            Expr::Dt => "dt".into(),
            Expr::Neg(a) => format!("-{}", self.expr(a)),
            Expr::Not(a) => format!("!{}", self.expr(a)),
            Expr::Arith(op, a, b) => {
                let o = op.symbol();
                format!("({} {o} {})", self.expr(a), self.expr(b))
            }
            Expr::Cmp(op, a, b) => {
                let o = match op {
                    CmpOp::Lt => "<",
                    CmpOp::Le => "<=",
                    CmpOp::Gt => ">",
                    CmpOp::Ge => ">=",
                    CmpOp::Eq => "==",
                    CmpOp::Ne => "!=",
                };
                format!("({} {o} {})", self.expr(a), self.expr(b))
            }
            Expr::And(a, b) => format!("({} & {})", self.expr(a), self.expr(b)),
            Expr::Or(a, b) => format!("({} | {})", self.expr(a), self.expr(b)),
            Expr::Call(f, xs) => format!(
                "{}({})",
                f.name(),
                xs.iter()
                    .map(|x| self.expr(x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::Table(t, xs) => format!(
                "{}({})",
                t.name,
                xs.iter()
                    .map(|x| self.expr(x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::TableSlope(t, k, xs) => format!(
                "slope_{}({}; {})",
                k + 1,
                t.name,
                xs.iter()
                    .map(|x| self.expr(x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
