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

    /// The statements that fill the kept terms of a step of length `h` just taken
    /// (those that the extra stages do not need, run before them).
    fn keep(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt>;

    /// The nodes of the stages the output evaluates once a step is taken, after
    /// [`DenseOutput::keep`] and before [`DenseOutput::keep_after`] (DOP853's three).
    fn extra_nodes(&self) -> &'static [f64] {
        &[]
    }

    /// The state's value at extra stage `e` (from its start and the rates before it).
    fn extra_value(&self, mem: &Memories<'_>, h: &Expr, e: usize) -> Expr {
        let _ = (h, e);
        var(mem.y0)
    }

    /// The kept term that holds the state's rate at extra stage `e`.
    fn extra_rate(&self, mem: &Memories<'_>, e: usize) -> VarId {
        let _ = e;
        mem.y0
    }

    /// The statements that fill the kept terms that read the extra stages.
    fn keep_after(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt> {
        let _ = (mem, h, span);
        Vec::new()
    }

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
        let terms = |hid: &mut Hidden<'_>, n: usize| dense_terms(hid, self.name, state, span, n);
        match self.dense {
            Dense::Weights(_) => Vec::new(),
            Dense::Hairer8 { c, .. } => {
                let s = self.c.len();
                let mut out = terms(hid, 8);
                out.extend((1..=c.len()).map(|e| {
                    hid.new_var(
                        format!("{state}_{}_k{}", self.name, s + e),
                        format!(
                            " The rate of `{state}` at stage {} of the dense output ({}).",
                            s + e,
                            self.name
                        ),
                        span,
                    )
                }));
                out
            }
            Dense::Hairer { .. } => terms(hid, 5),
        }
    }

    fn keep(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt> {
        if let Dense::Hairer8 { .. } = self.dense {
            return first_terms(mem, h, span);
        }
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

    fn extra_nodes(&self) -> &'static [f64] {
        match self.dense {
            Dense::Hairer8 { c, .. } => c,
            _ => &[],
        }
    }

    fn extra_value(&self, mem: &Memories<'_>, h: &Expr, e: usize) -> Expr {
        let Dense::Hairer8 { a, .. } = self.dense else {
            return var(mem.y0);
        };
        let k = all_rates(mem);
        let sum = weighted(a[e], &k).expect("an extra stage reads the stages");
        add(var(mem.y0), mul(h.clone(), sum))
    }

    fn extra_rate(&self, mem: &Memories<'_>, e: usize) -> VarId {
        mem.kept[7 + e]
    }

    fn keep_after(&self, mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt> {
        let Dense::Hairer8 { d, .. } = self.dense else {
            return Vec::new();
        };
        let k = all_rates(mem);
        d.iter()
            .enumerate()
            .map(|(i, row)| {
                let sum = weighted(row, &k).expect("the dense weights are not all zero");
                assign(mem.kept[3 + i], mul(h.clone(), sum), None, span)
            })
            .collect()
    }

    fn value(&self, mem: &Memories<'_>, h: &Expr, th: &dyn Fn() -> Expr) -> Expr {
        match self.dense {
            Dense::Hairer8 { .. } => {
                let r = mem.kept;
                let rest = || sub(num(1.0), th());
                // From the innermost term out: r8, then (1 − θ) and θ alternately.
                let mut inner = var(r[6]);
                for (j, &rj) in r[..6].iter().enumerate().rev() {
                    let factor = if j % 2 == 0 { rest() } else { th() };
                    inner = add(var(rj), mul(factor, inner));
                }
                add(var(mem.y0), mul(th(), inner))
            }
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

/// The rates of a step's stages then of the extra stages of [`Dense::Hairer8`].
/// The hidden states `{state}_{method}_r2` … `_rn`: terms 2..=n of the continuous
/// extension of `state` under `method`, as every dense output keeps them.
pub(super) fn dense_terms(
    hid: &mut Hidden<'_>,
    method: &str,
    state: &str,
    span: Span,
    n: usize,
) -> Vec<VarId> {
    (2..=n)
        .map(|j| {
            hid.new_var(
                format!("{state}_{method}_r{j}"),
                format!(" Term {j} of the dense output of `{state}` ({method})."),
                span,
            )
        })
        .collect()
}

fn all_rates(mem: &Memories<'_>) -> Vec<VarId> {
    mem.k.iter().chain(&mem.kept[7..]).copied().collect()
}

/// `r2 = y1 − y0`, `r3 = h·k_1 − r2`, `r4 = (r2 − h·k_s) − r3` of Hairer's extensions.
fn first_terms(mem: &Memories<'_>, h: &Expr, span: Span) -> Vec<Stmt> {
    let (k, r) = (mem.k, mem.kept);
    let hk = |j: usize| mul(h.clone(), var(k[j]));
    let last = k.len() - 1;
    vec![
        assign(r[0], sub(var(mem.y), var(mem.y0)), None, span),
        assign(r[1], sub(hk(0), var(r[0])), None, span),
        assign(r[2], sub(sub(var(r[0]), hk(last)), var(r[1])), None, span),
    ]
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
