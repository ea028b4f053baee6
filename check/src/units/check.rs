//! The unit check of issue 30: declared units checked wherever they flow, the others inferred.
//!
//! Gradual: a model without units checks as before, and a value whose unit is not known
//! is not checked. Each model is checked after the models it instantiates, so that a
//! submodel's output has its unit (declared or inferred) where the parent reads it. In
//! each model, the rules are walked a few times without reporting, each walk unifying
//! what it can ([`super::solve`]: products of two unknown units are learned once one of
//! them is known), then once more reporting the conflicts: a bounded number of linear
//! passes. The check reads the syntax tree (for its spans) of a program the checker has
//! accepted, and changes nothing in it: units cost nothing at run time.

use super::bindings::{Bound, ROUNDS, Seed, Seeds};
use super::report;
use super::show::show_unit;
use super::solve::{Origin, Solver, Term, over, same_dimension, times};
use super::tables::{TableUnits, table_units};
use super::{Unit, parse_unit};
use crate::Span;
use crate::ast::{self, BinOp, Decl, DeclKind, Expr, ExprKind, Guard, Rule};
use crate::check::Stateful;
use crate::diag::Diagnostic;
use crate::source::SourceMap;
use std::collections::HashMap;

/// The most walks of a model that only infer, before the walk that reports.
const MAX_PASSES: usize = 6;

/// The unit of each real variable of a model whose unit is known, by name.
#[derive(Clone, Debug, Default)]
pub struct ModelUnits {
    /// Variable name to its unit, declared or inferred, how it is shown, and whether a
    /// declared unit went into it (see [`Term::Known`]).
    pub vars: HashMap<String, (Unit, String, bool)>,
    /// Where each variable's unit was declared or inferred, by name.
    pub origins: HashMap<String, Origin>,
}

/// What a name of a model is, for the unit check.
#[derive(Clone, Copy)]
pub(super) enum Name {
    /// A real param, input or state: its class.
    Real(usize),
    /// A flag, pred, situation or event.
    Logic,
    /// A submodel instance: its model's index.
    Sub(usize),
    /// A lookup table: its index in [`ModelCheck::tables`].
    Table(usize),
    /// A mode, a state name: no unit.
    Other,
}

/// Check the units of every model (`models` in any order; submodels by name), pushing
/// errors to `diags`. Returns each model's units, parallel to `models`.
pub fn check_models(models: &[&ast::Model], diags: &mut Vec<Diagnostic>) -> Vec<ModelUnits> {
    check_models_in(models, None, diags)
}

/// [`check_models`] with the program's files at hand (`sources`): the units written in
/// the header of a table's CSV file are read too.
pub fn check_models_in(
    models: &[&ast::Model],
    sources: Option<&SourceMap>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModelUnits> {
    let by_name: HashMap<&str, usize> = models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name.text.as_str(), i))
        .collect();
    let mut seeds = Seeds::new();
    for round in 1..=ROUNDS {
        let mut done: Vec<Option<ModelUnits>> = vec![None; models.len()];
        let mut open = vec![false; models.len()];
        let mut round_diags = Vec::new();
        let mut bound = Bound::default();
        let mut ctx = Program {
            models,
            by_name: &by_name,
            sources,
            seeds: &seeds,
        };
        for i in 0..models.len() {
            ctx.visit(i, &mut done, &mut open, &mut bound, &mut round_diags);
        }
        let agreed = bound.agreed();
        let new = agreed.keys().any(|k| !seeds.contains_key(k));
        if !new || round == ROUNDS {
            diags.append(&mut round_diags);
            return done.into_iter().map(Option::unwrap_or_default).collect();
        }
        // An input seeded in an earlier round has its unit now, and no longer records.
        for (k, s) in agreed {
            seeds.entry(k).or_insert(s);
        }
    }
    unreachable!("the last round returns")
}

