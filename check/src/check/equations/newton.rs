//! Newton's iteration for the equations that no rearrangement solves (`i = Is·(exp(v/Vt) − 1)`, a loop through a diode), written as plain rules: a fixed number of iterations from the previous step's value, the exact slopes, and a check of the residual that makes a failure a NaN at the equation.
//!
//! A block's *tearing* unknowns `u₁ … u_m` (m ≤ [`MAX_TEARING`]) are those whose
//! equations are left with residuals `Lᵢ(u) − Rᵢ(u)` once every other unknown of the
//! block is put in. The rules are straight-line, so every back end runs them alike:
//!
//! ```text
//! u'0 = prev(u);                               the guess: the last step's value
//! u'l0 = L(u'0);  u'q0 = R(u'0);               the residual's sides
//! u'1 = u'0 − J⁻¹·(u'l0 − u'q0);               a Newton step, J = ∂(L − R)/∂u at u'0
//! …                                            ITERATIONS steps in all
//! u'tol = TOLERANCE·(‖L‖ + ‖R‖)               at u'K
//! u'check = sqrt(−nc);                        nc = 1 where |L − R| > u'tol
//! u = u'K + u'check·|u'K|;                     (the unknown's unit, its value to the bit)
//! u'steps = m₀·(1 + m₁·(1 + …));              mₖ = 1 where |Lₖ − Rₖ| > u'tol
//! ```
//!
//! `u'steps` is how many steps were needed: the first iterate whose residuals are all
//! within their tolerances (12 when only the last is), plain arithmetic on residuals
//! the steps computed anyway; the event log reports its changes (`sitc run --events`),
//! and the lowering drops its rule from a program not built for the log.
//!
//! No step is skipped once the iteration has converged (a skipped step would be a
//! guard, and a guard that reads the states is an event located under the adaptive
//! methods); a converged step moves `u` by a rounding error at most. The line of `u`
//! leaves `u` exactly `u'K` where the residual is small, and makes it NaN where it is
//! not, so a block that does not converge stops the run at its equation's line with
//! the non-finite report (or under `--allow-non-finite` goes on with NaN).
//!
//! The iterates are hidden variables (left out of traces, `sitc info` and the variable
//! tables, like a method's memories), named `u_newton3`, `u_newton_l3`, `u_newton_check`,
//! `u_newton_tol`, `u_newton_steps` (with more `_` before `newton` where the model
//! declares a name that starts so) and declared with the doc line [`HIDDEN_DOC`], by which the checker marks them hidden.

use super::derive::{add, call_expr, derive, div, mul, num, sub};
use super::{Unknown, substitute};
use crate::ast::{Decl, DeclKind, Expr, ExprKind, Guard, Name, Rule};
use crate::source::Span;

/// The doc line of the variables the equations' pass declares (no doc comment holds
/// a NUL character).
pub(crate) const HIDDEN_DOC: &str = "\u{0}an iterate of Newton's iteration";

/// The suffix of the hidden variable that is NaN where a block's residual is not small
/// after the last step (`x_newton_check`), −0 elsewhere.
pub const CHECK: &str = "check";

/// The suffix of the hidden variable that holds how many of the steps a block's
/// iteration needed (`x_newton_steps`): the first iterate `k` (0 … [`ITERATIONS`]) from
/// which every residual is within its tolerance, [`ITERATIONS`] when none before the
/// last is. Computed by plain arithmetic on the residuals the steps computed anyway
/// (no guard), read by the event log (`sitc run --events`).
pub const STEPS: &str = "steps";

/// Newton steps per block and step (each evaluates the residuals and their slopes).
pub(crate) const ITERATIONS: usize = 12;

/// The residual accepted after the last step, relative to the magnitude of the sides'
/// terms (‖a ± b‖ = ‖a‖ + ‖b‖, ‖a·b‖ = ‖a‖·‖b‖, which bounds their rounding): far above
/// the rounding floor (about 1e-16), far below an error a modeller would accept.
pub(crate) const TOLERANCE: f64 = 1e-9;

/// The most tearing unknowns in one block (solved by Cramer's rule in each step).
pub(crate) const MAX_TEARING: usize = 3;

