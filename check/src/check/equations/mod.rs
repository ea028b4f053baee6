//! Equations: `equation lhs = rhs;` matched to the unknowns they determine, sorted into an order that computes them, and each solved for its unknown as a δ rule.
//!
//! A model's equations hold together. An *unknown* is a `real` of the model that no rule
//! writes and that an equation reads (`y`), or the rate `der(x)` of such a real. Every
//! other name in an equation is known: params, inputs, reals that rules write, the
//! values of the submodels, `time`, `dt`, and `x` itself where `der(x)` is an unknown.
//! Each equation is matched to one unknown (a maximum matching of the incidence, the
//! equations and unknowns in textual order), the equations are sorted so that each
//! comes after those that determine what it reads (Tarjan's strongly connected
//! components: a component of more than one equation is an algebraic loop, refused
//! for now), and each is solved for its unknown:
//!
//! - where the unknown occurs once, by inverting the operations on its path
//!   (`y - e = 0` gives `y = e`, `m * der(v) = F - c * v` gives
//!   `v = integral((F - c * v) / m)`), so an equation already solved for its unknown
//!   is the rule `y = e;` to the bit;
//! - where it occurs more than once but linearly, as `−b / a` for the equation's
//!   difference `a·u + b`;
//! - otherwise (`exp(y) = x`, `y * y = x`) it is an error that asks for the equation
//!   solved by hand.
//!
//! The solved rules replace the equations at the place of the model's first equation,
//! in the sorted order; from there on they are ordinary rules (checked, linted, lowered
//! and run as if written so).

use crate::ast::{Decl, Expr, ExprKind, Guard, Model, Name, Rule};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::{HashMap, HashSet};

mod algebra;
mod derive;
mod index;
mod newton;
mod order;

use algebra::{solve_for, substitute};
pub use index::Dummy;
use index::Reduced;
pub use newton::counted;
pub(crate) use newton::is_hidden;
use newton::{Added, MAX_TEARING, Refusal, Residual, newton};
use order::{loop_error, order};

/// What an equation can determine.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Unknown {
    /// A real that no rule writes.
    Value(String),
    /// The rate of a real that no rule writes.
    Rate(String),
}

impl Unknown {
    fn show(&self) -> String {
        match self {
            Unknown::Value(n) => format!("`{n}`"),
            Unknown::Rate(n) => format!("`der({n})`"),
        }
    }
}

/// One equation of the model.
struct Equation<'m> {
    lhs: &'m Expr,
    rhs: &'m Expr,
    span: Span,
    /// The unknowns it reads, in the order first read.
    unknowns: Vec<Unknown>,
    /// The reals it reads whose rates are unknowns (the states the equations
    /// integrate), in the order first read: an equation that reads them and no unknown
    /// constrains the states, a DAE of higher index.
    states: Vec<String>,
}

/// The model `m` with its equations solved into δ rules, or `None` when it has none
/// (the model is used as written). Errors go to `diags`; the equations that could not
/// be solved are then left out of the model returned.
pub(crate) fn solve(m: &Model, diags: &mut Vec<Diagnostic>) -> Option<Model> {
    solve_described(m, diags, &mut Vec::new())
}

/// How a block of equations is solved, for `sitc info`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The unknowns it determines, as written (`v`, `der(x)`), in the order of its
    /// equations.
    pub unknowns: Vec<String>,
    /// Its equations, in textual order.
    pub equations: Vec<Span>,
    /// How.
    pub solved: Solved,
}

/// How a block of equations is solved.
#[derive(Debug, Clone, PartialEq)]
pub enum Solved {
    /// One equation, rearranged for its unknown.
    Rearranged,
    /// A loop, by substitution: no iteration.
    Substitution,
    /// By Newton's iteration on its tearing unknowns (the others put in), a fixed
    /// number of steps.
    Newton {
        /// The tearing unknowns.
        tearing: Vec<String>,
        /// The steps per evaluation (all run; see `count`).
        steps: usize,
        /// The hidden variable that holds how many of them the iteration needed at the
        /// last evaluation (`v_newton_steps`), which the event log reports.
        count: String,
    },
}

