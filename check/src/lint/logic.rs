//! Satisfiability of guards: logical formulas over atoms and comparisons, decided by brute force.
//!
//! A guard is turned into a [`Formula`] whose leaves are *atoms* (flags,
//! logical inputs, events, a submodel's logical outputs and `.on`) and
//! *comparisons* of a real *scalar* with a *threshold*. Preds, situations
//! and derived params are inlined by the shared lowering ([`crate::term`]),
//! submodels' included; an event of the model is an atom of its own and
//! implies its condition. Every comparison is normalised so that `a > b` and
//! `b < a`, or `x >= R` and `!(x < R)`, are the same comparison:
//!
//! - a number literal (or `-literal`) is a numeric threshold, and the other
//!   side is the scalar;
//! - an expression that reads only (free) params and numbers is a symbolic
//!   threshold (an unknown constant) when the other side reads anything
//!   else;
//! - otherwise the side whose structure sorts first is the scalar, the other
//!   the threshold: `a < b` and `b > a` both become "`a` below `b`".
//!
//! A scalar then takes, relative to its numeric thresholds, one of `2k+1`
//! positions (below all, at each, between consecutive ones, above all), and,
//! relative to each symbolic threshold, one of three (below, at, above),
//! independently. These are all the ways the comparisons can come out, plus
//! some that real values cannot produce (two unknown constants are treated as
//! unrelated, and NaN is ignored), so "no assignment satisfies it" is a proof
//! that the formula never holds, and "some assignment does" is a strong hint
//! that it can. Searches with more than [`MAX_COMBINATIONS`] assignments give
//! up and answer [`Sat::Unknown`].
//!
//! A solver made with `defaults` instead gives params their default values
//! (when `+ - * /` of numbers computes them), so `T <= T_low` and
//! `T >= T_high` exclude each other when `T_low < T_high` as written.

use crate::ir::{ArithOp, CmpOp, Expr, Model, ModelId, Program, Ty, VarId, VarKind};
use crate::term::{self, Budget, Place, Reads, Slot, Term};
use std::collections::HashMap;

/// The most assignments one query enumerates before giving up.
pub const MAX_COMBINATIONS: u64 = 4096;
/// The most nodes a formula may have (after expanding preds and situations).
const MAX_NODES: usize = 4000;
/// The deepest expression (after expansion) that is turned into a formula.
const MAX_DEPTH: usize = 256;
/// What one guard may cost to lower: a chain of preds each reading the one
/// before is analysed 128 deep (and gives up beyond), so that the lints stay
/// linear in the length of the chain.
const LOWERING: Budget = Budget {
    depth: term::MAX_DEPTH,
    ops: 16 * MAX_NODES,
    nesting: 128,
    written: true,
};
/// Evaluation steps (formula nodes visited) allowed per model, in total.
const BUDGET: u64 = 5_000_000;

/// The answer to "can these formulas hold at the same time?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sat {
    /// Some assignment of the atoms and scalars satisfies all of them.
    Yes,
    /// None does: they never hold together.
    No,
    /// The search was too large; nothing is claimed.
    Unknown,
}

/// Where a scalar stands relative to a threshold, as a set of the three
/// positions (below, at, above) in which a comparison holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Positions {
    below: bool,
    at: bool,
    above: bool,
}

impl Positions {
    fn of(op: CmpOp) -> Positions {
        let p = |below, at, above| Positions { below, at, above };
        match op {
            CmpOp::Lt => p(true, false, false),
            CmpOp::Le => p(true, true, false),
            CmpOp::Gt => p(false, false, true),
            CmpOp::Ge => p(false, true, true),
            CmpOp::Eq => p(false, true, false),
            CmpOp::Ne => p(true, false, true),
        }
    }