/// What every model's check reads of the program.
struct Program<'a, 'b> {
    models: &'b [&'a ast::Model],
    by_name: &'b HashMap<&'a str, usize>,
    sources: Option<&'b SourceMap>,
    /// The units the parents' bindings give the submodels' inputs (see [`super::bindings`]).
    seeds: &'b Seeds,
}

/// The units of every model of the files of `sources` (a program that checked), by
/// model name: for tools that show them (`sitc info`, the language server's hover).
pub fn units_of_sources(sources: &crate::SourceMap) -> HashMap<String, ModelUnits> {
    let files: Vec<(crate::source::FileId, ast::File)> = (sources.files.iter().enumerate())
        .filter_map(|(id, f)| Some((id, crate::parse::parse_file(id, &f.text).ok()?)))
        .collect();
    // Parts flattened into their holders, as the checker sees them.
    let flat = crate::check::flat_models(&files);
    let models: Vec<&ast::Model> = flat.iter().collect();
    let units = check_models_in(&models, Some(sources), &mut Vec::new());
    (models.iter().map(|m| m.name.text.clone()))
        .zip(units)
        .collect()
}

impl Program<'_, '_> {
    /// Check model `i` after the models it instantiates (the checker has ruled out cycles;
    /// a cycle here would only leave the inner model without units).
    fn visit(
        &mut self,
        i: usize,
        done: &mut [Option<ModelUnits>],
        open: &mut [bool],
        bound: &mut Bound,
        diags: &mut Vec<Diagnostic>,
    ) {
        let (models, by_name) = (self.models, self.by_name);
        // An explicit stack: the instance tree may be deep.
        let mut stack = vec![(i, false)];
        while let Some((m, children_done)) = stack.pop() {
            if done[m].is_some() {
                continue;
            }
            if children_done {
                let mut check = ModelCheck::new(models[m], by_name, done, self.sources);
                check.index = m;
                check.seeds = Some(self.seeds);
                let units = check.run(diags, bound);
                done[m] = Some(units);
                continue;
            }
            if open[m] {
                continue;
            }
            open[m] = true;
            stack.push((m, true));
            for d in &models[m].decls {
                if let Decl::Sub { model, .. } = d
                    && let Some(&c) = by_name.get(model.text.as_str())
                    && done[c].is_none()
                    && !open[c]
                {
                    stack.push((c, false));
                }
            }
        }
    }
}

/// The check of one model.
pub(super) struct ModelCheck<'a> {
    model: &'a ast::Model,
    by_name: &'a HashMap<&'a str, usize>,
    subs_units: &'a [Option<ModelUnits>],
    pub(super) names: HashMap<&'a str, Name>,
    /// The name of each class (its variable).
    class_names: Vec<&'a str>,
    /// Where each class's variable declares its unit, if it does.
    declared: Vec<Option<Origin>>,
    /// The reads of real variables walked so far: where, and the variable's class (a
    /// conflict points at the declarations of the variables read inside it).
    reads: Vec<(Span, usize)>,
    pub(super) solver: Solver,
    /// Units as the user wrote them, to show a unit as written.
    pub(super) written: Vec<(Unit, String)>,
    /// The files of the program (a table's CSV file), when at hand.
    sources: Option<&'a SourceMap>,
    /// The units of each table of the model, by [`Name::Table`].
    pub(super) tables: Vec<TableUnits>,
    /// This model's index in the program, for [`Self::seeds`].
    index: usize,
    /// The units the parents' bindings give inputs, by model index and name.
    seeds: Option<&'a Seeds>,
    /// The bindings of submodels' inputs of unknown unit, recorded on the reporting walk.
    bound: Bound,
    /// Whether this walk reports its conflicts.
    pub(super) report: bool,
    pub(super) errors: Vec<Diagnostic>,
}

impl<'a> ModelCheck<'a> {
    fn new(
        model: &'a ast::Model,
        by_name: &'a HashMap<&'a str, usize>,
        subs_units: &'a [Option<ModelUnits>],
        sources: Option<&'a SourceMap>,
    ) -> Self {
        ModelCheck {
            model,
            by_name,
            subs_units,
            names: HashMap::new(),
            class_names: Vec::new(),
            declared: Vec::new(),
            reads: Vec::new(),
            solver: Solver::default(),
            written: Vec::new(),
            sources,
            tables: Vec::new(),
            index: usize::MAX,
            seeds: None,
            bound: Bound::default(),
            report: false,
            errors: Vec::new(),
        }
    }

