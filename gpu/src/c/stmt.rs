//! The statements of a lowered step as C, in the order of the lowering (`sit_lir`).

use super::expr::{ExprGen, num};
use super::{Out, Unsupported};
use sit_lir::{self as lower, Assign, Proc, Stmt};

/// Writes the statements of one model's functions (`s` is the instance, `f` the fault,
/// `dt` the step's length).
pub(crate) struct StmtGen<'a> {
    /// Terms of the model, read through `s->`.
    pub g: ExprGen<'a>,
    /// The model lowered.
    pub low: &'a lower::Model,
    /// Whether the step writes its `dt` (`Stmt::SetDt`): the procedures then read the
    /// field, not the argument.
    pub sets_dt: bool,
    /// Locals made so far (for unique names in nested loops).
    pub locals: usize,
}

impl StmtGen<'_> {
    /// The step of a submodel switched on: its input bindings, then its step by `dt`.
    pub(crate) fn step_sub(&mut self, link: &lower::SubLink, dt: &str, out: &mut Out) {
        out.open(format!("if (s->on{}) {{", link.sub));
        for b in &link.inputs {
            let value = self.g.expr(&b.value);
            out.line(format!("s->s{}.v{} = {value};", link.sub, b.var));
        }
        out.line(format!(
            "sit_m{}_step(&s->s{}, {dt}, f); if (f->code) return;",
            link.model, link.sub
        ));
        out.close("}");
    }

    /// Appends `body` to `out`.
    pub(crate) fn stmts(&mut self, body: &[Stmt], out: &mut Out) -> Result<(), Unsupported> {
        body.iter().try_for_each(|s| self.stmt(s, out))
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Out) -> Result<(), Unsupported> {
        match s {
            Stmt::Assign(a) => self.assign(a, out),
            Stmt::Otherwise { assign, fired } => {
                out.open(format!("if (!fired_{fired}) {{"));
                self.assign(assign, out);
                out.close("}");
            }
            Stmt::If { cond, then, .. } => {
                out.open(format!("if ({}) {{", self.g.expr(cond)));
                self.stmts(then, out)?;
                out.close("}");
            }
            Stmt::SetFlag { var, value, .. } => {
                out.line(format!("s->v{var} = {};", *value as u8));
            }
            Stmt::Switch { sub, on, .. } => out.line(format!("s->on{sub} = {};", *on as u8)),
            Stmt::SetMode { mode, state, .. } => out.line(format!("s->mode{mode} = {state};")),
            Stmt::Reset { sub, .. } => self.reset_sub(&self.low.subs[*sub], out),
            Stmt::Step { sub, .. } => self.step_sub(&self.low.subs[*sub], "s->dt", out),
            Stmt::Run { sub, .. } => {
                let phase = lower::find_phase(&self.low.phases, *sub)
                    .map_err(|e| Unsupported::Malformed(e.to_string()))?;
                self.phase(phase, out);
            }
            Stmt::Factor { method, .. } | Stmt::Underflow { method, .. } => {
                return Err(Unsupported::Method(method));
            }
            // Its factorisation comes first, and is refused above.
            Stmt::Solve { .. } => {
                return Err(Unsupported::Malformed(
                    "a stage solve before its factorisation".into(),
                ));
            }
            Stmt::Repeat {
                body,
                until,
                count,
                limit,
                at_limit,
                clear,
                events,
                ..
            } => {
                out.open("for (;;) {");
                self.stmts(body, out)?;
                for k in clear {
                    out.line(format!("fired_{k} = 0;"));
                }
                if let Some((e, most)) = events {
                    out.open(format!("if (s->v{e} > {}) {{", num(*most as f64)));
                    fault(out, "SIT_FAULT_EVENTS");
                    out.close("}");
                }
                out.line(format!("if ({}) break;", self.g.expr(until)));
                out.open(format!("if (s->v{count} >= {}) {{", num(*limit as f64)));
                match at_limit {
                    lower::AtLimit::Fault => fault(out, "SIT_FAULT_INTERNAL_STEPS"),
                    lower::AtLimit::Leave => out.line("break;"),
                }
                out.close("}");
                out.close("}");
            }
            Stmt::SetDt { value, .. } => out.line(format!("s->dt = {};", self.g.expr(value))),
            Stmt::NoteModes { .. } => self.note_modes(out),
            Stmt::Event(ev) => {
                let e = ev.event;
                out.line(format!(
                    "s->ev{e} = sit_rising({}, &s->evp{e});",
                    self.g.expr(&ev.cond)
                ));
            }
        }
        Ok(())
    }

    /// Each mode read at the start of the step notes its state.
    pub(crate) fn note_modes(&self, out: &mut Out) {
        for md in self.low.modes.iter().filter(|md| md.snapshot) {
            out.line(format!("s->mstart{0} = s->mode{0};", md.mode));
        }
    }

    /// `target = proc(operands)`, then its `otherwise` flag.
    fn assign(&mut self, a: &Assign, out: &mut Out) {
        let y = format!("s->v{}", a.target);
        let dt = if self.sets_dt { "s->dt" } else { "dt" };
        let ops: Vec<String> = a.operands.iter().map(|t| self.g.expr(t)).collect();
        let rhs = match (a.proc, a.proc.runtime()) {
            (Proc::Deriv { mem }, _) => format!("sit_deriv_next(&s->mem{mem}, {}, {dt})", ops[0]),
            (Proc::Expr, _) | (_, None) => ops[0].clone(),
            (p, Some(f)) => {
                let mut args = Vec::new();
                if p.reads_target() {
                    args.push(y.clone());
                }
                args.extend(ops);
                if p.takes_dt() {
                    args.push(dt.to_string());
                }
                format!("sit_{f}({})", args.join(", "))
            }
        };
        out.line(format!("{y} = {rhs};"));
        if let Some(k) = a.sets {
            out.line(format!("fired_{k} = 1;"));
        }
    }

    /// A submodel's param bindings, then its reset.
    pub(crate) fn reset_sub(&self, link: &lower::SubLink, out: &mut Out) {
        for b in &link.params {
            let value = self.g.expr(&b.value);
            out.line(format!("s->s{}.v{} = {value};", link.sub, b.var));
        }
        out.line(format!(
            "sit_m{}_reset(&s->s{}, f); if (f->code) return;",
            link.model, link.sub
        ));
    }

    /// One run of an instantaneous phase: bindings, reset, steps of its own `dt` until
    /// its condition holds, a fault at its limit.
    fn phase(&mut self, phase: &lower::PhaseLink, out: &mut Out) {
        self.locals += 1;
        let k = self.locals;
        out.open("{");
        for b in &phase.binds {
            let value = self.g.expr(&b.value);
            out.line(format!("s->s{}.v{} = {value};", phase.sub, b.var));
        }
        let (m, sub) = (phase.model, phase.sub);
        out.line(format!(
            "sit_m{m}_reset(&s->s{sub}, f); if (f->code) return;"
        ));
        out.line(format!("sit_real h{k} = {};", num(phase.step)));
        out.line(format!("unsigned long long steps{k} = 0;"));
        out.open("for (;;) {");
        out.line(format!(
            "sit_m{m}_step(&s->s{sub}, h{k}, f); if (f->code) return;"
        ));
        out.line(format!("steps{k} += 1;"));
        out.line(format!("if ({}) break;", self.g.expr(&phase.until)));
        out.open(format!("if (steps{k} == {}ULL) {{", phase.limit));
        fault(out, "SIT_FAULT_PHASE");
        out.close("}");
        out.close("}");
        out.close("}");
    }
}

/// Stops the run: the fault's code and the model's time, then out of the function.
pub(crate) fn fault(out: &mut Out, code: &str) {
    out.line(format!("f->code = {code}; f->time = s->time; return;"));
}
