//! The tangent pass written as plain rules into hidden states, so that every back end evaluates an implicit method's Jacobian alike: the procedures' slopes as calls of `sit_runtime::partial` ([`crate::ir::Func::Partial`]), the lookup tables' as reads of `sit_runtime::table::slope1`/`slope2_x`/`slope2_y` ([`crate::ir::Expr::TableSlope`]).

use super::{Jacobian, Slope, Tangent, Target};
use crate::build::{assign, num, var};
use crate::hidden::Hidden;
use crate::ir::{Assign, Expr, Func, Model, Partial, Rhs, Split, Stmt, VarId};
use crate::pass::Stage;
use crate::rewrite;
use std::collections::{BTreeMap, HashSet};

/// The hidden states an implicit method's Jacobian is written into: per staged target
/// and column its tangent `TARGET_METHOD_d_COL`, per rate row and column of the pattern
/// its entry `ROW_METHOD_J_COL`, in the order the pass writes them.
pub(crate) struct Cells {
    /// Per staged target and column, the hidden state of its tangent.
    pub(crate) tangents: BTreeMap<(VarId, usize), VarId>,
    /// Per rate row and column of the pattern, the hidden state of the entry.
    pub(crate) entries: BTreeMap<(usize, usize), VarId>,
}

impl Cells {
    /// The cells of `jac` (the pass of `hid`'s model split as `sp`) for `method`, the
    /// columns named by `col_name`.
    pub(crate) fn new(
        hid: &mut Hidden<'_>,
        jac: &Jacobian,
        sp: &Split,
        method: &str,
        col_name: &dyn Fn(usize) -> String,
    ) -> Cells {
        let m = hid.m;
        let span = m.span;
        let name = |v: VarId| m.vars[v].name.clone();
        let mut written = Vec::new();
        cells(&jac.pass, &mut written);
        let mut tangents = BTreeMap::new();
        let mut entries = BTreeMap::new();
        for &(target, col) in &written {
            match target {
                Target::Var(v) => {
                    let x = hid.new_var(
                        format!("{}_{method}_d_{}", name(v), col_name(col)),
                        format!(" d {}/d {} ({method}'s Jacobian).", name(v), col_name(col)),
                        span,
                    );
                    tangents.insert((v, col), x);
                }
                Target::Rate(i) => {
                    let row = name(sp.states[i].0);
                    let x = hid.new_var(
                        format!("{row}_{method}_J_{}", col_name(col)),
                        format!(" d rate({row})/d {} ({method}'s Jacobian).", col_name(col)),
                        span,
                    );
                    entries.insert((i, col), x);
                }
            }
        }
        Cells { tangents, entries }
    }

    /// The pass on the states as they are, `time` reading `time + t`: every cell
    /// cleared, then the tangent pass of `jac`, its `otherwise` flags shifted by
    /// `offset`.
    pub(crate) fn pass(
        &self,
        (m, sp): (&Model, &Split),
        jac: &Jacobian,
        t: VarId,
        offset: usize,
    ) -> Vec<rewrite::Stmt> {
        let span = m.span;
        let mut out: Vec<rewrite::Stmt> = (self.tangents.values().chain(self.entries.values()))
            .map(|&x| assign(x, num(0.0), None, span))
            .collect();
        let start = Stage {
            m,
            sp,
            node: Some(var(t)),
            offset: 0,
            rate: &|_| None,
        };
        let at = |e: &Expr| start.expr(e);
        let states: Vec<VarId> = sp.states.iter().map(|&(v, _)| v).collect();
        out.extend(
            Rules {
                jac,
                tangents: &self.tangents,
                entries: &self.entries,
                states: &states,
                at: &at,
                offset,
                span,
            }
            .stmts(),
        );
        out
    }
}

/// Where the tangent pass of one model writes, and how its values read `time`.
pub(crate) struct Rules<'a> {
    /// The pass (with a `time` column when the model reads `time`).
    pub(crate) jac: &'a Jacobian,
    /// Per staged target and column, the hidden state of its tangent.
    pub(crate) tangents: &'a BTreeMap<(VarId, usize), VarId>,
    /// Per rate row and column of the pattern, the hidden state of the entry.
    pub(crate) entries: &'a BTreeMap<(usize, usize), VarId>,
    /// The continuous states, by row (a rule of a rate that only sets its flag
    /// writes its state unchanged).
    pub(crate) states: &'a [VarId],
    /// A value as written, read at the pass's point (`time` at its node).
    pub(crate) at: &'a dyn Fn(&Expr) -> Expr,
    /// The `otherwise` flags of the pass are the model's shifted by this.
    pub(crate) offset: usize,
    /// The span of the statements written.
    pub(crate) span: crate::Span,
}