    fn run(mut self, diags: &mut Vec<Diagnostic>, bound: &mut Bound) -> ModelUnits {
        self.declare();
        for _ in 0..MAX_PASSES {
            let before = self.solver.learned;
            self.walk_model();
            if self.solver.learned == before {
                break;
            }
        }
        self.report = true;
        self.walk_model();
        // An error in a model whose inputs have their units from its parents' bindings
        // shows where (the unit may have come through a product, which keeps no origin).
        if let Some(seeds) = self.seeds {
            let mut from: Vec<&Seed> = (seeds.iter())
                .filter(|((m, _), _)| *m == self.index)
                .map(|(_, s)| s)
                .collect();
            from.sort_by_key(|s| (s.origin.span.file, s.origin.span.start));
            for e in &mut self.errors {
                for s in &from {
                    if !e.related.iter().any(|r| r.0 == s.origin.span) {
                        e.related.push((s.origin.span, s.origin.label.clone()));
                    }
                }
            }
        }
        diags.append(&mut self.errors);
        bound.merge(std::mem::take(&mut self.bound));
        let mut out = ModelUnits::default();
        for c in 0..self.class_names.len() {
            // A unit past `MAX_POWER` is not followed, so not shown either.
            if let Some((u, o, a)) = self.solver.unit_of(c)
                && !u.is_beyond()
            {
                let name = self.class_names[c].to_string();
                if let Some(o) = o {
                    out.origins.insert(name.clone(), o);
                }
                out.vars.insert(name, (u, self.show(&u), a));
            }
        }
        out
    }

    /// The names of the model; a class per real variable, fixed where a unit is declared.
    fn declare(&mut self) {
        for d in &self.model.decls {
            match d {
                Decl::Var {
                    kind, name, unit, ..
                } => {
                    let real =
                        matches!(kind, DeclKind::Param | DeclKind::InputReal | DeclKind::Real);
                    if !real {
                        self.names.insert(&name.text, Name::Logic);
                        if let Some(u) = unit {
                            self.errors
                                .push(report::unit_on_logic(u, *kind, &name.text));
                        }
                        continue;
                    }
                    let c = self.solver.class();
                    self.class_names.push(&name.text);
                    self.declared.push(None);
                    self.names.insert(&name.text, Name::Real(c));
                    let bindable = matches!(kind, DeclKind::Param | DeclKind::InputReal);
                    if unit.is_none()
                        && bindable
                        && let Some(s) = self
                            .seeds
                            .and_then(|s| s.get(&(self.index, name.text.clone())))
                    {
                        self.solver.seed(c, s.unit, s.origin.clone(), s.anchored);
                    }
                    if let Some(u) = unit {
                        match parse_unit(&u.text) {
                            Ok(parsed) => {
                                let shown = u.text.trim().to_string();
                                self.written.push((parsed, shown.clone()));
                                let origin = Origin {
                                    span: u.span,
                                    label: format!("`{}` is declared `{shown}` here", name.text),
                                };
                                self.declared[c] = Some(origin.clone());
                                self.solver.declare(c, parsed, origin);
                            }
                            Err(e) => {
                                self.errors.push(report::not_a_unit(
                                    u,
                                    e,
                                    &format!("`{}`", name.text),
                                ));
                            }
                        }
                    }
                }
                Decl::Sub { name, model, .. } => {
                    let n = match self.by_name.get(model.text.as_str()) {
                        Some(&i) => Name::Sub(i),
                        None => Name::Other,
                    };
                    self.names.insert(&name.text, n);
                }
                Decl::Mode { name, states, .. } => {
                    self.names.insert(&name.text, Name::Other);
                    for s in states {
                        self.names.entry(&s.text).or_insert(Name::Other);
                    }
                }
                Decl::Table(t) => {
                    self.names
                        .insert(&t.name.text, Name::Table(self.tables.len()));
                    let units = table_units(t, self.sources, &mut self.written, &mut self.errors);
                    self.tables.push(units);
                }
            }
        }
    }

