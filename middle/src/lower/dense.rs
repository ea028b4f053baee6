//! The dense output of a step: the interface through which the event search reads a method's continuous extension, and its evaluation for a [`Tableau`].

use super::build::{add, assign, mul, num, sub, var, weighted};
use super::hidden::Hidden;
use super::rewrite::Stmt;
use super::tableau::{Dense, Poly, Tableau};
use crate::Span;
use crate::ir::{Expr, VarId};

/// The variables of one continuous state in a step.
pub(super) struct Memories<'a> {
    /// The state (holding the step's solution once the step is taken).
    pub(super) y: VarId,
    /// The state at the step's start.
    pub(super) y0: VarId,
    /// Its rates at the stages.
    pub(super) k: &'a [VarId],
    /// The terms the dense output keeps ([`DenseOutput::memories`]).
    pub(super) kept: &'a [VarId],
}

/// What the event search needs of a method: the value of its step at any point inside it.
pub(super) trait DenseOutput {
    /// The method's name, which names the search's hidden states.
    fn name(&self) -> &'static str;

    /// Whether the last stage pass of a step ran on its solution at its end, so that the
    /// stage rules already hold their values there.
    fn last_stage_at_end(&self) -> bool;

    /// The hidden states that the output of state `state` keeps once a step is taken.
    fn memories(&self, hid: &mut Hidden<'_>, state: &str, span: Span) -> Vec<VarId>;

    /// The statements that fill the kept terms of a step of length `h` just taken.
    fn keep(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt>;

    /// The state's value at `θ·h` into the step, `θ` given as an expression to repeat.
    fn value(&self, mem: &Memories<'_>, h: &Expr, th: &dyn Fn() -> Expr) -> Expr;
}

impl DenseOutput for Tableau {
    fn name(&self) -> &'static str {
        self.name
    }

    fn last_stage_at_end(&self) -> bool {
        self.fsal
    }

    fn memories(&self, hid: &mut Hidden<'_>, state: &str, span: Span) -> Vec<VarId> {
        match self.dense {
            Dense::Weights(_) => Vec::new(),
            Dense::Hairer { .. } => (2..=5)
                .map(|j| {
                    hid.new_var(
                        format!("{state}_{}_r{j}", self.name),
                        format!(
                            " Term {j} of the dense output of `{state}` ({}).",
                            self.name
                        ),
                        span,
                    )
                })
                .collect(),
        }
    }

    fn keep(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt> {
        let Dense::Hairer { d } = self.dense else {
            return Vec::new();
        };
        let (k, r) = (mem.k, mem.kept);
        let hk = |j: usize| mul(h.clone(), var(k[j]));
        let last = k.len() - 1;
        let sum = weighted(d, k).expect("the dense weights are not all zero");
        vec![
            assign(r[0], sub(var(mem.y), var(mem.y0)), None, span),
            assign(r[1], sub(hk(0), var(r[0])), None, span),
            assign(r[2], sub(sub(var(r[0]), hk(last)), var(r[1])), None, span),
            assign(r[3], mul(h.clone(), sum), None, span),
        ]
    }

    fn value(&self, mem: &Memories<'_>, h: &Expr, th: &dyn Fn() -> Expr) -> Expr {
        match self.dense {
            Dense::Hairer { .. } => {
                let r = mem.kept;
                let rest = || sub(num(1.0), th());
                let inner = add(var(r[2]), mul(rest(), var(r[3])));
                let inner = add(var(r[1]), mul(th(), inner));
                let inner = add(var(r[0]), mul(rest(), inner));
                add(var(mem.y0), mul(th(), inner))
            }
            Dense::Weights(w) => {
                let sum = w
                    .iter()
                    .zip(mem.k)
                    .map(|(p, &k)| mul(poly(p, th), var(k)))
                    .reduce(add)
                    .expect("a method has stages");
                add(var(mem.y0), mul(h.clone(), sum))
            }
        }
    }
}

/// `b(θ)` as [`Poly`] says it is written.
fn poly(p: &Poly, th: &dyn Fn() -> Expr) -> Expr {
    let (&last, rest) = p.horner.split_last().expect("a weight has coefficients");
    let (&before, outer) = rest.split_last().expect("a weight has two coefficients");
    let mut h = if last < 0.0 {
        sub(num(before), mul(th(), num(-last)))
    } else {
        add(num(before), mul(th(), num(last)))
    };
    for &q in outer.iter().rev() {
        h = add(num(q), mul(th(), h));
    }
    let power = (1..p.power).fold(th(), |acc, _| mul(acc, th()));
    mul(power, h)
}
