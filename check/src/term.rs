//! Expressions with every name resolved to a place of the instance tree, derived params and conditions inlined on request.
//!
//! The one expansion of preds, situations and derived params: the lowering (`sit-lower`)
//! builds every term of the lowered step with it, and the lints' guard solver
//! (`lint/logic.rs`) its formulas, within a smaller [`Budget`].

pub use sit_lir::term::{Budget, LowerError, MAX_DEPTH, MAX_OPS, Place, Reads, Slot, Term};

use crate::ir::{self, ModelId, Program, SubId};

/// Lowers the expressions of one model (see [`Reads`]), counting against a [`Budget`].
pub struct Lowerer<'p, X> {
    program: &'p Program<X>,
    reads: Reads,
    budget: Budget,
    ops: usize,
    /// Definitions being inlined around the current node.
    nesting: u32,
}

impl<'p, X> Lowerer<'p, X> {
    /// A lowerer within the back ends' [`Budget::BACK_END`].
    pub fn new(program: &'p Program<X>, reads: Reads) -> Lowerer<'p, X> {
        Lowerer::within(program, reads, Budget::BACK_END)
    }

    /// A lowerer within `budget`.
    pub fn within(program: &'p Program<X>, reads: Reads, budget: Budget) -> Lowerer<'p, X> {
        Lowerer {
            program,
            reads,
            budget,
            ops: 0,
            nesting: 0,
        }
    }

    fn model(&self, id: ModelId) -> Result<&'p ir::Model<X>, LowerError> {
        self.program
            .models
            .get(id)
            .ok_or_else(|| LowerError::Malformed(format!("no model with index {id}")))
    }

    /// `e`, written in the scope of model `model`, as a term of that scope.
    pub fn term(&mut self, model: ModelId, e: &ir::Expr) -> Result<Term, LowerError> {
        let mut path = Vec::new();
        self.go(model, &mut path, e, 0)
    }

    /// Each of `args` lowered in order.
    fn each(
        &mut self,
        model: ModelId,
        path: &mut Vec<SubId>,
        args: &[ir::Expr],
        depth: u32,
    ) -> Result<Vec<Term>, LowerError> {
        args.iter()
            .map(|a| self.go(model, path, a, depth))
            .collect()
    }

    /// The arguments of a read of table `t` (of its slope along argument `slope`),
    /// lowered, after checking that there is one per grid (and that the slope's axis
    /// is one of them).
    fn table_args(
        &mut self,
        model: ModelId,
        path: &mut Vec<SubId>,
        t: &ir::LookupTable,
        slope: Option<usize>,
        args: &[ir::Expr],
        depth: u32,
    ) -> Result<Vec<Term>, LowerError> {
        if args.len() != t.grids.len() || slope.is_some_and(|k| k >= args.len()) {
            let what = match slope {
                Some(k) => format!("slope {k} of table"),
                None => "table".to_string(),
            };
            return Err(LowerError::Malformed(format!(
                "{what} `{}` read with {} arguments",
                t.name,
                args.len()
            )));
        }
        self.each(model, path, args, depth)
    }

    /// `e` in the scope of `model`, reached from the reading instance through `path`.
    fn go(
        &mut self,
        model: ModelId,
        path: &mut Vec<SubId>,
        e: &ir::Expr,
        depth: u32,
    ) -> Result<Term, LowerError> {
        use ir::Expr as E;
        let Budget {
            depth: max_depth,
            ops: max_ops,
            nesting: max_nesting,
            written,
        } = self.budget;
        if written || self.nesting > 0 {
            self.ops += 1;
        }
        if depth > max_depth {
            return Err(LowerError::TooLarge(format!(
                "an expression is nested more than {max_depth} levels deep once derived \
                 params and conditions are inlined where they are read"
            )));
        }
        if self.ops > max_ops {
            return Err(LowerError::TooLarge(format!(
                "the expressions expand to more than {max_ops} operations once derived \
                 params and conditions are inlined where they are read"
            )));
        }
        if self.nesting > max_nesting {
            return Err(LowerError::TooLarge(format!(
                "derived params and conditions nest more than {max_nesting} deep"
            )));
        }
        let m = self.model(model)?;
        let d = depth + 1;
        let place = |path: &[SubId], slot| Place {
            path: path.to_vec(),
            slot,
        };
        let boxed = |t: Result<Term, LowerError>| t.map(Box::new);
        Ok(match e {
            E::Num(x) => Term::Num(*x),
            E::Bool(b) => Term::Bool(*b),
            E::Var(v) => {
                let var = get(&m.vars, *v, "variable")?;
                match (var.is_derived(), self.reads) {
                    (false, _) => Term::Read(place(path, Slot::Var(*v))),
                    (true, Reads::Named) => Term::Derived(place(path, Slot::Var(*v))),
                    (true, Reads::Inline) => self.inline(|l| l.go(model, path, &var.init, d))?,
                }
            }
            E::Cond(c) => {
                let cond = get(&m.conds, *c, "condition")?;
                match self.reads {
                    Reads::Named => Term::Cond(path.clone(), *c),
                    Reads::Inline => self.inline(|l| l.go(model, path, &cond.expr, d))?,
                }
            }
            E::Event(ev) => {
                get(&m.events, *ev, "event")?;
                Term::Read(place(path, Slot::Event(*ev)))
            }
            E::InMode(md, k) | E::ModeAtStart(md, k) => {
                let mode = get(&m.modes, *md, "mode")?;
                get(&mode.states, *k, "state")?;
                let slot = if matches!(e, E::InMode(..)) {
                    Slot::Mode(*md)
                } else if path.is_empty() {
                    Slot::ModeStart(*md)
                } else {
                    return Err(LowerError::Malformed(
                        "a mode's start-of-step state read from another instance".into(),
                    ));
                };
                Term::InMode(place(path, slot), *k)
            }
            E::SubInMode(s, md, k) => self.sub(model, path, *s, &E::InMode(*md, *k), d)?,
            E::SubOn(s) => {
                get(&m.subs, *s, "submodel")?;
                Term::Read(place(path, Slot::On(*s)))
            }
            E::SubTime(s) => self.sub(model, path, *s, &E::Time, d)?,
            E::SubVar(s, x) => self.sub(model, path, *s, &E::Var(*x), d)?,
            E::SubCond(s, x) => self.sub(model, path, *s, &E::Cond(*x), d)?,
            E::SubEvent(s, x) => self.sub(model, path, *s, &E::Event(*x), d)?,
            E::Prev(_) => {
                return Err(LowerError::Malformed(
                    "`prev` left in a lowered program (the lowering resolves it first)".into(),
                ));
            }
            E::Time => Term::Read(place(path, Slot::Time)),
            E::Dt => Term::Read(place(path, Slot::Dt)),
            E::Neg(a) => Term::Neg(boxed(self.go(model, path, a, d))?),
            E::Not(a) => Term::Not(boxed(self.go(model, path, a, d))?),
            E::Arith(op, a, b) => Term::Arith(
                *op,
                boxed(self.go(model, path, a, d))?,
                boxed(self.go(model, path, b, d))?,
            ),
            E::Cmp(op, a, b) => Term::Cmp(
                *op,
                boxed(self.go(model, path, a, d))?,
                boxed(self.go(model, path, b, d))?,
            ),
            E::And(a, b) => Term::And(
                boxed(self.go(model, path, a, d))?,
                boxed(self.go(model, path, b, d))?,
            ),
            E::Or(a, b) => Term::Or(
                boxed(self.go(model, path, a, d))?,
                boxed(self.go(model, path, b, d))?,
            ),
            E::Call(f, args) => {
                if args.len() != f.arity() {
                    return Err(LowerError::Malformed(format!(
                        "`{}` called with {} arguments",
                        f.name(),
                        args.len()
                    )));
                }
                let args = self.each(model, path, args, d)?;
                Term::Call(*f, args)
            }
            E::Table(t, args) => {
                Term::Table(t.clone(), self.table_args(model, path, t, None, args, d)?)
            }
            E::TableSlope(t, k, args) => {
                let args = self.table_args(model, path, t, Some(*k), args, d)?;
                Term::TableSlope(t.clone(), *k, args)
            }
        })
    }

    /// `lower` of the definition of a derived param or condition, where it is read:
    /// one more level of [`Budget::nesting`].
    fn inline<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> T {
        self.nesting += 1;
        let t = lower(self);
        self.nesting -= 1;
        t
    }

    /// `e` read in submodel `s` of `model`.
    fn sub(
        &mut self,
        model: ModelId,
        path: &mut Vec<SubId>,
        s: SubId,
        e: &ir::Expr,
        depth: u32,
    ) -> Result<Term, LowerError> {
        let child = get(&self.model(model)?.subs, s, "submodel")?.model;
        path.push(s);
        let t = self.go(child, path, e, depth);
        path.pop();
        t
    }
}

/// `xs[i]`, or an error naming `what`.
pub fn get<'a, T>(xs: &'a [T], i: usize, what: &str) -> Result<&'a T, LowerError> {
    xs.get(i)
        .ok_or_else(|| LowerError::Malformed(format!("{what} index {i} out of range")))
}

/// The expression `e`, written in the scope of model `model`, as a [`Term`] of that
/// scope (for what a back end evaluates outside the step: accessors, the variable list).
pub fn term<X>(
    program: &Program<X>,
    model: ModelId,
    e: &ir::Expr,
    reads: Reads,
) -> Result<Term, LowerError> {
    Lowerer::new(program, reads).term(model, e)
}

/// [`term`] within a smaller [`Budget`] than the back ends': for analyses that give up
/// quietly on what is too large for them (the lints' guard solver).
pub fn term_within<X>(
    program: &Program<X>,
    model: ModelId,
    e: &ir::Expr,
    reads: Reads,
    budget: Budget,
) -> Result<Term, LowerError> {
    Lowerer::within(program, reads, budget).term(model, e)
}