    // --- the walk ------------------------------------------------------------

    fn walk_model(&mut self) {
        let m = self.model;
        for d in &m.decls {
            match d {
                Decl::Var {
                    name,
                    value: Some(v),
                    ..
                } => match self.names.get(name.text.as_str()) {
                    Some(&Name::Real(c)) => {
                        let t = self.expr(v);
                        let what = format!("the value of `{}`", name.text);
                        self.require(&t, &Term::Of(c, Unit::ONE), v.span, &what);
                    }
                    _ => {
                        self.expr(v);
                    }
                },
                Decl::Var { .. } | Decl::Mode { .. } | Decl::Table(_) => {}
                Decl::Sub {
                    name,
                    bindings,
                    phase,
                    ..
                } => {
                    for (param, v) in bindings {
                        let t = self.expr(v);
                        if let Some(Term::Known(u, o, a)) = self.member(&name.text, &param.text) {
                            let what = format!("the binding of `{}`", param.text);
                            self.require(&t, &Term::Known(u, o, a), v.span, &what);
                        } else if self.report
                            && let Some(&Name::Sub(i)) = self.names.get(name.text.as_str())
                            && let Term::Known(unit, _, anchored) = self.solver.resolve(t)
                        {
                            let shown = self.show(&unit);
                            let origin = Origin {
                                span: v.span,
                                label: format!(
                                    "`{}` is `{shown}`, from the binding in `{}`",
                                    param.text, self.model.name.text
                                ),
                            };
                            let seed = Seed {
                                unit,
                                anchored,
                                origin,
                            };
                            self.bound.record(i, &param.text, seed);
                        }
                    }
                    if let Some(p) = phase {
                        self.expr(&p.until);
                    }
                }
            }
        }
        for s in &m.substeps {
            self.expr(&s.count);
            if let Some(w) = &s.when {
                self.expr(w);
            }
        }
        for r in &m.rules {
            self.rule(r);
        }
    }

    fn rule(&mut self, r: &Rule) {
        // Only the reads of the rule being walked can lie inside its conflicts.
        self.reads.clear();
        match r {
            Rule::Assign {
                target,
                value,
                guard,
                ..
            } => {
                if let Guard::When(g) = guard {
                    self.expr(g);
                }
                let Some(&Name::Real(c)) = self.names.get(target.text.as_str()) else {
                    self.expr(value);
                    return;
                };
                let target_term = Term::Of(c, Unit::ONE);
                if let ExprKind::Call(f, args) = &value.kind
                    && let Some(s) = Stateful::from_name(&f.text)
                {
                    self.stateful(s, args, &target.text, &target_term, value.span);
                    return;
                }
                let t = self.expr(value);
                let what = format!("the value of `{}`", target.text);
                self.require(&t, &target_term, value.span, &what);
            }
            Rule::Sigma { cond, .. } => {
                self.expr(cond);
            }
            // Its bindings are checked with the submodel's declaration.
            Rule::Step { .. } => {}
            // Solved into δ rules before the units are checked (`check::equations`); one
            // left is nested in a block, an error already.
            Rule::Equation { .. } => {}
            Rule::Block { cond, rules, .. } => {
                self.expr(cond);
                for r in rules {
                    self.rule(r);
                }
            }
            Rule::Transition { guard, rules, .. } => {
                if let Some(g) = guard {
                    self.expr(g);
                }
                for r in rules {
                    self.rule(r);
                }
            }
            Rule::For(l) => {
                for r in &l.rules {
                    self.rule(r);
                }
            }
        }
    }

    /// How many reads have been recorded (for [`Self::forget_reads`]).
    pub(super) fn reads_len(&self) -> usize {
        self.reads.len()
    }