/// The blocks of `m`'s equations in the order they are solved (empty when it has none
/// or they have errors).
pub fn blocks(m: &Model) -> Vec<Block> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    solve_described(m, &mut diags, &mut out);
    if diags.iter().any(Diagnostic::is_error) {
        out.clear();
    }
    out
}

/// [`solve`], with the blocks described into `described`.
fn solve_described(
    m: &Model,
    diags: &mut Vec<Diagnostic>,
    described: &mut Vec<Block>,
) -> Option<Model> {
    let mut nested = Vec::new();
    for r in &m.rules {
        if let Rule::Block { rules, .. } | Rule::Transition { rules, .. } = r {
            nested_equations(rules, &mut nested);
        }
    }
    for span in &nested {
        diags.push(
            Diagnostic::error(
                "E0494",
                *span,
                "an equation inside a `when` block or a transition",
            )
            .with_label("equations hold at every step, under no condition")
            .with_help(
                "write the equation among the model's rules, or a guarded rule solved for its \
                 target (`y = e when c;`)",
            ),
        );
    }
    let first = m
        .rules
        .iter()
        .position(|r| matches!(r, Rule::Equation { .. }));
    let Some(first) = first else {
        return (!nested.is_empty()).then(|| m.clone());
    };
    let written = written(&m.rules);
    let reals: HashMap<&str, Span> = m
        .decls
        .iter()
        .filter_map(|d| match d {
            crate::ast::Decl::Var {
                kind: crate::ast::DeclKind::Real,
                name,
                ..
            } if !written.contains(name.text.as_str()) => Some((name.text.as_str(), name.span)),
            _ => None,
        })
        .collect();
    let params: HashSet<&str> = (m.decls.iter())
        .filter_map(|d| match d {
            Decl::Var {
                kind: crate::ast::DeclKind::Param,
                name,
                ..
            } => Some(name.text.as_str()),
            _ => None,
        })
        .collect();
    let written_eqs: Vec<(Expr, Expr, Span)> = (m.rules.iter())
        .filter_map(|r| match r {
            Rule::Equation { lhs, rhs, span } => Some((lhs.clone(), rhs.clone(), *span)),
            _ => None,
        })
        .collect();
    let (eqs, ok) = classify(&written_eqs, &reals, diags);
    // The equations as written, unless they cannot be matched and a constraint among
    // the states is why: then reduced (`index`).
    let mut tried = Vec::new();
    let attempt = if ok {
        order(&eqs, &reals, &mut tried)
    } else {
        None
    };
    let reduced_eqs: Vec<(Expr, Expr, Span)>;
    let mut dummies = Vec::new();
    let (eqs, solved) = if attempt.is_some() || !ok {
        (eqs, attempt)
    } else {
        match index::reduce(&written_eqs, &reals, &params, diags) {
            Reduced::Nothing => {
                diags.extend(tried);
                (eqs, None)
            }
            Reduced::Failed => (eqs, None),
            Reduced::Done {
                eqs: reduced,
                dummies: chosen,
            } => {
                reduced_eqs = reduced;
                dummies = chosen;
                let (eqs, ok) = classify(&reduced_eqs, &reals, diags);
                let solved = if ok { order(&eqs, &reals, diags) } else { None };
                (eqs, solved)
            }
        }
    };
    let mut hidden = Added::default();
    let taken: Vec<&str> = (m.decls.iter())
        .map(|d| match d {
            Decl::Var { name, .. } | Decl::Sub { name, .. } | Decl::Mode { name, .. } => {
                name.text.as_str()
            }
            Decl::Table(t) => t.name.text.as_str(),
        })
        .collect();
    let taken = taken.as_slice();
    let rules = solved.map(|blocks| {
        let mut rules = Vec::new();
        for block in blocks {
            let before = hidden.tearing.len();
            let counted = hidden.counts.len();
            described.push(Block {
                unknowns: block
                    .iter()
                    .map(|(_, u)| match u {
                        Unknown::Value(x) if dummies.iter().any(|d| &d.state == x) => {
                            format!("{x} (dummy state)")
                        }
                        _ => u.show().replace('`', ""),
                    })
                    .collect(),
                equations: block.iter().map(|(e, _)| eqs[*e].span).collect(),
                solved: Solved::Rearranged,
            });
            match block.as_slice() {
                [(e, u)] => rules
                    .extend(solve_one(&eqs[*e], u, taken, &mut hidden, diags).unwrap_or_default()),
                _ => rules.extend(
                    solve_loop(&eqs, &block, taken, &written, &mut hidden, diags)
                        .unwrap_or_default(),
                ),
            }
            let tearing = hidden.tearing[before..].to_vec();
            let last = described.last_mut().expect("pushed above");
            if !tearing.is_empty() {
                last.solved = Solved::Newton {
                    tearing,
                    steps: newton::ITERATIONS,
                    count: hidden.counts[counted..].concat(),
                };
            } else if block.len() > 1 {
                last.solved = Solved::Substitution;
            }
        }
        rules
    });
    let mut out = m.clone();
    // The iterates of Newton's blocks, after every declared variable (hidden ones
    // follow the visible ones).
    out.decls.extend(hidden.decls);
    let mut kept: Vec<Rule> = Vec::with_capacity(m.rules.len());
    for (i, r) in m.rules.iter().enumerate() {
        if i == first
            && let Some(rules) = &rules
        {
            kept.extend(rules.iter().cloned());
        }
        if !matches!(r, Rule::Equation { .. }) {
            kept.push(r.clone());
        }
    }
    out.rules = kept;
    Some(out)
}

