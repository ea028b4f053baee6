//! Arrays and loops expanded into scalar declarations and rules, before anything else of the checker reads a model.
//!
//! `real T[N] [K] = [f(i) for i in 1:N];` declares one variable per cell, named
//! `T[1]` … `T[N]` (`T[3][4]` in two dimensions), each with the array's kind, unit and
//! doc; `for i in a:b { rules }` writes its rules once per value of `i`, in order; a
//! read `T[i - 1]` becomes the cell's name; `sum(e for i in a:b)` (also `prod`,
//! `min`, `max`) becomes a balanced tree of the operation over its terms. Sizes,
//! bounds and indices are whole numbers computed here from numbers, params and loop
//! variables (`eval`); a param read in one of them is *structural*: its value is
//! substituted wherever the model reads it, and it is no variable of the run (it
//! cannot be set or bound, since the number of cells follows from it).
//!
//! The work is linear in the size of the result: each cell and each rule of a
//! loop's body is written once per value, every lookup is a hash, and errors are
//! reported once per place in the source (an index out of range inside a loop is
//! one error, with the loop's value that makes it so).

use crate::ast::{
    Action, ArrayInit, BinOp, Decl, DeclKind, Expr, ExprKind, File, Generator, Guard, LoopRange,
    Model, Name, Rule,
};
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

mod decls;
mod eval;
pub mod specialise;
mod walk;

/// The most cells of all the arrays of one model.
pub const MAX_CELLS: i64 = 1_000_000;
/// The most loop iterations and generator terms of one model, nested ones included.
pub const MAX_STEPS: u64 = 2_000_000;

/// The files with the arrays and loops of their models expanded (borrowed as they
/// are when no model has any), and the extent of every `for` loop in the source
/// (from `for` to its last rule), within which diagnostics of the expanded rules
/// are reported once per place. Errors go to `diags`.
pub(crate) fn expand<'f>(
    files: &'f [(FileId, File)],
    diags: &mut Vec<Diagnostic>,
) -> (Cow<'f, [(FileId, File)]>, Vec<Span>) {
    let arrays = |m: &Model| {
        !m.arrays.is_empty() || walk::rules_use_arrays(&m.rules) || walk::decls_use_arrays(m)
    };
    if !files.iter().any(|(_, f)| f.models.iter().any(arrays)) {
        return (Cow::Borrowed(files), Vec::new());
    }
    let structural = specialise::structural(files);
    let uses = |m: &Model| arrays(m) || specialise::binds_structural(m, &structural);
    let loops = places(files);
    let mut work = Vec::new();
    let mut out = files
        .iter()
        .enumerate()
        .map(|(fi, (id, f))| {
            let mut f2 = File {
                imports: f.imports.clone(),
                models: Vec::with_capacity(f.models.len()),
                connectors: f.connectors.clone(),
                allows: f.allows.clone(),
            };
            for m in &f.models {
                if uses(m) {
                    let (expanded, requests) = expand_model(m, diags, &structural);
                    if !requests.is_empty() {
                        work.push((fi, f2.models.len(), requests));
                    }
                    f2.models.push(expanded);
                } else {
                    f2.models.push(m.clone());
                }
            }
            (*id, f2)
        })
        .collect::<Vec<_>>();
    copies(files, &mut out, work, &structural, diags);
    (Cow::Owned(out), loops)
}