    /// Forgets the reads recorded after the first `len`: their units do not flow into
    /// the expression around them.
    pub(super) fn forget_reads(&mut self, len: usize) {
        self.reads.truncate(len);
    }

    /// The unit of `e`, requiring equal units where the operators need them.
    pub(super) fn expr(&mut self, e: &Expr) -> Term {
        match &e.kind {
            ExprKind::Num(_) => Term::Lit,
            ExprKind::Quantity(_, u) => self.quantity(u, e.span),
            ExprKind::Bool(_) => Term::Logic,
            ExprKind::Paren(a) | ExprKind::Neg(a) => self.expr(a),
            ExprKind::Not(a) => {
                self.expr(a);
                Term::Logic
            }
            ExprKind::Path(p) => self.path(p),
            // Expanded before the units are checked (`check::arrays`).
            ExprKind::Index(..) | ExprKind::Reduce(..) => Term::Lit,
            ExprKind::Compare(first, rest) => {
                let mut left = (self.expr(first), first.span);
                for (op, x) in rest {
                    let right = self.expr(x);
                    let sym = cmp_symbol(*op);
                    self.require(&right, &left.0, x.span, &format!("the sides of `{sym}`"));
                    left = (right, x.span);
                }
                Term::Logic
            }
            ExprKind::Binary(op, a, b) => {
                let (ta, tb) = (self.expr(a), self.expr(b));
                match op {
                    BinOp::Or | BinOp::And => Term::Logic,
                    BinOp::Add | BinOp::Sub => {
                        if *op == BinOp::Add && self.absolute(&ta) && self.absolute(&tb) {
                            let what = "the sum of two absolute temperatures";
                            return self.meaningless(
                                e.span,
                                what,
                                "adds two temperatures in `degC`",
                            );
                        }
                        if let Some(t) = self.affine(*op, &ta, &tb) {
                            return t;
                        }
                        let what = format!("the operands of `{}`", op.symbol());
                        self.same_of(&ta, &tb, b.span, &what)
                    }
                    BinOp::Mul | BinOp::Div if self.absolute(&ta) || self.absolute(&tb) => {
                        let what = "a product or quotient of an absolute temperature";
                        self.meaningless(e.span, what, "scales a temperature in `degC`")
                    }
                    BinOp::Mul => self.mul(&ta, &tb, false),
                    BinOp::Div => self.mul(&ta, &tb, true),
                    BinOp::Pow => self.pow(ta, a, tb, b, e.span),
                }
            }
            ExprKind::Call(f, args) => self.call(f, args, e.span),
        }
    }

    /// Whether `t` is known to be in an affine unit (`degC`, an absolute temperature).
    fn absolute(&mut self, t: &Term) -> bool {
        matches!(self.solver.resolve(t.clone()), Term::Known(u, _, _) if u.offset != 0.0)
    }

    /// E0482 (on the reporting walk) for `what` at `at` (`label` under it), which only a
    /// temperature difference has a meaning for (issue 53, item 6); the term is left free.
    fn meaningless(&mut self, at: Span, what: &str, label: &str) -> Term {
        if self.report {
            self.errors.push(
                Diagnostic::error("E0482", at, format!("{what} (`degC`) has no meaning"))
                    .with_label(label)
                    .with_note(
                        "`degC` is a temperature on a scale with its zero at 273.15 K: only its \
                     differences (in `K`) add and scale",
                    )
                    .with_help(
                        "work with a difference: `T - T_ref` is in `K`, `T_ref + 2 * (T - T_ref)` \
                     scales it and `T_a + (T_b - T_a) / 2` is a mean; or declare the \
                     temperatures in `K`",
                    ),
            );
        }
        Term::Free
    }