/// The equations `list` with their unknowns and the states they read (the reals whose
/// rates they read); `false` after an error.
fn classify<'e>(
    list: &'e [(Expr, Expr, Span)],
    reals: &HashMap<&str, Span>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Equation<'e>>, bool) {
    // The reals whose rate an equation states: their values are known in equations.
    let mut rated = HashSet::new();
    for (lhs, rhs, _) in list {
        rates(lhs, reals, &mut rated);
        rates(rhs, reals, &mut rated);
    }
    let mut eqs: Vec<Equation<'_>> = Vec::new();
    let mut ok = true;
    for (lhs, rhs, span) in list {
        let mut unknowns = Vec::new();
        for side in [lhs, rhs] {
            ok &= unknowns_of(side, reals, &rated, &mut unknowns, diags);
        }
        let mut states = Vec::new();
        for side in [lhs, rhs] {
            states_read(side, &rated, &mut states);
        }
        eqs.push(Equation {
            lhs,
            rhs,
            span: *span,
            unknowns,
            states,
        });
    }
    (eqs, ok)
}

/// The spans of the equations among `rules` and the rules nested in them.
fn nested_equations(rules: &[Rule], out: &mut Vec<Span>) {
    for r in rules {
        match r {
            Rule::Equation { span, .. } => out.push(*span),
            Rule::Block { rules, .. } | Rule::Transition { rules, .. } => {
                nested_equations(rules, out)
            }
            _ => {}
        }
    }
}

/// The names that some rule of `rules` assigns, at any depth.
fn written(rules: &[Rule]) -> HashSet<&str> {
    let mut out = HashSet::new();
    fn walk<'a>(rules: &'a [Rule], out: &mut HashSet<&'a str>) {
        for r in rules {
            match r {
                Rule::Assign { target, .. } => {
                    out.insert(target.text.as_str());
                }
                Rule::Block { rules, .. } | Rule::Transition { rules, .. } => walk(rules, out),
                _ => {}
            }
        }
    }
    walk(rules, &mut out);
    out
}