    fn holds(self, pos: Pos) -> bool {
        match pos {
            Pos::Below => self.below,
            Pos::At => self.at,
            Pos::Above => self.above,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pos {
    Below,
    At,
    Above,
}

/// A threshold: a number, or an unknown constant (index into the symbols).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Thr {
    Num(f64),
    Sym(usize),
}

/// The events whose condition is being expanded (a cycle becomes an atom).
#[derive(Default)]
struct Expanding {
    events: Vec<bool>,
}

/// A logical formula over atoms and comparisons.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula(Node);

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Const(bool),
    Atom(usize),
    Cmp(usize, Thr, Positions),
    Not(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
}

impl Formula {
    /// Whether the formula has no atom and no comparison (it is `true` or
    /// `false` by construction, e.g. `always`).
    pub fn is_constant(&self) -> bool {
        fn walk(n: &Node) -> bool {
            match n {
                Node::Const(_) => true,
                Node::Atom(_) | Node::Cmp(..) => false,
                Node::Not(a) => walk(a),
                Node::And(xs) | Node::Or(xs) => xs.iter().all(walk),
            }
        }
        walk(&self.0)
    }

    /// The negation.
    pub fn not(&self) -> Formula {
        Formula(Node::Not(Box::new(self.0.clone())))
    }

    /// The conjunction of `formulas` (`true` when there is none).
    pub fn all(formulas: &[&Formula]) -> Formula {
        Formula(Node::And(formulas.iter().map(|f| f.0.clone()).collect()))
    }
}

/// Turns the guards of one model into formulas and decides them.
pub struct Logic<'a> {
    program: &'a Program,
    id: ModelId,
    model: &'a Model,
    /// Whether params are numbers (their default values) rather than
    /// unknown constants.
    defaults: bool,
    /// Logical leaves that are not expanded further, by their term.
    atoms: Vec<Term>,
    scalars: Vec<Term>,
    symbols: Vec<Term>,
    /// The positions in `atoms`, `scalars` and `symbols`, by the
    /// expression's `Debug` text: a lookup costs the expression's size, not
    /// the number of leaves seen.
    index: [HashMap<String, usize>; 3],
    /// Conditions whose formula is too large: nothing that reads them is
    /// analysed.
    hopeless: Vec<bool>,
    expanding: Expanding,
    budget: u64,
}

impl<'a> Logic<'a> {
    /// A solver for the guards of model `id` of `program`. With `defaults`,
    /// params whose values can be computed from their defaults with
    /// `+ - * /` are numbers; otherwise every param is an unknown constant.
    pub fn new(program: &'a Program, id: ModelId, defaults: bool) -> Logic<'a> {
        let model = &program.models[id];
        Logic {
            program,
            id,
            model,
            defaults,
            atoms: Vec::new(),
            scalars: Vec::new(),
            symbols: Vec::new(),
            index: Default::default(),
            hopeless: vec![false; model.conds.len()],
            expanding: Expanding {
                events: vec![false; model.events.len()],
            },
            budget: BUDGET,
        }
    }

    /// Whether params are taken at their default values.
    pub fn defaults(&self) -> bool {
        self.defaults
    }

    /// The formula of a logical expression, or `None` when it is too large
    /// to analyse.
    pub fn formula(&mut self, e: &Expr) -> Option<Formula> {
        let mut hopeless = false;
        e.visit(&mut |x| {
            if let Expr::Cond(c) = x {
                hopeless |= self.hopeless.get(*c).copied().unwrap_or(false);
            }
        });
        if hopeless {
            return None;
        }
        let mut nodes = 0;
        // Every flag is reset on the way out of `node`, so the vectors are
        // all false between calls and are reused.
        let mut expanding = std::mem::take(&mut self.expanding);
        let f = self
            .lowered(e)
            .and_then(|t| self.node(&t, 0, &mut nodes, &mut expanding))
            .map(Formula);
        self.expanding = expanding;
        // Expanded from the top, a condition is as small and shallow as it
        // gets: if it is too large here, it is too large everywhere.
        if let (None, Expr::Cond(c)) = (&f, e)
            && let Some(h) = self.hopeless.get_mut(*c)
        {
            *h = true;
        }
        f
    }

    /// `e` with preds, situations and derived params inlined, or `None` when
    /// that is beyond [`LOWERING`].
    fn lowered(&self, e: &Expr) -> Option<Term> {
        term::term_within(self.program, self.id, e, Reads::Inline, LOWERING).ok()
    }

    fn node(
        &mut self,
        e: &Term,
        depth: usize,
        nodes: &mut usize,
        expanding: &mut Expanding,
    ) -> Option<Node> {
        *nodes += 1;
        if depth > MAX_DEPTH || *nodes > MAX_NODES {
            return None;
        }
        let d = depth + 1;
        Some(match e {
            Term::Bool(b) => Node::Const(*b),
            Term::Not(a) => Node::Not(Box::new(self.node(a, d, nodes, expanding)?)),
            Term::And(..) | Term::Or(..) => {
                let is_and = matches!(e, Term::And(..));
                // Flatten chains (`a & b & c` nests to the left) iteratively.
                let mut parts = Vec::new();
                let mut todo = vec![e];
                while let Some(x) = todo.pop() {
                    match (x, is_and) {
                        (Term::And(a, b), true) | (Term::Or(a, b), false) => {
                            todo.push(b);
                            todo.push(a);
                        }
                        _ => parts.push(self.node(x, d, nodes, expanding)?),
                    }
                    if *nodes > MAX_NODES {
                        return None;
                    }
                }
                if is_and {
                    Node::And(parts)
                } else {
                    Node::Or(parts)
                }
            }
            Term::Read(Place {
                path,
                slot: Slot::Event(ev),
            }) if path.is_empty() => {
                let event = self.model.events.get(*ev)?;
                let atom = Node::Atom(self.atom(e));
                if expanding.events[*ev] {
                    atom
                } else {
                    // An event holds only when its condition does.
                    expanding.events[*ev] = true;
                    let n = self
                        .lowered(&event.cond)
                        .and_then(|t| self.node(&t, d, nodes, expanding));
                    expanding.events[*ev] = false;
                    Node::And(vec![atom, n?])
                }
            }
            // Flags, logical inputs, `.on`, and a submodel's events.
            Term::Read(_) => Node::Atom(self.atom(e)),
            Term::Cmp(op, a, b) => self.comparison(*op, a, b),
            // A mode is a scalar at one of the numeric thresholds of its states, so
            // that two states of one mode exclude each other.
            Term::InMode(place, k) => {
                self.comparison(CmpOp::Eq, &Term::Read(place.clone()), &Term::Num(*k as f64))
            }
            // Inlined by the lowering; real-valued terms do not stand where a
            // logical value is expected in a checked program.
            Term::Derived(_)
            | Term::Cond(..)
            | Term::Num(_)
            | Term::Neg(_)
            | Term::Arith(..)
            | Term::Call(..)
            | Term::Table(..)
            | Term::TableSlope(..) => return None,
        })
    }

    fn atom(&mut self, e: &Term) -> usize {
        intern(&mut self.atoms, &mut self.index[0], e)
    }

    fn scalar(&mut self, e: &Term) -> usize {
        intern(&mut self.scalars, &mut self.index[1], e)
    }

    fn symbol(&mut self, e: &Term) -> usize {
        intern(&mut self.symbols, &mut self.index[2], e)
    }

    /// The value of a number literal, or with `defaults` of an expression
    /// of numbers and params.
    fn number(&self, e: &Term) -> Option<f64> {
        let v = if self.defaults {
            self.value(e, 0)
        } else {
            number(e)
        };
        v.filter(|x| x.is_finite())
    }

    /// The value of a term of numbers and params at the params' defaults,
    /// computed with `+ - * /` only.
    fn value(&self, e: &Term, depth: usize) -> Option<f64> {
        if depth > 32 {
            return None;
        }
        let d = depth + 1;
        Some(match e {
            Term::Num(x) => *x,
            Term::Neg(a) => -self.value(a, d)?,
            Term::Arith(op, a, b) => {
                let (x, y) = (self.value(a, d)?, self.value(b, d)?);
                match op {
                    ArithOp::Add => x + y,
                    ArithOp::Sub => x - y,
                    ArithOp::Mul => x * y,
                    ArithOp::Div => x / y,
                    ArithOp::Pow => return None,
                }
            }
            // A free param: its default (derived ones are inlined).
            Term::Read(Place {
                path,
                slot: Slot::Var(v),
            }) if path.is_empty() => {
                let var = self.model.vars.get(*v)?;
                if !matches!(var.kind, VarKind::Param { .. }) {
                    return None;
                }
                self.value(&self.lowered(&var.init)?, d)?
            }
            _ => return None,
        })
    }

    fn comparison(&mut self, op: CmpOp, a: &Term, b: &Term) -> Node {
        let (na, nb) = (self.number(a), self.number(b));
        if let (Some(x), Some(y)) = (na, nb) {
            return Node::Const(op.holds(x, y));
        }
        // Decide which side is the scalar; `flip` when it is the right one.
        let (scalar, thr, flip) = if let Some(y) = nb {
            (a, Thr::Num(y), false)
        } else if let Some(x) = na {
            (b, Thr::Num(x), true)
        } else {
            let (ca, cb) = (self.constant(a), self.constant(b));
            let a_first = match (ca, cb) {
                (false, true) => true,
                (true, false) => false,
                _ => format!("{a:?}") <= format!("{b:?}"),
            };
            if a_first {
                (a, Thr::Sym(self.symbol(b)), false)
            } else {
                (b, Thr::Sym(self.symbol(a)), true)
            }
        };
        let op = if flip {
            match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::Ge => CmpOp::Le,
                o => o,
            }
        } else {
            op
        };
        let s = self.scalar(scalar);
        Node::Cmp(s, thr, Positions::of(op))
    }