/// One residual equation of a block: its tearing unknown, its sides (reading the
/// tearing unknowns by their names) and where it is written.
pub(super) struct Residual {
    /// The unknown it is solved for (a plain value, never a rate).
    pub(super) unknown: String,
    /// Where the unknown is read in the equation.
    pub(super) at: Span,
    /// The left side.
    pub(super) lhs: Expr,
    /// The right side.
    pub(super) rhs: Expr,
    /// The equation.
    pub(super) span: Span,
}

/// What Newton's blocks add to the model: the hidden declarations of their iterates,
/// and their tearing unknowns, in the order solved.
#[derive(Default)]
pub(super) struct Added {
    /// The iterates, sides, slopes and checks, declared hidden.
    pub(super) decls: Vec<Decl>,
    /// The unknowns solved by the iteration.
    pub(super) tearing: Vec<String>,
    /// The hidden variable of each block that holds the steps the iteration needed
    /// (`u_newton_steps`, see [`STEPS`]), in the order solved.
    pub(super) counts: Vec<String>,
}

/// Why a block has no Newton rules.
pub(super) enum Refusal {
    /// A call without a slope (a stateful procedure, a table) on the unknown's path.
    NoSlope(Name),
}

/// The rules that solve `block` by Newton's iteration, with the hidden variables they
/// write and the unknowns they solve recorded in `added`.
pub(super) fn newton(
    block: &[Residual],
    taken: &[&str],
    added: &mut Added,
) -> Result<Vec<Rule>, Refusal> {
    let m = block.len();
    debug_assert!((1..=MAX_TEARING).contains(&m));
    // The slopes, reading the unknowns by name.
    let mut slopes: Vec<Vec<Expr>> = Vec::with_capacity(m);
    for r in block {
        let diff = sub(r.lhs.clone(), r.rhs.clone());
        let row = block
            .iter()
            .map(|u| derive(&diff, &u.unknown).map_err(Refusal::NoSlope))
            .collect::<Result<Vec<_>, _>>()?;
        slopes.push(row);
    }
    added
        .tearing
        .extend(block.iter().map(|r| r.unknown.clone()));
    let mut rules = Vec::new();
    let mut assign = |name: String, value: Expr, span: Span, rules: &mut Vec<Rule>| {
        added.decls.push(Decl::Var {
            doc: vec![HIDDEN_DOC.to_string()],
            kind: DeclKind::Real,
            output: false,
            name: Name {
                text: name.clone(),
                span,
            },
            unit: None,
            value: None,
        });
        rules.push(Rule::Assign {
            index: Vec::new(),
            target: Name { text: name, span },
            value,
            guard: Guard::None,
            span,
        });
    };
    // Each unknown's prefix, apart from every declared name.
    let prefix = |u: &str| {
        let mut p = format!("{u}_newton");
        while taken.iter().any(|n| n.starts_with(p.as_str())) {
            p.insert(u.len(), '_');
        }
        p
    };
    let iterate = |u: &str, k: usize| format!("{}{k}", prefix(u));
    let side = |u: &str, s: char, k: usize| format!("{}_{s}{k}", prefix(u));
    let slope = |u: &str, j: usize, k: usize| format!("{}_j{j}_{k}", prefix(u));
    // `e` with each unknown read as its iterate `k`.
    let at = |e: &Expr, k: usize| {
        block.iter().fold(e.clone(), |e, r| {
            substitute(
                &e,
                &Unknown::Value(r.unknown.clone()),
                &path(&iterate(&r.unknown, k), e.span),
            )
        })
    };
    for r in block {
        let guess = call_expr("prev", vec![path(&r.unknown, r.at)], r.span);
        assign(iterate(&r.unknown, 0), guess, r.span, &mut rules);
    }
    for k in 0..=ITERATIONS {
        for r in block {
            assign(side(&r.unknown, 'l', k), at(&r.lhs, k), r.span, &mut rules);
            assign(side(&r.unknown, 'q', k), at(&r.rhs, k), r.span, &mut rules);
        }
        if k == ITERATIONS {
            break;
        }
        // The residuals and the slopes at iterate k.
        let residual: Vec<Expr> = block
            .iter()
            .map(|r| {
                sub(
                    path(&side(&r.unknown, 'l', k), r.span),
                    path(&side(&r.unknown, 'q', k), r.span),
                )
            })
            .collect();
        let jac: Vec<Vec<Expr>> = if m == 1 {
            vec![vec![at(&slopes[0][0], k)]]
        } else {
            let mut jac = Vec::with_capacity(m);
            for (r, slopes) in block.iter().zip(&slopes) {
                let mut row = Vec::with_capacity(m);
                for (j, d) in slopes.iter().enumerate() {
                    let name = slope(&r.unknown, j, k);
                    assign(name.clone(), at(d, k), r.span, &mut rules);
                    row.push(path(&name, r.span));
                }
                jac.push(row);
            }
            jac
        };
        let steps = cramer(&jac, &residual);
        for (r, step) in block.iter().zip(steps) {
            let next = sub(path(&iterate(&r.unknown, k), r.span), step);
            assign(iterate(&r.unknown, k + 1), next, r.span, &mut rules);
        }
    }
    // Each residual's tolerance, from the magnitude of its sides' terms at the last
    // iterate: the check's, and the count's at every iterate.
    for r in block {
        let s = r.span;
        let scale = add(
            magnitude(&at(&r.lhs, ITERATIONS)),
            magnitude(&at(&r.rhs, ITERATIONS)),
        );
        let name = format!("{}_tol", prefix(&r.unknown));
        assign(name, mul(num(TOLERANCE, s), scale), s, &mut rules);
    }
    // Whether residual `r` at iterate `k` is larger than its tolerance: 1 or 0
    // (`max(0, sign(|L − R| − tol))`).
    let over = |r: &Residual, k: usize| {
        let s = r.span;
        let (l, q) = (
            path(&side(&r.unknown, 'l', k), s),
            path(&side(&r.unknown, 'q', k), s),
        );
        let tol = path(&format!("{}_tol", prefix(&r.unknown)), s);
        let excess = sub(call_expr("abs", vec![sub(l, q)], s), tol);
        call_expr(
            "max",
            vec![num(0.0, s), call_expr("sign", vec![excess], s)],
            s,
        )
    };
    // nc: how many residuals are not small after the last step.
    let missed = (block.iter().map(|r| over(r, ITERATIONS)))
        .reduce(add)
        .expect("a block has an equation");
    // −0 where every residual is small (adding it changes no value), NaN where one is
    // not: the run's non-finite watch stops at this hidden variable, and says why.
    let first = &block[0];
    let check = format!("{}_{CHECK}", prefix(&first.unknown));
    let nan = call_expr("sqrt", vec![neg_exact(missed)], first.span);
    assign(check.clone(), nan, first.span, &mut rules);
    for r in block {
        let s = r.span;
        // `u'K + check·|u'K|`: the check times a value of the unknown's unit (−0·|x|
        // is −0, and x + −0 is x, to the bit), so that the sum's units agree.
        let last = path(&iterate(&r.unknown, ITERATIONS), s);
        let scaled = super::derive::bin(
            crate::ast::BinOp::Mul,
            path(&check, s),
            call_expr("abs", vec![last.clone()], s),
        );
        let value = add_exact(last, scaled);
        rules.push(Rule::Assign {
            index: Vec::new(),
            target: Name {
                text: r.unknown.clone(),
                span: r.at,
            },
            value,
            guard: Guard::None,
            span: s,
        });
    }
    // The steps needed: m₀·(1 + m₁·(1 + … ·(1 + m₁₁))), mₖ = 1 where a residual at
    // iterate k is over its tolerance, so the first k with mₖ = 0 (12 if none).
    let first = &block[0];
    let s = first.span;
    let miss = |k: usize| {
        (block.iter().map(|r| over(r, k)))
            .reduce(|a, b| call_expr("max", vec![a, b], s))
            .expect("a block has an equation")
    };
    let mut count = miss(ITERATIONS - 1);
    for k in (0..ITERATIONS - 1).rev() {
        count = mul(miss(k), add(num(1.0, s), count));
    }
    let steps = format!("{}_{STEPS}", prefix(&first.unknown));
    assign(steps.clone(), count, s, &mut rules);
    added.counts.push(steps);
    Ok(rules)
}