/// Makes the copies of models that the instances in `work` (file, model, requests)
/// ask for with their structural bindings (see [`specialise`]), each once, expanded
/// and put in the file of the model it copies, and makes the instances name them.
fn copies(
    files: &[(FileId, File)],
    out: &mut [(FileId, File)],
    mut work: Vec<(usize, usize, Vec<specialise::Request>)>,
    structural: &HashMap<String, HashSet<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut originals: HashMap<&str, (usize, &Model)> = HashMap::new();
    for (fi, (_, f)) in files.iter().enumerate() {
        for m in &f.models {
            originals.entry(m.name.text.as_str()).or_insert((fi, m));
        }
    }
    let mut made: HashSet<String> = HashSet::new();
    let mut seen: HashSet<(&'static str, Span, String)> = (diags.iter())
        .map(|d| (d.code, d.span, d.message.clone()))
        .collect();
    while let Some((fi, mi, requests)) = work.pop() {
        for r in requests {
            if !r.failed.is_empty() {
                // A bound value in error (reported): the instance keeps its model as
                // written, without the structural bindings, so that nothing follows.
                specialise::rename(&mut out[fi].1.models[mi], &r, &r.model);
                continue;
            }
            let name = specialise::copy_name(&r.model, &r.values);
            specialise::rename(&mut out[fi].1.models[mi], &r, &name);
            let Some(&(tfi, original)) = originals.get(r.model.as_str()) else {
                continue;
            };
            if made.contains(&name) {
                continue;
            }
            let at = r.values.first().map_or(original.name.span, |v| v.2);
            if made.len() >= specialise::MAX_COPIES {
                diags.push(specialise::too_many(at));
                return;
            }
            made.insert(name.clone());
            let copy = specialise::copy(original, &name, &r.values);
            let mut own = Vec::new();
            let (expanded, more) = expand_model(&copy, &mut own, structural);
            // What the copy adds to the original's diagnostics, with the binding that
            // made it.
            for d in own {
                if seen.insert((d.code, d.span, d.message.clone())) {
                    diags.push(d.with_related(at, format!("in `{name}`, bound here")));
                }
            }
            out[tfi].1.models.push(expanded);
            if !more.is_empty() {
                work.push((tfi, out[tfi].1.models.len() - 1, more));
            }
        }
    }
}

/// The places of the source written once for many variables or rules: the extent
/// of every `for` loop (from `for` to its last rule) and every array (from its name,
/// where each cell is declared, to the end of its values).
pub fn places(files: &[(FileId, File)]) -> Vec<Span> {
    let mut out = Vec::new();
    for (_, f) in files {
        for m in &f.models {
            // An array from its name to the end of its values (each cell's value is
            // written there once).
            out.extend(m.arrays.iter().map(|a| {
                let end = match &a.init {
                    Some(ArrayInit::Each(e)) => e.span.end,
                    Some(ArrayInit::List(_, s)) => s.end,
                    Some(ArrayInit::Comprehension(g)) => g.span.end,
                    None => a.name.span.end,
                };
                Span::new(
                    a.name.span.file,
                    a.name.span.start,
                    end.max(a.name.span.end),
                )
            }));
            walk::loop_extents(&m.rules, &mut out);
        }
    }
    out
}

/// Keeps the first of the diagnostics of `diags` that have one code and one place
/// inside a loop of `loops` (the same rule written for each value of the loop
/// variable), and says so in it.
pub fn once_per_place(diags: &mut Vec<Diagnostic>, loops: &[Span]) {
    if loops.is_empty() {
        return;
    }
    let inside = |s: Span| {
        loops
            .iter()
            .find(|l| l.file == s.file && l.start <= s.start && s.end <= l.end)
            .copied()
    };
    let mut seen: HashMap<(&'static str, Span), usize> = HashMap::new();
    let mut keep = vec![true; diags.len()];
    let mut repeats: Vec<usize> = vec![0; diags.len()];
    for (k, d) in diags.iter().enumerate() {
        if inside(d.span).is_none() {
            continue;
        }
        match seen.get(&(d.code, d.span)) {
            Some(&first) => {
                keep[k] = false;
                repeats[first] += 1;
            }
            None => {
                seen.insert((d.code, d.span), k);
            }
        }
    }
    let mut k = 0;
    diags.retain_mut(|d| {
        let i = k;
        k += 1;
        if repeats[i] > 0 {
            d.notes.push(format!(
                "reported once for the array or loop: the same holds for {} more of its cells or values",
                repeats[i]
            ));
        }
        keep[i]
    });
}

/// An array of a model, as the expansion knows it.
#[derive(Debug)]
struct Array {
    /// The size in each dimension (empty after an error in a size).
    dims: Vec<i64>,
    /// What each cell is.
    kind: DeclKind,
    /// The declared name.
    name: Span,
    /// Whether each cell is assigned by a rule or read by an equation (row-major).
    assigned: Vec<bool>,
}

/// The state of the expansion of one model.
pub(crate) struct Cx<'a> {
    diags: &'a mut Vec<Diagnostic>,
    /// The scalar params of the model and their values.
    params: HashMap<&'a str, Option<&'a Expr>>,
    /// The values of the structural params computed so far (`None` after an error).
    values: HashMap<String, Option<f64>>,
    /// The params whose values are being computed (a cycle is an error).
    evaluating: HashSet<String>,
    /// Every scalar name declared in the model.
    declared: HashSet<&'a str>,
    /// The arrays, by name.
    arrays: HashMap<String, Array>,
    /// The loop variables in scope, outermost first, with their values and ranges.
    env: Vec<(String, i64, Span)>,
    /// The places already reported, by code.
    reported: HashSet<(&'static str, Span)>,
    /// Loop iterations and generator terms so far.
    steps: u64,
    /// Reading the sides of an equation (a cell read there counts as assigned).
    in_equation: bool,
}

/// `m` with its arrays and loops expanded (see the module doc), and its instances that
/// bind a structural param of their model (`structural`, by model), with the values.
fn expand_model(
    m: &Model,
    diags: &mut Vec<Diagnostic>,
    structural: &HashMap<String, HashSet<String>>,
) -> (Model, Vec<specialise::Request>) {
    let errors = diags.len();
    let mut cx = Cx {
        diags,
        params: HashMap::new(),
        values: HashMap::new(),
        evaluating: HashSet::new(),
        declared: HashSet::new(),
        arrays: HashMap::new(),
        env: Vec::new(),
        reported: HashSet::new(),
        steps: 0,
        in_equation: false,
    };
    for d in &m.decls {
        let name = match d {
            Decl::Var {
                kind: DeclKind::Param,
                name,
                value,
                ..
            } => {
                cx.params.insert(name.text.as_str(), value.as_ref());
                name
            }
            Decl::Var { name, .. } | Decl::Sub { name, .. } | Decl::Mode { name, .. } => name,
            Decl::Table(t) => &t.name,
        };
        cx.declared.insert(name.text.as_str());
    }
    cx.declared
        .extend(m.ports.iter().map(|p| p.name.text.as_str()));
    cx.declared
        .extend(m.parts.iter().map(|p| p.name.text.as_str()));
    cx.declare_arrays(&m.arrays);
    if cx.diags[errors..].iter().any(|d| d.code == "E0466") {
        // Too large to expand: the model is left without its arrays and rules, whose
        // errors would only follow from it.
        let mut out = m.clone();
        out.arrays.clear();
        out.rules.clear();
        out.decls.retain(|d| match d {
            Decl::Var { name, .. } => !cx.values.contains_key(&name.text),
            _ => true,
        });
        return (out, Vec::new());
    }
    // Every param read where a whole number is computed is structural, wherever it is
    // read: its value is known before any value is expanded.
    let mut whole_names = Vec::new();
    walk::integer_names(m, &mut whole_names);
    for name in whole_names {
        if cx.params.contains_key(name.text.as_str()) && cx.loop_value(&name.text).is_none() {
            let _ = cx.whole_or_value(name);
        }
    }
    let mut rules = Vec::with_capacity(m.rules.len());
    cx.rules(&m.rules, &mut rules);
    // The structural bindings, computed before the declarations are written: a param
    // of this model read there is structural here too.
    let requests = cx.structural_bindings(m, structural);
    let decls = cx.decls(m);
    if !cx.diags[errors..].iter().any(Diagnostic::is_error) {
        cx.unassigned(&m.arrays);
    }
    let mut out = m.clone();
    out.decls = decls;
    out.rules = rules;
    out.arrays.clear();
    for p in &mut out.parts {
        for (_, e) in &mut p.bindings {
            *e = cx.expr(e);
        }
    }
    for s in &mut out.substeps {
        s.count = cx.expr(&s.count);
        if let Some(w) = &s.when {
            s.when = Some(cx.expr(w));
        }
    }
    (out, requests)
}

impl<'a> Cx<'a> {
    /// The instances of `m` that bind structural params of their models
    /// (`structural`, by model), with the values bound: whole numbers computed from
    /// numbers and this model's params (which become structural here).
    fn structural_bindings(
        &mut self,
        m: &'a Model,
        structural: &HashMap<String, HashSet<String>>,
    ) -> Vec<specialise::Request> {
        let mut out = Vec::new();
        let mut each =
            |cx: &mut Cx<'a>, at, model: &Name, name: &Name, bindings: &[(Name, Expr)]| {
                let Some(set) = structural.get(&model.text) else {
                    return;
                };
                let (mut values, mut failed) = (Vec::new(), Vec::new());
                for (param, e) in bindings.iter().filter(|(p, _)| set.contains(&p.text)) {
                    let what = format!(
                        "`{}` of `{}` (it sizes arrays of `{}`)",
                        param.text, name.text, model.text
                    );
                    match cx.whole(e, &what) {
                        Some(v) => values.push((param.text.clone(), v, e.span)),
                        // Reported: the binding is dropped, the instance keeps the model.
                        None => failed.push(param.text.clone()),
                    }
                }
                if !values.is_empty() || !failed.is_empty() {
                    out.push(specialise::Request {
                        at,
                        model: model.text.clone(),
                        values,
                        failed,
                    });
                }
            };
        for (k, p) in m.parts.iter().enumerate() {
            each(
                self,
                specialise::Instance::Part(k),
                &p.model,
                &p.name,
                &p.bindings,
            );
        }
        for d in &m.decls {
            if let Decl::Sub {
                name,
                model,
                bindings,
                ..
            } = d
            {
                let at = specialise::Instance::Sub(name.text.clone());
                each(self, at, model, name, bindings);
            }
        }
        out
    }

    /// Reports `d` unless an error of its code was reported at its place.
    fn report(&mut self, d: Diagnostic) {
        if self.reported.insert((d.code, d.span)) {
            self.diags.push(d);
        }
    }

    /// The value of the loop variable `name` in scope, if it is one.
    fn loop_value(&self, name: &str) -> Option<i64> {
        self.env.iter().rev().find(|(n, ..)| n == name).map(|e| e.1)
    }

    /// Computes the value of a param read by its name (a structural param).
    fn whole_or_value(&mut self, name: &Name) -> Option<f64> {
        let e = Expr {
            kind: ExprKind::Path(vec![name.clone()]),
            span: name.span,
        };
        self.whole(&e, &format!("`{}`", name.text))
            .map(|v| v as f64)
    }

    /// Runs `body` for each value of the loop variables of `ranges` (outermost
    /// first), with the variables in scope; false after an error in a range.
    fn each(&mut self, ranges: &[LoopRange], body: &mut dyn FnMut(&mut Cx<'a>)) -> bool {
        if self.steps > MAX_STEPS {
            return false;
        }
        let Some((r, rest)) = ranges.split_first() else {
            body(self);
            return true;
        };
        let var = r.var.text.as_str();
        if self.declared.contains(var)
            || self.arrays.contains_key(var)
            || self.loop_value(var).is_some()
        {
            self.report(
                Diagnostic::error(
                    "E0464",
                    r.var.span,
                    format!("the loop variable `{var}` hides another name of the model"),
                )
                .with_label("already a name here")
                .with_help("choose another name for the loop variable"),
            );
            return false;
        }
        let what = format!("the bound of `{var}`");
        let (from, to) = (self.whole(&r.from, &what), self.whole(&r.to, &what));
        let (Some(from), Some(to)) = (from, to) else {
            return false;
        };
        // The values still to run, counted before running them.
        let count = u64::try_from(to.saturating_sub(from).saturating_add(1)).unwrap_or(0);
        if self.steps.saturating_add(count) > MAX_STEPS {
            self.report(
                Diagnostic::error(
                    "E0466",
                    r.span,
                    format!("the loops of the model run more than {MAX_STEPS} times"),
                )
                .with_label("too many values"),
            );
            self.steps = MAX_STEPS + 1;
            return false;
        }
        for v in from..=to {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                self.report(
                    Diagnostic::error(
                        "E0466",
                        r.span,
                        format!("the loops of the model run more than {MAX_STEPS} times"),
                    )
                    .with_label("too many values"),
                );
                return false;
            }
            self.env.push((var.to_string(), v, r.span));
            let ok = self.each(rest, body);
            self.env.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// The rules `rs` expanded into `out`.
    fn rules(&mut self, rs: &[Rule], out: &mut Vec<Rule>) {
        for r in rs {
            match r {
                Rule::Assign {
                    target,
                    index,
                    value,
                    guard,
                    span,
                } => {
                    let target = if index.is_empty() {
                        match self.whole_array(target) {
                            // Written as its first cell, so that nothing follows.
                            true => self.first_cell(target),
                            false => target.clone(),
                        }
                    } else {
                        self.cell(target, index, true)
                    };
                    let guard = match guard {
                        Guard::When(c) => Guard::When(self.expr(c)),
                        g => g.clone(),
                    };
                    out.push(Rule::Assign {
                        target,
                        index: Vec::new(),
                        value: self.expr(value),
                        guard,
                        span: *span,
                    });
                }
                Rule::Sigma {
                    cond,
                    actions,
                    span,
                } => {
                    let cond = self.expr(cond);
                    let actions = actions.iter().map(|a| self.action(a)).collect();
                    out.push(Rule::Sigma {
                        cond,
                        actions,
                        span: *span,
                    });
                }
                Rule::Block { cond, rules, span } => {
                    let cond = self.expr(cond);
                    let mut inner = Vec::with_capacity(rules.len());
                    self.rules(rules, &mut inner);
                    out.push(Rule::Block {
                        cond,
                        rules: inner,
                        span: *span,
                    });
                }
                Rule::Equation { lhs, rhs, span } => {
                    self.in_equation = true;
                    let (lhs, rhs) = (self.expr(lhs), self.expr(rhs));
                    self.in_equation = false;
                    out.push(Rule::Equation {
                        lhs,
                        rhs,
                        span: *span,
                    });
                }
                Rule::Step { .. } => out.push(r.clone()),
                Rule::Transition {
                    mode,
                    from,
                    to,
                    guard,
                    rules,
                    span,
                } => {
                    let guard = guard.as_ref().map(|g| self.expr(g));
                    let mut inner = Vec::with_capacity(rules.len());
                    self.rules(rules, &mut inner);
                    out.push(Rule::Transition {
                        mode: mode.clone(),
                        from: from.clone(),
                        to: to.clone(),
                        guard,
                        rules: inner,
                        span: *span,
                    });
                }
                Rule::For(f) => {
                    self.each(&f.ranges, &mut |cx| cx.rules(&f.rules, out));
                }
            }
        }
    }

    /// The first cell of the array `name`, at `name`'s place.
    fn first_cell(&self, name: &Name) -> Name {
        let dims = self.arrays.get(&name.text).map_or(0, |a| a.dims.len());
        Name {
            text: cell_name(&name.text, &vec![1; dims]),
            span: name.span,
        }
    }

    /// Reports E0462 when `name` is an array (written without an index).
    fn whole_array(&mut self, name: &Name) -> bool {
        let Some(a) = self.arrays.get(&name.text).filter(|a| !a.dims.is_empty()) else {
            return false;
        };
        let dims = a.dims.len();
        let example = match dims {
            1 => format!(
                "`{0}[i]` in a `for` loop, or `sum({0}[i] for i in 1:N)`",
                name.text
            ),
            _ => format!("`{}[i, j]` in a `for` loop", name.text),
        };
        let related = a.name;
        self.report(
            Diagnostic::error(
                "E0462",
                name.span,
                format!("the array `{}` is used without an index", name.text),
            )
            .with_label("an array, not a value")
            .with_related(related, "declared as an array here")
            .with_help(format!("name one cell: {example}")),
        );
        true
    }

    /// The name of the cell `name[index]`, checked, marked assigned when `assigned`
    /// (or in an equation); after an error, the first cell's (or the name as written).
    fn cell(&mut self, name: &Name, index: &[Expr], assigned: bool) -> Name {
        let at = |text: String| Name {
            text,
            span: name.span,
        };
        let Some(a) = self.arrays.get(&name.text) else {
            let msg = if self.declared.contains(name.text.as_str()) {
                format!("`{}` is not an array and has no cells", name.text)
            } else {
                format!("no array is named `{}`", name.text)
            };
            let span = index.last().map_or(name.span, |e| name.span.to(e.span));
            self.report(
                Diagnostic::error("E0462", span, msg)
                    .with_label("indexed here")
                    .with_help(
                        "declare an array with its size right after its name: `real T[N] [K];`",
                    ),
            );
            return name.clone();
        };
        let (dims, decl) = (a.dims.clone(), a.name);
        if dims.is_empty() {
            return name.clone(); // its size had an error
        }
        let span = index.last().map_or(name.span, |e| name.span.to(e.span));
        if dims.len() != index.len() {
            self.report(
                Diagnostic::error(
                    "E0462",
                    span,
                    format!(
                        "`{}` has {} dimension{} and is indexed with {}",
                        name.text,
                        dims.len(),
                        if dims.len() == 1 { "" } else { "s" },
                        index.len()
                    ),
                )
                .with_label("wrong number of indices")
                .with_related(decl, "declared here"),
            );
            return at(cell_name(&name.text, &vec![1; dims.len()]));
        }
        let mut idx = Vec::with_capacity(dims.len());
        for (e, &n) in index.iter().zip(&dims) {
            let Some(v) = self.whole(e, &format!("an index of `{}`", name.text)) else {
                return at(cell_name(&name.text, &vec![1; dims.len()]));
            };
            if !(1..=n).contains(&v) {
                self.out_of_range(name, e, v, n, decl);
                return at(cell_name(&name.text, &vec![1; dims.len()]));
            }
            idx.push(v);
        }
        if assigned || self.in_equation {
            let mut flat = 0usize;
            for (v, n) in idx.iter().zip(&dims) {
                flat = flat * (*n as usize) + (*v as usize - 1);
            }
            if let Some(a) = self.arrays.get_mut(&name.text) {
                a.assigned[flat] = true;
            }
        }
        at(cell_name(&name.text, &idx))
    }

    /// Reports E0461: the index `e` of `name` is `v`, outside `1..=n`.
    fn out_of_range(&mut self, name: &Name, e: &Expr, v: i64, n: i64, decl: Span) {
        let vars: Vec<String> = (self.env.iter())
            .filter(|(var, ..)| walk::reads(e, var))
            .map(|(var, value, _)| format!("{var} = {value}"))
            .collect();
        let when = if vars.is_empty() {
            String::new()
        } else {
            format!(" when {}", vars.join(", "))
        };
        let mut d = Diagnostic::error(
            "E0461",
            e.span,
            format!("index {v} is out of the range of `{}`, 1:{n}", name.text),
        )
        .with_label(format!("`{}` is {v}{when}", eval::show(e)))
        .with_related(
            decl,
            format!("`{}` has {n} cells in this dimension", name.text),
        );
        if let Some((var, _, range)) = self.env.iter().rev().find(|(var, ..)| walk::reads(e, var)) {
            d = d.with_related(*range, format!("the range of `{var}`"));
            d = d.with_help(
                "narrow the loop's range, and write the boundary cells in rules outside the loop",
            );
        }
        self.report(d);
    }

    /// A σ action expanded: a cell of a flag array (`hot[i]`) named.
    fn action(&mut self, a: &Action) -> Action {
        let Action::Set {
            path,
            index,
            value,
            span,
        } = a
        else {
            return a.clone();
        };
        let path = match path.as_slice() {
            [flag] if index.is_empty() && self.whole_array(flag) => vec![self.first_cell(flag)],
            [flag] if !index.is_empty() => vec![self.cell(flag, index, true)],
            [.., _] if !index.is_empty() => self.path_cell(path, index, path[path.len() - 1].span),
            _ => path.clone(),
        };
        Action::Set {
            path,
            index: Vec::new(),
            value: *value,
            span: *span,
        }
    }

    /// `sub.T[i]`: the path to a cell of another model's array (a submodel's or a
    /// part's), its indices evaluated; its size is checked where the path is resolved
    /// (no variable `T[9]` in `sub`, E0101). The cell's name spans `span`.
    fn path_cell(&mut self, path: &[Name], index: &[Expr], span: Span) -> Vec<Name> {
        let (array, prefix) = path.split_last().expect("a path");
        let mut idx = Vec::with_capacity(index.len());
        for e in index {
            idx.push((self.whole(e, &format!("an index of `{}`", array.text))).unwrap_or(1));
        }
        let mut names = prefix.to_vec();
        names.push(Name {
            text: cell_name(&array.text, &idx),
            span,
        });
        names
    }

    /// `e` expanded: cells named, loop variables and structural params as numbers,
    /// reductions as trees.
    fn expr(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Path(names) if names.len() == 1 => {
                let n = names[0].text.as_str();
                if let Some(v) = self.loop_value(n) {
                    ExprKind::Num(v as f64)
                } else if let Some(Some(v)) = self.values.get(n) {
                    ExprKind::Num(*v)
                } else if self.whole_array(&names[0]) {
                    // Read as its first cell, so that nothing follows from the error.
                    ExprKind::Path(vec![self.first_cell(&names[0])])
                } else {
                    e.kind.clone()
                }
            }
            ExprKind::Index(path, index) if path.len() == 1 => {
                let cell = self.cell(&path[0], index, false);
                let cell = Name {
                    text: cell.text,
                    span: e.span,
                };
                ExprKind::Path(vec![cell])
            }
            // `rod.T[2]`: a cell of a submodel's (or a part's) array, whose size the
            // variable's resolution checks (no cell `T[9]` in `rod`).
            ExprKind::Index(path, index) => {
                let span = path[path.len() - 1].span.to(e.span);
                ExprKind::Path(self.path_cell(path, index, span))
            }
            ExprKind::Reduce(f, g) => return self.reduce(f, g, e.span),
            ExprKind::Call(f, args) => {
                ExprKind::Call(f.clone(), args.iter().map(|a| self.expr(a)).collect())
            }
            ExprKind::Neg(a) => ExprKind::Neg(Box::new(self.expr(a))),
            ExprKind::Not(a) => ExprKind::Not(Box::new(self.expr(a))),
            ExprKind::Paren(a) => ExprKind::Paren(Box::new(self.expr(a))),
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::Compare(a, rest) => ExprKind::Compare(
                Box::new(self.expr(a)),
                rest.iter().map(|(op, b)| (*op, self.expr(b))).collect(),
            ),
            ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) | ExprKind::Path(_) => {
                e.kind.clone()
            }
        };
        Expr { kind, span: e.span }
    }

    /// `f(g)` as a tree: the first half of the terms combined, then the second, by
    /// `+` (`sum`), `*` (`prod`) or the procedure (`min`, `max`).
    fn reduce(&mut self, f: &Name, g: &Generator, span: Span) -> Expr {
        let mut terms = Vec::new();
        let body = &g.body;
        let ok = self.each(&g.ranges, &mut |cx| {
            let t = cx.expr(body);
            terms.push(t);
        });
        let num = |v: f64| Expr {
            kind: ExprKind::Num(v),
            span,
        };
        if !ok {
            return num(0.0);
        }
        if terms.is_empty() {
            match f.text.as_str() {
                "sum" => return num(0.0),
                "prod" => return num(1.0),
                _ => {
                    self.report(
                        Diagnostic::error(
                            "E0465",
                            span,
                            format!("`{}` of no terms has no value", f.text),
                        )
                        .with_label("the ranges hold no value")
                        .with_help("make the range non-empty (`a:b` with `a <= b`)"),
                    );
                    return num(0.0);
                }
            }
        }
        tree(f, &mut terms, span)
    }
}

/// The name of the cell `name` at the indices `idx`: `T[3]`, `T[3][4]`.
pub fn cell_name(name: &str, idx: &[i64]) -> String {
    let mut s = String::with_capacity(name.len() + 6 * idx.len());
    s.push_str(name);
    for i in idx {
        s.push('[');
        s.push_str(&i.to_string());
        s.push(']');
    }
    s
}

/// The indices of the `k`-th cell (row-major) of an array of sizes `dims`.
fn unflatten(mut k: usize, dims: &[i64]) -> Vec<i64> {
    let mut idx = vec![0i64; dims.len()];
    for (d, &n) in dims.iter().enumerate().rev() {
        idx[d] = (k % n as usize) as i64 + 1;
        k /= n as usize;
    }
    idx
}

/// The terms combined by `f` as a balanced tree (see [`Cx::reduce`]); `terms` is
/// not empty.
fn tree(f: &Name, terms: &mut [Expr], span: Span) -> Expr {
    if terms.len() == 1 {
        return terms[0].clone();
    }
    let mid = terms.len() / 2;
    let (a, b) = terms.split_at_mut(mid);
    let (a, b) = (tree(f, a, span), tree(f, b, span));
    let kind = match f.text.as_str() {
        "sum" => ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)),
        "prod" => ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)),
        _ => ExprKind::Call(f.clone(), vec![a, b]),
    };
    Expr { kind, span }
}