    /// Whether a term reads only numbers and params (an unknown constant
    /// for the run).
    fn constant(&self, e: &Term) -> bool {
        let mut ok = true;
        e.visit(&mut |x| match x {
            Term::Num(_)
            | Term::Neg(_)
            | Term::Arith(..)
            | Term::Call(..)
            | Term::Table(..)
            | Term::TableSlope(..) => {}
            Term::Read(Place {
                path,
                slot: Slot::Var(v),
            }) if path.is_empty() => {
                let is_param =
                    self.model.vars.get(*v).is_some_and(|v| {
                        matches!(v.kind, VarKind::Param { .. }) && v.ty == Ty::Real
                    });
                ok &= is_param;
            }
            _ => ok = false,
        });
        ok
    }

    /// `f` with the flag `var` of the model replaced by `value`: the guard
    /// as it reads after a σ action sets the flag. `None` when the flag
    /// cannot be lowered (it then is no atom of any formula either).
    pub fn with_flag(&self, f: &Formula, var: VarId, value: bool) -> Option<Formula> {
        let t = self.lowered(&Expr::Var(var))?;
        let Some(&atom) = self.index[0].get(&format!("{t:?}")) else {
            return Some(f.clone());
        };
        fn subst(n: &Node, atom: usize, value: bool) -> Node {
            match n {
                Node::Atom(a) if *a == atom => Node::Const(value),
                Node::Not(a) => Node::Not(Box::new(subst(a, atom, value))),
                Node::And(xs) => Node::And(xs.iter().map(|x| subst(x, atom, value)).collect()),
                Node::Or(xs) => Node::Or(xs.iter().map(|x| subst(x, atom, value)).collect()),
                other => other.clone(),
            }
        }
        Some(Formula(subst(&f.0, atom, value)))
    }