/// The magnitude of `e`'s terms, `|a| + |b|` for `a ± b`, `|a|·|b|` for `a·b`, `|a|/|b|`
/// for `a/b`, `|e|` for anything else: the bound of the rounding error of `e` divided
/// by the unit roundoff (to first order), so that a residual that cancels inside a
/// side (`u − v` for `u ≈ v`) is judged against what rounding leaves of it.
fn magnitude(e: &Expr) -> Expr {
    use crate::ast::BinOp;
    let s = e.span;
    match &e.kind {
        ExprKind::Paren(a) | ExprKind::Neg(a) => magnitude(a),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => add(magnitude(a), magnitude(b)),
        ExprKind::Binary(BinOp::Mul, a, b) => mul(magnitude(a), magnitude(b)),
        ExprKind::Binary(BinOp::Div, a, b) => div(magnitude(a), magnitude(b)),
        ExprKind::Num(v) | ExprKind::Quantity(v, _) => num(v.abs(), s),
        _ => call_expr("abs", vec![e.clone()], s),
    }
}

/// The Newton steps `J⁻¹·r` by Cramer's rule (`m` ≤ 3).
fn cramer(jac: &[Vec<Expr>], r: &[Expr]) -> Vec<Expr> {
    let m = r.len();
    if m == 1 {
        return vec![div(r[0].clone(), jac[0][0].clone())];
    }
    let det = det(jac);
    (0..m)
        .map(|j| {
            let replaced: Vec<Vec<Expr>> = jac
                .iter()
                .zip(r)
                .map(|(row, ri)| {
                    let mut row = row.clone();
                    row[j] = ri.clone();
                    row
                })
                .collect();
            div(self::det(&replaced), det.clone())
        })
        .collect()
}