/// The real `x` of `der(x)`, if `e` is that call with one plain name.
fn der_of(e: &Expr) -> Option<&Name> {
    let ExprKind::Call(f, args) = &e.kind else {
        return None;
    };
    if f.text != "der" || args.len() != 1 {
        return None;
    }
    match &args[0].kind {
        ExprKind::Path(p) if p.len() == 1 => Some(&p[0]),
        _ => None,
    }
}

/// Adds to `out` the reals `x` of the calls `der(x)` in `e` that are unknowns.
fn rates<'a>(e: &'a Expr, reals: &HashMap<&str, Span>, out: &mut HashSet<&'a str>) {
    if let Some(x) = der_of(e)
        && reals.contains_key(x.text.as_str())
    {
        out.insert(&x.text);
        return;
    }
    for c in children(e) {
        rates(c, reals, out);
    }
}

/// Adds to `out` the reals of `rated` that `e` reads as values (not under `der` or
/// `prev`), each once.
fn states_read(e: &Expr, rated: &HashSet<&str>, out: &mut Vec<String>) {
    if der_of(e).is_some() {
        return;
    }
    if let ExprKind::Path(p) = &e.kind
        && p.len() == 1
        && rated.contains(p[0].text.as_str())
        && !out.contains(&p[0].text)
    {
        out.push(p[0].text.clone());
    }
    for c in children(e) {
        states_read(c, rated, out);
    }
}

/// The operands of `e` that an equation's unknowns can stand in: not the argument of
/// `prev(…)`, which is the previous step's value, known.
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Call(f, _) if f.text == "prev" => Vec::new(),
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) | ExprKind::Path(_) => {
            Vec::new()
        }
        ExprKind::Call(_, args) => args.iter().collect(),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => vec![a],
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::Compare(a, rest) => {
            let mut v = vec![&**a];
            v.extend(rest.iter().map(|(_, e)| e));
            v
        }
        ExprKind::Index(_, ix) => ix.iter().collect(),
        ExprKind::Reduce(_, g) => vec![&g.body],
    }
}

/// The unknown that `e` is, if it is one.
fn unknown_at(e: &Expr, reals: &HashMap<&str, Span>, rated: &HashSet<&str>) -> Option<Unknown> {
    if let Some(x) = der_of(e) {
        return reals
            .contains_key(x.text.as_str())
            .then(|| Unknown::Rate(x.text.clone()));
    }
    match &e.kind {
        ExprKind::Path(p)
            if p.len() == 1
                && reals.contains_key(p[0].text.as_str())
                && !rated.contains(p[0].text.as_str()) =>
        {
            Some(Unknown::Value(p[0].text.clone()))
        }
        _ => None,
    }
}

/// Adds the unknowns of `e` to `out` (each once, in the order first read); `false`
/// after an error (a `der` of something that is not an unknown's rate).
fn unknowns_of(
    e: &Expr,
    reals: &HashMap<&str, Span>,
    rated: &HashSet<&str>,
    out: &mut Vec<Unknown>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if let Some(u) = unknown_at(e, reals, rated) {
        if !out.contains(&u) {
            out.push(u);
        }
        return true;
    }
    if let ExprKind::Call(f, args) = &e.kind
        && f.text == "der"
    {
        let what = match der_of(e) {
            Some(x) => format!(
                "`{}` is not a `real` of this model that no rule writes",
                x.text
            ),
            None if args.len() == 1 => "the argument is not a variable's name".to_string(),
            None => format!("`der` takes one argument, not {}", args.len()),
        };
        diags.push(
            Diagnostic::error(
                "E0494",
                e.span,
                "`der` of something that is not a state's rate",
            )
            .with_label(what)
            .with_help(
                "`der(x)` in an equation is the rate of a `real x` that the equations \
                     determine (no rule writes it)",
            ),
        );
        return false;
    }
    let mut ok = true;
    for c in children(e) {
        ok &= unknowns_of(c, reals, rated, out, diags);
    }
    ok
}