    /// Whether all of `formulas` can hold at the same time.
    pub fn satisfiable(&mut self, formulas: &[&Formula]) -> Sat {
        if self.budget == 0 {
            return Sat::Unknown;
        }
        let mut q = Query::default();
        for f in formulas {
            q.collect(&f.0);
        }
        let Some(total) = q.combinations() else {
            return Sat::Unknown;
        };
        let size: u64 = formulas.iter().map(|f| count(&f.0)).sum();
        let cost = total.saturating_mul(size.max(1));
        if cost > self.budget {
            self.budget = 0;
            return Sat::Unknown;
        }
        self.budget -= cost;
        let mut digits = vec![0usize; q.radix.len()];
        loop {
            if formulas.iter().all(|f| q.eval(&f.0, &digits)) {
                return Sat::Yes;
            }
            // Next assignment (mixed radix counter).
            let mut i = 0;
            loop {
                if i == digits.len() {
                    return Sat::No;
                }
                digits[i] += 1;
                if digits[i] < q.radix[i] {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
        }
    }
}

/// The position of `e` in `list`, added if new.
fn intern(list: &mut Vec<Term>, index: &mut HashMap<String, usize>, e: &Term) -> usize {
    *index.entry(format!("{e:?}")).or_insert_with(|| {
        list.push(e.clone());
        list.len() - 1
    })
}

/// A number literal, possibly negated.
fn number(e: &Term) -> Option<f64> {
    match e {
        Term::Num(x) => Some(*x),
        Term::Neg(a) => number(a).map(|x| -x),
        _ => None,
    }
}

fn count(n: &Node) -> u64 {
    match n {
        Node::Const(_) | Node::Atom(_) | Node::Cmp(..) => 1,
        Node::Not(a) => 1 + count(a),
        Node::And(xs) | Node::Or(xs) => 1 + xs.iter().map(count).sum::<u64>(),
    }
}

/// The variables of one satisfiability query and their ranges.
#[derive(Default)]
struct Query {
    /// Atom id -> digit.
    atoms: Vec<(usize, usize)>,
    /// Scalar id -> (digit, sorted numeric thresholds).
    numeric: Vec<(usize, usize, Vec<f64>)>,
    /// (scalar id, symbol id) -> digit.
    symbolic: Vec<((usize, usize), usize)>,
    /// The number of values of each digit.
    radix: Vec<usize>,
}

impl Query {
    fn collect(&mut self, n: &Node) {
        match n {
            Node::Const(_) => {}
            Node::Atom(a) => {
                if !self.atoms.iter().any(|(x, _)| x == a) {
                    self.atoms.push((*a, self.radix.len()));
                    self.radix.push(2);
                }
            }
            Node::Cmp(s, Thr::Num(y), _) => {
                // -0.0 and 0.0 compare equal: one threshold.
                let y = if *y == 0.0 { 0.0 } else { *y };
                let i = match self.numeric.iter().position(|(x, _, _)| x == s) {
                    Some(i) => i,
                    None => {
                        self.numeric.push((*s, self.radix.len(), Vec::new()));
                        self.radix.push(1);
                        self.numeric.len() - 1
                    }
                };
                let (_, digit, ts) = &mut self.numeric[i];
                if !ts.contains(&y) {
                    ts.push(y);
                    ts.sort_by(f64::total_cmp);
                    self.radix[*digit] = 2 * ts.len() + 1;
                }
            }
            Node::Cmp(s, Thr::Sym(k), _) => {
                if !self.symbolic.iter().any(|(x, _)| *x == (*s, *k)) {
                    self.symbolic.push(((*s, *k), self.radix.len()));
                    self.radix.push(3);
                }
            }
            Node::Not(a) => self.collect(a),
            Node::And(xs) | Node::Or(xs) => xs.iter().for_each(|x| self.collect(x)),
        }
    }

    /// The number of assignments, if not more than [`MAX_COMBINATIONS`].
    fn combinations(&self) -> Option<u64> {
        let mut total: u64 = 1;
        for &r in &self.radix {
            total = total.checked_mul(r as u64)?;
            if total > MAX_COMBINATIONS {
                return None;
            }
        }
        Some(total)
    }

    fn eval(&self, n: &Node, digits: &[usize]) -> bool {
        match n {
            Node::Const(b) => *b,
            Node::Atom(a) => self
                .atoms
                .iter()
                .find(|(x, _)| x == a)
                .is_some_and(|(_, d)| digits[*d] == 1),
            Node::Cmp(s, Thr::Num(y), ps) => {
                let Some((_, d, ts)) = self.numeric.iter().find(|(x, _, _)| x == s) else {
                    return false;
                };
                // Position 2j+1 is "at threshold j"; even positions lie between.
                let c = digits[*d];
                let y = if *y == 0.0 { 0.0 } else { *y };
                let j = ts.iter().position(|t| *t == y).unwrap_or(0);
                let pos = match c.cmp(&(2 * j + 1)) {
                    std::cmp::Ordering::Less => Pos::Below,
                    std::cmp::Ordering::Equal => Pos::At,
                    std::cmp::Ordering::Greater => Pos::Above,
                };
                ps.holds(pos)
            }
            Node::Cmp(s, Thr::Sym(k), ps) => {
                let Some((_, d)) = self.symbolic.iter().find(|(x, _)| *x == (*s, *k)) else {
                    return false;
                };
                let pos = [Pos::Below, Pos::At, Pos::Above][digits[*d].min(2)];
                ps.holds(pos)
            }
            Node::Not(a) => !self.eval(a, digits),
            Node::And(xs) => xs.iter().all(|x| self.eval(x, digits)),
            Node::Or(xs) => xs.iter().any(|x| self.eval(x, digits)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Program;

    fn program(src: &str) -> Program {
        let out = crate::check_source("t.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        out.program.expect("program")
    }

    /// Whether the conds named in `names` of the first model can hold together.
    fn sat(src: &str, names: &[&str]) -> Sat {
        let p = program(src);
        let m = &p.models[0];
        let mut l = Logic::new(&p, 0, false);
        let fs: Vec<Formula> = names
            .iter()
            .map(|n| {
                let c = m.conds.iter().position(|c| c.name == *n).expect("cond");
                l.formula(&Expr::Cond(c)).expect("formula")
            })
            .collect();
        let refs: Vec<&Formula> = fs.iter().collect();
        l.satisfiable(&refs)
    }

    const VARS: &str = "param R = 1, S = 2; real h, Vy, a, b; flag q; input flag u;";

    fn with(conds: &str) -> String {
        format!("model M {{ {VARS} {conds} }}")
    }

    #[test]
    fn opposite_comparisons_never_hold_together() {
        let s = with("pred up = Vy > 0; pred down = Vy < 0; pred still = Vy == 0;");
        assert_eq!(sat(&s, &["up", "down"]), Sat::No);
        assert_eq!(sat(&s, &["up", "still"]), Sat::No);
        assert_eq!(sat(&s, &["up"]), Sat::Yes);
        let s = with("pred c = h < R; pred d = h >= R; pred e = R > h;");
        assert_eq!(sat(&s, &["c", "d"]), Sat::No);
        assert_eq!(sat(&s, &["c", "e"]), Sat::Yes);
        assert_eq!(sat(&s, &["d", "e"]), Sat::No);
    }

    #[test]
    fn situations_are_expanded() {
        let s = with(
            "pred contact = h < R; pred falling = Vy < 0; \
             situation braking = contact & falling; situation rebound = contact & !falling; \
             situation flying = !contact;",
        );
        assert_eq!(sat(&s, &["braking", "rebound"]), Sat::No);
        assert_eq!(sat(&s, &["braking", "flying"]), Sat::No);
        assert_eq!(sat(&s, &["braking"]), Sat::Yes);
    }

    #[test]
    fn numeric_ranges_and_ties() {
        let s = with(
            "pred p1 = h > 1 & h < 2; pred p2 = h >= 2; pred p3 = h <= 2; \
             pred p4 = h > -1 & h < -0.5;",
        );
        assert_eq!(sat(&s, &["p1", "p2"]), Sat::No);
        assert_eq!(sat(&s, &["p2", "p3"]), Sat::Yes); // h == 2
        assert_eq!(sat(&s, &["p1", "p4"]), Sat::No);
        // Between two thresholds there is room however close they are;
        // an empty range is found empty however large the numbers.
        let s = with("pred p1 = h > 1 & h < 1.0000000000000002;");
        assert_eq!(sat(&s, &["p1"]), Sat::Yes);
        let s = with("pred p1 = h > 1e300 & h < 1e300;");
        assert_eq!(sat(&s, &["p1"]), Sat::No);
    }

    #[test]
    fn unknown_constants_and_pairs() {
        // R and S are unrelated unknowns: both orders are possible.
        let s = with(
            "pred p1 = h < R; pred p2 = h > S; pred p3 = a < b; pred p4 = b < a; \
             pred p5 = a <= b; pred p6 = b <= a; pred p7 = a != b;",
        );
        assert_eq!(sat(&s, &["p1", "p2"]), Sat::Yes);
        assert_eq!(sat(&s, &["p3", "p4"]), Sat::No);
        assert_eq!(sat(&s, &["p5", "p6"]), Sat::Yes);
        assert_eq!(sat(&s, &["p5", "p6", "p7"]), Sat::No);
    }

    #[test]
    fn params_at_their_defaults() {
        // With defaults R = 1 < S = 2: `h < R` and `h > S` exclude each other.
        let src = with("pred p1 = h < R; pred p2 = h > S;");
        let p = program(&src);
        let mut l = Logic::new(&p, 0, true);
        let f1 = l.formula(&Expr::Cond(0)).expect("formula");
        let f2 = l.formula(&Expr::Cond(1)).expect("formula");
        assert_eq!(l.satisfiable(&[&f1, &f2]), Sat::No);
        let mut l = Logic::new(&p, 0, false);
        let f1 = l.formula(&Expr::Cond(0)).expect("formula");
        let f2 = l.formula(&Expr::Cond(1)).expect("formula");
        assert_eq!(l.satisfiable(&[&f1, &f2]), Sat::Yes);
    }

    #[test]
    fn atoms_and_events() {
        let s = with(
            "situation x = q & u; situation y = q & !u; event hit = h < 0; pred above = h > 0;",
        );
        assert_eq!(sat(&s, &["x", "y"]), Sat::No);
        let s = format!("{} pred hit_above = hit & above; }}", &s[..s.len() - 1]);
        assert_eq!(sat(&s, &["hit_above"]), Sat::No);
    }

    #[test]
    fn derived_params_are_inlined() {
        // `lo` is `R - 1` where it is read: `h < lo` and `h >= R - 1` compare
        // the same scalar with the same threshold.
        let s = with("param lo = R - 1; pred p1 = h < lo; pred p2 = h >= R - 1;");
        assert_eq!(sat(&s, &["p1", "p2"]), Sat::No);
        assert_eq!(sat(&s, &["p1"]), Sat::Yes);
    }

    #[test]
    fn long_chains_of_preds_give_up_quietly() {
        let chain: String = (1..200)
            .map(|i| format!("pred p{i} = p{} & h > {i};", i - 1))
            .collect();
        let p = program(&with(&format!("pred p0 = h > 0; {chain}")));
        let m = &p.models[0];
        let cond = |n: &str| Expr::Cond(m.conds.iter().position(|c| c.name == n).expect("cond"));
        let mut l = Logic::new(&p, 0, false);
        assert!(l.formula(&cond("p100")).is_some());
        assert!(l.formula(&cond("p199")).is_none());
    }

    #[test]
    fn large_searches_give_up() {
        let conds: String = (0..14)
            .map(|i| format!("pred p{i} = h > {i} | a > {i} | b > {i};"))
            .collect();
        let all: String = (0..14)
            .map(|i| format!("p{i}"))
            .collect::<Vec<_>>()
            .join(" & ");
        let s = with(&format!("{conds} situation all = {all};"));
        assert_eq!(sat(&s, &["all"]), Sat::Unknown);
    }
}