/// The determinant of a 2×2 or 3×3 matrix of expressions, by cofactors along the
/// first row.
fn det(a: &[Vec<Expr>]) -> Expr {
    if a.len() == 2 {
        return sub(
            mul(a[0][0].clone(), a[1][1].clone()),
            mul(a[0][1].clone(), a[1][0].clone()),
        );
    }
    let minor = |skip: usize| -> Vec<Vec<Expr>> {
        a[1..]
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != skip)
                    .map(|(_, e)| e.clone())
                    .collect()
            })
            .collect()
    };
    let t0 = mul(a[0][0].clone(), det(&minor(0)));
    let t1 = mul(a[0][1].clone(), det(&minor(1)));
    let t2 = mul(a[0][2].clone(), det(&minor(2)));
    add(sub(t0, t1), t2)
}

/// The name `text` read as a value.
fn path(text: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Path(vec![Name {
            text: text.into(),
            span,
        }]),
        span,
    }
}

/// `a + b` without folding (`x + sqrt(-0)` must stay, it is the check).
fn add_exact(a: Expr, b: Expr) -> Expr {
    super::derive::bin(crate::ast::BinOp::Add, a, b)
}

/// `-a` without folding.
fn neg_exact(a: Expr) -> Expr {
    let span = a.span;
    Expr {
        kind: ExprKind::Neg(Box::new(Expr {
            span,
            kind: ExprKind::Paren(Box::new(a)),
        })),
        span,
    }
}

/// The unknown whose iteration the hidden variable `name` counts (`v` for
/// `v_newton_steps`, and for `v__newton_steps`, made where the model declares a name
/// that starts with `v_newton`), if it is such a count ([`STEPS`]).
pub fn counted(name: &str) -> Option<&str> {
    let unknown = name.strip_suffix(STEPS)?.strip_suffix("newton_")?;
    let unknown = unknown.strip_suffix('_')?.trim_end_matches('_');
    (!unknown.is_empty()).then_some(unknown)
}

/// Whether a declaration with these doc lines is one the equations' pass added (an
/// iterate, a side, a slope).
pub(crate) fn is_hidden(doc: &[String]) -> bool {
    doc.first().is_some_and(|d| d == HIDDEN_DOC)
}