impl Rules<'_> {
    /// The statements: per rule, its tangent column by column (each slope evaluated
    /// before the rule's value is written), then its value (a stage rule's) or, for a
    /// rate rule that sets an `otherwise` flag, its state written unchanged with it.
    pub(crate) fn stmts(&self) -> Vec<rewrite::Stmt> {
        self.pass(&self.jac.pass)
    }

    fn pass(&self, pass: &[Tangent]) -> Vec<rewrite::Stmt> {
        let mut out = Vec::new();
        for t in pass {
            match t {
                Tangent::If { cond, then } => {
                    let then = self.pass(then);
                    if !then.is_empty() {
                        out.push(Stmt::If {
                            cond: (self.at)(cond),
                            then,
                            span: self.span,
                        });
                    }
                }
                Tangent::Rule {
                    target,
                    value,
                    slopes,
                    sets,
                    otherwise,
                } => {
                    let flag = otherwise.map(|k| k + self.offset);
                    let put =
                        |out: &mut Vec<rewrite::Stmt>, v: VarId, e: Expr, sets: Option<usize>| {
                            let assign = Assign {
                                target: v,
                                rhs: Rhs::Expr(e),
                                fired: sets,
                                span: self.span,
                            };
                            out.push(match flag {
                                Some(fired) => Stmt::Otherwise { assign, fired },
                                None => Stmt::Assign(assign),
                            });
                        };
                    for (col, s) in slopes {
                        let e = s.as_ref().map_or(Expr::Num(0.0), |s| self.slope(s, *col));
                        put(&mut out, self.cell(*target, *col), e, None);
                    }
                    let sets = sets.map(|k| k + self.offset);
                    match target {
                        Target::Var(v) => put(&mut out, *v, (self.at)(value), sets),
                        Target::Rate(i) if sets.is_some() => {
                            put(&mut out, self.states[*i], Expr::Var(self.states[*i]), sets);
                        }
                        Target::Rate(_) => {}
                    }
                }
            }
        }
        out
    }

    /// The hidden state of `target`'s tangent in column `col`.
    fn cell(&self, target: Target, col: usize) -> VarId {
        match target {
            Target::Var(v) => self.tangents[&(v, col)],
            Target::Rate(i) => self.entries[&(i, col)],
        }
    }

    fn slope(&self, s: &Slope, col: usize) -> Expr {
        let b = |a: &Slope| Box::new(self.slope(a, col));
        match s {
            Slope::Num(x) => Expr::Num(*x),
            Slope::Value(e) => (self.at)(e),
            Slope::Tangent(t) => Expr::Var(self.cell(*t, col)),
            Slope::Neg(a) => Expr::Neg(b(a)),
            Slope::Arith(op, x, y) => Expr::Arith(*op, b(x), b(y)),
            Slope::Partial(f, k, xs) => {
                let p = Partial::of(*f, *k).expect("a slope the Jacobian wrote has its function");
                Expr::Call(Func::Partial(p), xs.iter().map(|x| (self.at)(x)).collect())
            }
            Slope::Table(t, k, xs) => {
                Expr::TableSlope(t.clone(), *k, xs.iter().map(|x| (self.at)(x)).collect())
            }
        }
    }
}

/// The cells the pass writes: per staged target its columns, per rate row its
/// columns (the pattern, with the `time` column when there is one), in pass order.
pub(crate) fn cells(pass: &[Tangent], out: &mut Vec<(Target, usize)>) {
    let mut seen: HashSet<(Target, usize)> = out.iter().copied().collect();
    collect(pass, out, &mut seen);
}

/// [`cells`], with the cells already listed in `seen` (a set, so that the walk is
/// linear in the pass: a search of `out` made it quadratic in the states).
fn collect(pass: &[Tangent], out: &mut Vec<(Target, usize)>, seen: &mut HashSet<(Target, usize)>) {
    for t in pass {
        match t {
            Tangent::If { then, .. } => collect(then, out, seen),
            Tangent::Rule { target, slopes, .. } => {
                for &(col, _) in slopes {
                    if seen.insert((*target, col)) {
                        out.push((*target, col));
                    }
                }
            }
        }
    }
}