    /// The absolute/difference rule of an affine unit (`degC`): an absolute temperature
    /// plus or minus a difference (`K` at its scale) is absolute, the difference of two
    /// absolute ones is a difference. `None` where the rule does not apply.
    fn affine(&mut self, op: BinOp, a: &Term, b: &Term) -> Option<Term> {
        let (Term::Known(ua, _, xa), Term::Known(ub, _, xb)) = (
            self.solver.resolve(a.clone()),
            self.solver.resolve(b.clone()),
        ) else {
            return None;
        };
        if !same_dimension(&ua, &ub)
            || ua.scale != ub.scale
            || (ua.offset == 0.0 && ub.offset == 0.0)
        {
            return None;
        }
        let anchored = xa || xb;
        match (op, ua.offset != 0.0, ub.offset != 0.0) {
            (BinOp::Add, true, false) | (BinOp::Sub, true, false) => {
                Some(Term::Known(ua, None, anchored))
            }
            (BinOp::Add, false, true) => Some(Term::Known(ub, None, anchored)),
            (BinOp::Sub, true, true) if ua.offset == ub.offset => {
                Some(Term::Known(Unit { offset: 0.0, ..ua }, None, anchored))
            }
            _ => None,
        }
    }

    /// Require `b = a` (reported at `at`); the result is the better known of the two.
    pub(super) fn same_of(&mut self, a: &Term, b: &Term, at: Span, what: &str) -> Term {
        let ok = self.require(b, a, at, what);
        if !ok {
            return Term::Free;
        }
        match self.solver.resolve(a.clone()) {
            Term::Lit | Term::Free => self.solver.resolve(b.clone()),
            t => t,
        }
    }

    fn path(&mut self, p: &[ast::Name]) -> Term {
        match p {
            [x] => match x.text.as_str() {
                "time" | "dt" if !self.names.contains_key(x.text.as_str()) => {
                    Term::Known(seconds(), None, false)
                }
                n => match self.names.get(n) {
                    Some(Name::Real(c)) => {
                        self.reads.push((x.span, *c));
                        Term::Of(*c, Unit::ONE)
                    }
                    Some(Name::Logic) => Term::Logic,
                    _ => Term::Free,
                },
            },
            [s, m] => match m.text.as_str() {
                "on" => Term::Logic,
                "time" => Term::Known(seconds(), None, false),
                _ => self.member(&s.text, &m.text).unwrap_or(Term::Free),
            },
            _ => Term::Free,
        }
    }

    /// The unit of `sub.var`, as the submodel declared or inferred it.
    fn member(&self, sub: &str, var: &str) -> Option<Term> {
        let Some(&Name::Sub(i)) = self.names.get(sub) else {
            return None;
        };
        let units = self.subs_units.get(i)?.as_ref()?;
        let (u, shown, anchored) = units.vars.get(var)?;
        Some(Term::Known(
            *u,
            Some(match units.origins.get(var) {
                Some(o) => Origin {
                    span: o.span,
                    label: format!("`{sub}.{var}`: {}", o.label),
                },
                None => Origin {
                    span: self.sub_decl_span(sub),
                    label: format!("`{sub}.{var}` is `{shown}` in its model"),
                },
            }),
            *anchored,
        ))
    }

    fn sub_decl_span(&self, sub: &str) -> Span {
        self.model
            .decls
            .iter()
            .find_map(|d| match d {
                Decl::Sub { name, .. } if name.text == sub => Some(name.span),
                _ => None,
            })
            .unwrap_or(self.model.name.span)
    }