/// Whether `e` is the unknown `u`.
fn is(e: &Expr, u: &Unknown) -> bool {
    match u {
        Unknown::Rate(x) => der_of(e).is_some_and(|n| &n.text == x),
        Unknown::Value(x) => {
            matches!(&e.kind, ExprKind::Path(p) if p.len() == 1 && &p[0].text == x)
        }
    }
}

/// How many times `e` reads `u`.
fn count(e: &Expr, u: &Unknown) -> usize {
    if is(e, u) {
        return 1;
    }
    children(e).into_iter().map(|c| count(c, u)).sum()
}

/// The rules that solve equation `eq` for `u`: one δ rule where it can be rearranged,
/// else Newton's iteration (with its hidden iterates added to `hidden`); `None` after
/// an error.
fn solve_one(
    eq: &Equation<'_>,
    u: &Unknown,
    taken: &[&str],
    hidden: &mut Added,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Rule>> {
    let span = eq.span;
    if let Some(value) = solve_for(eq.lhs, eq.rhs, u, span) {
        return Some(vec![rule(eq, u, value)]);
    }
    let Unknown::Value(name) = u else {
        diags.push(
            Diagnostic::error(
                "E0493",
                span,
                format!("this equation cannot be solved for {}", u.show()),
            )
            .with_label(format!("determines {}, but not linearly", u.show()))
            .with_note(
                "Sit solves an equation for a rate where the rate is reached through `+`, \
                 `-`, `*` and `/` only; Newton's iteration solves for values, not rates",
            )
            .with_help(format!(
                "solve the equation for {} by hand, or give the rate a name: `real r;` \
                 with the equation on `r`, and `{x} = integral(r);`",
                u.show(),
                x = match u {
                    Unknown::Rate(x) | Unknown::Value(x) => x,
                }
            )),
        );
        return None;
    };
    let residual = Residual {
        unknown: name.clone(),
        at: occurrence(eq, u).unwrap_or(span),
        lhs: eq.lhs.clone(),
        rhs: eq.rhs.clone(),
        span,
    };
    match newton(&[residual], taken, hidden) {
        Ok(rules) => Some(rules),
        Err(Refusal::NoSlope(f)) => {
            diags.push(no_slope(span, u, &f));
            None
        }
    }
}

/// E0493 for an equation whose unknown is reached through `f`, which has no slope.
fn no_slope(span: Span, u: &Unknown, f: &Name) -> Diagnostic {
    Diagnostic::error(
        "E0493",
        span,
        format!("this equation cannot be solved for {}", u.show()),
    )
    .with_label(format!(
        "Newton's iteration needs the slope of `{}`",
        f.text
    ))
    .with_related(f.span, format!("`{}` has no slope", f.text))
    .with_note(
        "Sit solves an equation that cannot be rearranged by Newton's iteration, with the \
         exact slope of every operation on the unknown's path; a stateful procedure or a \
         lookup table there has none",
    )
    .with_help(format!(
        "solve the equation for {} by hand, or let `{}` read the previous step's value \
         (`prev(…)` of its argument), which is known",
        u.show(),
        f.text,
    ))
}

/// The rule `u = value` of equation `eq` (`x = integral(value)` for a rate).
fn rule(eq: &Equation<'_>, u: &Unknown, value: Expr) -> Rule {
    let span = eq.span;
    let (name, value) = match u {
        Unknown::Value(n) => (n, value),
        Unknown::Rate(n) => (
            n,
            Expr {
                kind: ExprKind::Call(
                    Name {
                        text: "integral".into(),
                        span,
                    },
                    vec![value],
                ),
                span,
            },
        ),
    };
    Rule::Assign {
        target: Name {
            text: name.clone(),
            span: occurrence(eq, u).unwrap_or(span),
        },
        index: Vec::new(),
        value,
        guard: Guard::None,
        span,
    }
}

/// The rules of a loop of equations (`block`: each with its unknown, in textual order),
/// solved by substitution: each equation in turn is solved for its unknown, which is
/// then replaced by that solution in the equations after it, so the last one reads
/// only known values; the rules compute the unknowns back from the last. An equation
/// that, once the earlier solutions are put in, cannot be solved for its unknown
/// (not linear in it, or no longer reading it) makes that unknown a *tearing* one: it
/// stays a name in the equations after it, and its equation, with every other
/// unknown put in, is a residual that Newton's iteration solves (up to
/// [`MAX_TEARING`] of them). `None` after an error.
fn solve_loop(
    eqs: &[Equation<'_>],
    block: &[(usize, Unknown)],
    taken: &[&str],
    switches: &HashSet<&str>,
    hidden: &mut Added,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Rule>> {
    let mut sides: Vec<(Expr, Expr)> = block
        .iter()
        .map(|&(e, _)| (eqs[e].lhs.clone(), eqs[e].rhs.clone()))
        .collect();
    // A rate in the loop is solved for as a value of its own, `x_rate` (hidden), which
    // the other unknowns read and the state then integrates: `x = integral(x_rate)`.
    let mut block: Vec<(usize, Unknown)> = block.to_vec();
    let mut integrals = Vec::new();
    for (e, u) in &mut block {
        let Unknown::Rate(x) = u.clone() else {
            continue;
        };
        let mut name = format!("{x}_rate");
        while taken.contains(&name.as_str())
            || hidden
                .decls
                .iter()
                .any(|d| matches!(d, Decl::Var { name: n, .. } if n.text == name))
        {
            name.insert(x.len(), '_');
        }
        let span = eqs[*e].span;
        hidden.decls.push(Decl::Var {
            doc: vec![newton::HIDDEN_DOC.to_string()],
            kind: crate::ast::DeclKind::Real,
            output: false,
            name: Name {
                text: name.clone(),
                span,
            },
            unit: None,
            value: None,
        });
        let value = Expr {
            kind: ExprKind::Path(vec![Name {
                text: name.clone(),
                span,
            }]),
            span,
        };
        for (l, r) in &mut sides {
            *l = substitute(l, u, &value);
            *r = substitute(r, u, &value);
        }
        integrals.push(rule(&eqs[*e], u, value));
        *u = Unknown::Value(name);
    }
    // An equation whose coefficient for its unknown reads a value that a rule writes (a
    // switch: a conductance, a clutch's lock) is solved after the others, so that what
    // it is divided by is the whole loop's coefficient, not its own, which may be 0 in
    // some situation.
    let switched = |k: usize| {
        let Unknown::Value(u) = &block[k].1 else {
            return false;
        };
        let (l, r) = &sides[k];
        derive::derive(&derive::sub(l.clone(), r.clone()), u).is_ok_and(|c| reads_any(&c, switches))
    };
    let mut moved: Vec<usize> = (0..block.len()).filter(|&k| !switched(k)).collect();
    moved.extend((0..block.len()).filter(|&k| switched(k)));
    let block: Vec<(usize, Unknown)> = moved.iter().map(|&k| block[k].clone()).collect();
    let mut sides: Vec<(Expr, Expr)> = moved.iter().map(|&k| sides[k].clone()).collect();
    let block = block.as_slice();
    let mut values: Vec<Option<Expr>> = Vec::with_capacity(block.len());
    let mut torn = Vec::new();
    for i in 0..block.len() {
        let (e, u) = (&block[i].0, &block[i].1);
        let span = eqs[*e].span;
        let (lhs, rhs) = &sides[i];
        let Some(value) = solve_for(lhs, rhs, u, span) else {
            torn.push(i);
            values.push(None);
            continue;
        };
        for (l, r) in &mut sides[i + 1..] {
            *l = substitute(l, u, &value);
            *r = substitute(r, u, &value);
        }
        values.push(Some(value));
    }
    let comp: Vec<usize> = block.iter().map(|(e, _)| *e).collect();
    let names: Vec<String> = block.iter().map(|(_, u)| u.show()).collect();
    if torn.is_empty() {
        let mut rules: Vec<Rule> = block
            .iter()
            .zip(values)
            .rev()
            .map(|((e, u), value)| rule(&eqs[*e], u, value.expect("solved")))
            .collect();
        rules.extend(integrals);
        return Some(rules);
    }
    if torn.len() > MAX_TEARING {
        diags.push(
            loop_error(&comp, eqs, &names, None)
                .with_note(format!(
                    "Sit solves a loop by substitution, and what substitution leaves by \
                     Newton's iteration on at most {MAX_TEARING} unknowns; this loop leaves \
                     {} ({})",
                    torn.len(),
                    torn.iter()
                        .map(|&i| block[i].1.show())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_help(
                    "split the loop by computing one of its values by a rule or a `prev`, \
                     or solve part of it by hand",
                ),
        );
        return None;
    }
    // Every unknown that substitution solved, in terms of the tearing ones only: from
    // the last, whose solution reads no later unknown, back to the first.
    let mut resolved: Vec<Option<Expr>> = vec![None; block.len()];
    for i in (0..block.len()).rev() {
        if let Some(v) = &values[i] {
            let mut v = v.clone();
            for j in i + 1..block.len() {
                if let Some(r) = &resolved[j] {
                    v = substitute(&v, &block[j].1, r);
                }
            }
            resolved[i] = Some(v);
        }
    }
    let mut residuals = Vec::with_capacity(torn.len());
    for &i in &torn {
        let (e, u) = (&block[i].0, &block[i].1);
        let Unknown::Value(name) = u else {
            diags.push(
                loop_error(
                    &comp,
                    eqs,
                    &names,
                    Some((*e, format!("not linear in {}", u.show()))),
                )
                .with_note(
                    "Newton's iteration solves a loop for values, not rates; once the \
                         other equations are put in, this one is not linear in the rate",
                )
                .with_help("solve the loop by hand, or compute one of its values by a rule"),
            );
            return None;
        };
        let (mut lhs, mut rhs) = sides[i].clone();
        for j in i + 1..block.len() {
            if let Some(r) = &resolved[j] {
                lhs = substitute(&lhs, &block[j].1, r);
                rhs = substitute(&rhs, &block[j].1, r);
            }
        }
        residuals.push(Residual {
            unknown: name.clone(),
            at: occurrence(&eqs[*e], u).unwrap_or(eqs[*e].span),
            lhs,
            rhs,
            span: eqs[*e].span,
        });
    }
    let mut rules = match newton(&residuals, taken, hidden) {
        Ok(rules) => rules,
        Err(Refusal::NoSlope(f)) => {
            let (e, u) = &block[torn[0]];
            diags.push(no_slope(eqs[*e].span, u, &f));
            return None;
        }
    };
    // Then the others, from the last: each reads the tearing unknowns and later ones.
    for i in (0..block.len()).rev() {
        if let Some(value) = values[i].take() {
            rules.push(rule(&eqs[block[i].0], &block[i].1, value));
        }
    }
    rules.extend(integrals);
    Some(rules)
}

/// Whether `e` reads one of `names` (not under `prev`).
fn reads_any(e: &Expr, names: &HashSet<&str>) -> bool {
    if let ExprKind::Path(p) = &e.kind
        && p.len() == 1
        && names.contains(p[0].text.as_str())
    {
        return true;
    }
    children(e).into_iter().any(|c| reads_any(c, names))
}

/// Where equation `eq` first reads `u`.
fn occurrence(eq: &Equation<'_>, u: &Unknown) -> Option<Span> {
    fn find(e: &Expr, u: &Unknown) -> Option<Span> {
        if is(e, u) {
            return Some(e.span);
        }
        children(e).into_iter().find_map(|c| find(c, u))
    }
    find(eq.lhs, u).or_else(|| find(eq.rhs, u))
}