    /// `a * b` or `a / b`.
    pub(super) fn mul(&mut self, a: &Term, b: &Term, divide: bool) -> Term {
        let (a, b) = (
            self.solver.resolve(a.clone()),
            self.solver.resolve(b.clone()),
        );
        let one =
            |t: &Term| matches!(t, Term::Known(u, _, _) if u.is_dimensionless() && u.scale == 1.0);
        let lit_like = |t: &Term| matches!(t, Term::Lit) || one(t);
        if lit_like(&a) && lit_like(&b) && (matches!(a, Term::Lit) || matches!(b, Term::Lit)) {
            return Term::Lit;
        }
        let inv = |u: &Unit| if divide { Unit::ONE.div(u) } else { *u };
        let t = match (a, b) {
            (Term::Free | Term::Logic, _) | (_, Term::Free | Term::Logic) => Term::Free,
            (Term::Lit, Term::Known(u, _, a)) => Term::Known(inv(&u), None, a),
            (Term::Known(u, o, a), Term::Lit) => Term::Known(u, o, a),
            (Term::Lit, Term::Lit) => Term::Lit,
            (Term::Known(x, _, a), Term::Known(y, _, b)) => Term::Known(
                if divide { over(&x, &y) } else { times(&x, &y) },
                None,
                a || b,
            ),
            (Term::Of(c, r), Term::Known(u, _, _)) => Term::Of(c, times(&r, &inv(&u))),
            (Term::Of(c, r), Term::Lit) => Term::Of(c, r),
            (Term::Known(u, _, _), Term::Of(c, r)) if !divide => Term::Of(c, times(&r, &u)),
            (Term::Lit, Term::Of(c, r)) if !divide => Term::Of(c, r),
            _ => Term::Free,
        };
        // A unit of powers past `MAX_POWER` (hundreds of products in a chain) is not
        // followed.
        match &t {
            Term::Known(u, _, _) | Term::Of(_, u) if u.is_beyond() => Term::Free,
            _ => t,
        }
    }

    /// Require `found = expected`; reports a conflict on the reporting walk. Whether
    /// there was none.
    pub(super) fn require(&mut self, found: &Term, expected: &Term, at: Span, what: &str) -> bool {
        let (written, names) = (&self.written, &self.class_names);
        let label = |c: usize, u: &Unit| Origin {
            span: at,
            label: format!(
                "`{}` is `{}`, inferred from here",
                names[c],
                show_unit(u, written)
            ),
        };
        match self.solver.unify(found, expected, &label) {
            Ok(()) => true,
            Err(c) => {
                if self.report {
                    // The declarations of the variables read where the conflict is, as
                    // rustc points at a parameter's type: the unit may be wrong there.
                    let mut declared: Vec<Origin> = Vec::new();
                    for &(span, c) in &self.reads {
                        if let Some(o) = self.declared.get(c).cloned().flatten()
                            && span.file == at.file
                            && span.start >= at.start
                            && span.end <= at.end
                            && !declared.iter().any(|d| d.span == o.span)
                        {
                            declared.push(o);
                        }
                    }
                    let d = report::conflict(*c, at, what, &self.written, declared);
                    self.errors.push(d);
                }
                false
            }
        }
    }

    /// A number written with its unit, `2 [m/s]`: that unit, declared (E0480 on the
    /// reporting walk if it is not one).
    fn quantity(&mut self, u: &ast::UnitText, at: Span) -> Term {
        match parse_unit(&u.text) {
            Ok(p) => {
                let shown = u.text.trim().to_string();
                if !self.written.iter().any(|(w, s)| *w == p && *s == shown) {
                    self.written.push((p, shown.clone()));
                }
                let origin = Origin {
                    span: at,
                    label: format!("a number in `{shown}`"),
                };
                Term::Known(p, Some(origin), true)
            }
            Err(e) => {
                if self.report {
                    self.errors.push(report::not_a_unit(u, e, "a number"));
                }
                Term::Free
            }
        }
    }

    /// A unit as the user wrote it if they did, else by its name or its SI form.
    pub(super) fn show(&self, u: &Unit) -> String {
        show_unit(u, &self.written)
    }
}

pub(super) fn seconds() -> Unit {
    parse_unit("s").expect("s is a unit")
}

pub(super) fn radian() -> Unit {
    parse_unit("rad").expect("rad is a unit")
}

/// A whole or fractional number literal (possibly negated or in parentheses).
pub(super) fn literal(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Num(n) => Some(*n),
        ExprKind::Neg(a) => literal(a).map(|n| -n),
        ExprKind::Paren(a) => literal(a),
        _ => None,
    }
}

fn cmp_symbol(op: ast::CmpOp) -> &'static str {
    use ast::CmpOp::*;
    match op {
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Eq => "==",
        Ne => "!=",
    }
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
