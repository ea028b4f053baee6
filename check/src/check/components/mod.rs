//! Components and connections: `part`s flattened into the model that declares them, `connect`s turned into equal potentials (one variable per connection set) and zero sums of flows.
//!
//! A *component* is a model with `port`s (`port p: Pin;`): its equations are incomplete
//! until its ports are connected, so it is not a model of the program on its own; it is
//! instantiated by `part r1: Resistor(R = 10 [Ohm]);` in another model, and each part's
//! declarations, rules and equations are copied into that model under dotted names
//! (`r1.v`, `r1.p.v`), its params bound by the part. A `connect(a, b)` puts two ports
//! in one *connection set* (union–find over the ports): each potential of the set is one
//! variable (the others are aliases of it: equal potentials need no equation) and each
//! flow gives one equation, the flows into the parts summing to zero (a flow out of the
//! model through one of its own ports counted negative); a part's port connected to
//! nothing has zero flow. The flattened model then goes to the equations
//! (`super::equations`) as if written by hand.

use crate::ast::{Connector, Decl, DeclKind, Expr, ExprKind, Model, Name, Rule, UnitText};
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::suggest::did_you_mean;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

mod connect;
mod reference;
mod rename;

/// A model flattened: its parts' names in its own, its connections resolved.
#[derive(Debug, Default)]
struct Flat {
    decls: Vec<Decl>,
    rules: Vec<Rule>,
    /// The model's own ports (the flat name, its connector, where it is declared).
    ports: Vec<FlatPort>,
    /// Every name declared, with whether it is a param.
    names: HashMap<String, bool>,
    /// Potentials that are another's (`r1.n.v` → `c1.p.v`), resolved to the end.
    aliases: HashMap<String, String>,
    /// The state names of its modes (read as written in `m == s`).
    states: HashSet<String>,
}

/// A port of a flattened model.
#[derive(Debug, Clone)]
struct FlatPort {
    /// `p`, or `r1.p` for a part's port.
    name: String,
    /// Its connector.
    connector: String,
    /// Where it is declared (a part's port: the part's name).
    span: Span,
    /// One of the model's own ports (not a part's).
    outside: bool,
}

/// What the checker makes of a model as written.
pub(crate) enum Flattened {
    /// Used as written (no parts).
    AsWritten,
    /// Its parts and connections flattened into it.
    Model(Box<Model>),
    /// A component (with ports) or a model used as a part: only flattened into others.
    Dropped,
}

/// The models of `files` with their parts flattened (see the module doc), in the order
/// of `files` and their models. Errors go to `diags`.
pub(crate) fn flatten(
    files: &[(crate::source::FileId, crate::ast::File)],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Vec<Flattened>> {
    let mut cx = Cx {
        models: HashMap::new(),
        connectors: HashMap::new(),
        memo: HashMap::new(),
        stack: Vec::new(),
        instantiated: HashSet::new(),
        diags,
    };
    let mut used_as_part: HashSet<&str> = HashSet::new();
    let mut used_as_sub: HashSet<&str> = HashSet::new();
    for (_, f) in files {
        for m in &f.models {
            cx.models.entry(m.name.text.as_str()).or_insert(m);
            used_as_part.extend(m.parts.iter().map(|p| p.model.text.as_str()));
            // A part naming a copy made for its structural bindings (`Rod(N = 6)`) uses
            // the model copied as a part too.
            used_as_part.extend(
                (m.parts.iter())
                    .filter_map(|p| crate::check::arrays::specialise::origin(&p.model.text)),
            );
            used_as_sub.extend(m.decls.iter().filter_map(|d| match d {
                Decl::Sub { model, .. } => Some(model.text.as_str()),
                _ => None,
            }));
        }
        for c in &f.connectors {
            if let Some(first) = cx.connectors.get(c.name.text.as_str()) {
                cx.diags.push(
                    Diagnostic::error(
                        "E0495",
                        c.name.span,
                        format!("the connector `{}` is defined twice", c.name.text),
                    )
                    .with_label("second definition")
                    .with_related(first.name.span, "first defined here"),
                );
                continue;
            }
            cx.connectors.insert(c.name.text.as_str(), c);
        }
    }
    files
        .iter()
        .map(|(_, f)| {
            (f.models.iter())
                .map(|m| {
                    // A model without ports that is also a submodel somewhere is a model
                    // of the program as well.
                    let name = m.name.text.as_str();
                    if !m.ports.is_empty()
                        || (used_as_part.contains(name) && !used_as_sub.contains(name))
                    {
                        // Not a model of its own; flattened here for its errors (once:
                        // the flattening is kept for each use).
                        let _ = cx.flat(m);
                        return Flattened::Dropped;
                    }
                    if m.parts.is_empty() && m.connects.is_empty() {
                        return Flattened::AsWritten;
                    }
                    match cx.flat(m) {
                        Some(flat) => Flattened::Model(Box::new(top(m, &flat))),
                        None => Flattened::Dropped,
                    }
                })
                .collect()
        })
        .collect()
}

/// The models of `files` as the checker sees them, their parts flattened (the
/// components left out), for the tools that read units of the syntax tree. Errors
/// are dropped: a program that checked has none.
pub fn flat_models(files: &[(crate::source::FileId, crate::ast::File)]) -> Vec<Model> {
    let (files, _) = super::arrays::expand(files, &mut Vec::new());
    let files = &*files;
    let flat = flatten(files, &mut Vec::new());
    (files.iter().zip(flat))
        .flat_map(|((_, f), flat)| f.models.iter().zip(flat))
        .filter_map(|(m, flat)| match flat {
            Flattened::AsWritten => Some(m.clone()),
            Flattened::Model(m) => Some(*m),
            Flattened::Dropped => None,
        })
        .collect()
}

/// Points each diagnostic of `diags` that names a part's variable (`` `g2.p.i` ``) at
/// the part's declaration in `m`: the equations a part brings stand in its component,
/// shared by every instance, and the part's line says which instance is meant.
pub(crate) fn annotate(m: &Model, diags: &mut [Diagnostic]) {
    for d in diags {
        let mut texts = vec![d.message.clone(), d.label.clone()];
        texts.extend(d.related.iter().map(|(_, l)| l.clone()));
        let mut named: Vec<&crate::ast::Part> = Vec::new();
        for t in &texts {
            for quoted in t.split('`').skip(1).step_by(2) {
                let Some((head, _)) = quoted.split_once('.') else {
                    continue;
                };
                if let Some(part) = m.parts.iter().find(|p| p.name.text == head)
                    && !named.iter().any(|p| std::ptr::eq(*p, part))
                {
                    named.push(part);
                }
            }
        }
        for part in named {
            d.related.push((
                part.span,
                format!("`{}` is this `{}`", part.name.text, part.model.text),
            ));
        }
    }
}

/// The model `m` as its flattened form `flat`: the rules that compute what the
/// equations read first, then the equations, then the rules that read what they
/// determine (see `order_rules`).
fn top(m: &Model, flat: &Flat) -> Model {
    let mut out = m.clone();
    out.decls = flat.decls.clone();
    out.rules = order_rules(&flat.rules, &flat.decls);
    out.ports.clear();
    out.parts.clear();
    out.connects.clear();
    out
}

/// The rules in the order they run: the equations solve together at the place of the
/// first one (see `equations`), so the rules of the parts and of the model are split
/// into those before (they read no value the equations determine: a controller reading
/// a state) and those after (a sensor's rule reading a current), each in textual order.
fn order_rules(rules: &[Rule], decls: &[Decl]) -> Vec<Rule> {
    let mut written: HashSet<String> = HashSet::new();
    let mut reads_of: Vec<Vec<String>> = Vec::with_capacity(rules.len());
    for r in rules {
        let (mut read, mut wrote) = (Vec::new(), Vec::new());
        rename::rule_names(r, &mut read, &mut wrote);
        if !matches!(r, Rule::Equation { .. }) {
            written.extend(wrote);
        }
        reads_of.push(read);
    }
    let reals: HashSet<&str> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Var {
                kind: DeclKind::Real,
                name,
                ..
            } if !written.contains(&name.text) => Some(name.text.as_str()),
            _ => None,
        })
        .collect();
    // The unknowns' values: reals no rule writes, but not states (`der(x)`).
    let mut rated: HashSet<String> = HashSet::new();
    for r in rules {
        if let Rule::Equation { lhs, rhs, .. } = r {
            ders(lhs, &mut rated);
            ders(rhs, &mut rated);
        }
    }
    let mut after: HashSet<String> = reals
        .iter()
        .filter(|n| !rated.contains(**n))
        .map(|n| n.to_string())
        .collect();
    let mut is_after = vec![false; rules.len()];
    // A σ rule's flags and a transition's mode are discrete: a rule reading them stays
    // where it is (under an implicit method it must come before the equations,
    // evaluated at every stage: a clutch's lock read from its mode).
    let writes_of: Vec<Vec<String>> = (rules.iter())
        .map(|r| {
            if matches!(r, Rule::Sigma { .. }) {
                return Vec::new();
            }
            let (mut read, mut wrote) = (Vec::new(), Vec::new());
            rename::rule_names(r, &mut read, &mut wrote);
            if let Rule::Transition { mode, .. } = r {
                wrote.retain(|n| n != &mode.text);
            }
            wrote
        })
        .collect();
    // Written by an "after" rule makes a value "after", and the other rules writing it
    // (`y = a when c; y = b otherwise;` stay together): to a fixed point.
    let mut after_written: HashSet<String> = HashSet::new();
    loop {
        let mut changed = false;
        for (i, r) in rules.iter().enumerate() {
            if is_after[i] || matches!(r, Rule::Equation { .. }) {
                continue;
            }
            if reads_of[i].iter().any(|n| after.contains(n))
                || writes_of[i].iter().any(|n| after_written.contains(n))
            {
                is_after[i] = true;
                changed = true;
                after.extend(writes_of[i].iter().cloned());
                after_written.extend(writes_of[i].iter().cloned());
            }
        }
        if !changed {
            break;
        }
    }
    let (mut before, mut eqs, mut later) = (Vec::new(), Vec::new(), Vec::new());
    for (i, r) in rules.iter().enumerate() {
        match r {
            Rule::Equation { .. } => eqs.push(r.clone()),
            _ if is_after[i] => later.push(r.clone()),
            _ => before.push(r.clone()),
        }
    }
    before.extend(eqs);
    before.extend(later);
    before
}

/// Adds `x` of each `der(x)` in `e` to `out`.
fn ders(e: &Expr, out: &mut HashSet<String>) {
    match &e.kind {
        ExprKind::Call(f, args) if f.text == "der" => {
            if let [a] = args.as_slice()
                && let ExprKind::Path(p) = &a.kind
            {
                out.insert(rename::join(p));
            }
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| ders(a, out)),
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Paren(a) => ders(a, out),
        ExprKind::Binary(_, a, b) => {
            ders(a, out);
            ders(b, out);
        }
        ExprKind::Compare(a, rest) => {
            ders(a, out);
            rest.iter().for_each(|(_, e)| ders(e, out));
        }
        ExprKind::Index(_, ix) => ix.iter().for_each(|a| ders(a, out)),
        ExprKind::Reduce(_, g) => ders(&g.body, out),
        ExprKind::Num(_) | ExprKind::Quantity(..) | ExprKind::Bool(_) | ExprKind::Path(_) => {}
    }
}

/// The flattening's state: every model and connector by name, the models flattened so
/// far, the parts being flattened (to find a model that is its own part).
struct Cx<'a, 'd> {
    models: HashMap<&'a str, &'a Model>,
    connectors: HashMap<&'a str, &'a Connector>,
    memo: HashMap<String, Option<Rc<Flat>>>,
    stack: Vec<&'a str>,
    /// The components instantiated so far.
    instantiated: HashSet<String>,
    diags: &'d mut Vec<Diagnostic>,
}

impl<'a> Cx<'a, '_> {
    /// The model `m` flattened, or `None` after an error (reported once).
    fn flat(&mut self, m: &'a Model) -> Option<Rc<Flat>> {
        if let Some(done) = self.memo.get(&m.name.text) {
            return done.clone();
        }
        self.stack.push(&m.name.text);
        let out = self.flatten_model(m).map(Rc::new);
        self.stack.pop();
        self.memo.insert(m.name.text.clone(), out.clone());
        out
    }

    /// [`Cx::flat`] without the memo.
    fn flatten_model(&mut self, m: &'a Model) -> Option<Flat> {
        let errors = self.diags.len();
        let mut f = Flat::default();
        // Ports and parts that failed: their names are not reported again.
        let mut broken: HashSet<&str> = HashSet::new();
        for port in &m.ports {
            let Some(c) = self.connector(&port.connector) else {
                broken.insert(&port.name.text);
                continue;
            };
            for field in &c.fields {
                let name = format!("{}.{}", port.name.text, field.name.text);
                f.names.insert(name.clone(), false);
                f.decls
                    .push(port_var(&port.doc, &name, port.name.span, &field.unit));
            }
            f.ports.push(FlatPort {
                name: port.name.text.clone(),
                connector: c.name.text.clone(),
                span: port.name.span,
                outside: true,
            });
        }
        for d in &m.decls {
            if let Decl::Mode { states, .. } = d {
                f.states.extend(states.iter().map(|s| s.text.clone()));
            }
            let is_param = matches!(
                d,
                Decl::Var {
                    kind: DeclKind::Param,
                    ..
                }
            );
            f.names.insert(rename::declared(d).text.clone(), is_param);
            f.decls.push(d.clone());
        }
        f.rules = m.rules.clone();
        let mut part_names: HashMap<&str, Span> = HashMap::new();
        for port in &m.ports {
            self.twice(&mut part_names, &port.name, "port");
        }
        let mut parts: Vec<(&'a crate::ast::Part, Rc<Flat>)> = Vec::new();
        for part in &m.parts {
            self.twice(&mut part_names, &part.name, "part");
            match self.part(part) {
                Some(pf) => parts.push((part, pf)),
                None => {
                    broken.insert(&part.name.text);
                }
            }
        }
        let mut part_rules = Vec::new();
        for (part, pf) in &parts {
            // The component's own unknown names are reported at its first part only.
            let first = self.instantiated.insert(part.model.text.clone());
            part_rules.extend(instantiate(part, pf, first, &mut f, self.diags));
        }
        // The model's own paths into its parts and ports (`r1.p.v`) as flat names.
        let mut unknown: Vec<(Vec<Name>, String)> = Vec::new();
        {
            let names = &f.names;
            let aliases = &f.aliases;
            let firsts: HashSet<&str> = part_names.keys().copied().collect();
            let mut scope = |p: &[Name], u: rename::Use| -> Option<String> {
                if p.len() < 2 || u == rename::Use::Callee {
                    return None;
                }
                let j = rename::join(p);
                if names.contains_key(&j) {
                    return Some(j);
                }
                if let Some(a) = aliases.get(&j) {
                    return Some(a.clone());
                }
                if firsts.contains(p[0].text.as_str()) && !broken.contains(p[0].text.as_str()) {
                    unknown.push((p.to_vec(), j));
                }
                None
            };
            f.decls.iter_mut().for_each(|d| rename::decl(d, &mut scope));
            f.rules.iter_mut().for_each(|r| rename::rule(r, &mut scope));
        }
        for (p, j) in unknown {
            self.no_such_name(&p, &j, &parts, m);
        }
        f.rules.extend(part_rules);
        connect::connections(m, &parts, &broken, &self.connectors, &mut f, self.diags);
        let ok = self.diags.len() == errors;
        // A model with ports is a component: its groups are referenced where it is used.
        if m.ports.is_empty() && ok {
            reference::check(m, &f, &self.connectors, &self.models, self.diags);
        }
        // The parts' ports are joined here: a holder sees only the model's own.
        f.ports.retain(|p| p.outside);
        ok.then_some(f)
    }

    /// The connector called `n`, or an error.
    fn connector(&mut self, n: &Name) -> Option<&'a Connector> {
        if let Some(c) = self.connectors.get(n.text.as_str()) {
            return Some(c);
        }
        let mut d = Diagnostic::error("E0495", n.span, format!("unknown connector `{}`", n.text))
            .with_label("no connector has this name");
        match did_you_mean(&n.text, self.connectors.keys().copied()) {
            Some(s) => d = d.with_help(format!("did you mean `{s}`?")),
            None => {
                d = d.with_help(
                    "a port's type is a `connector Name { real v [V]; flow real i [A]; }` of \
                     this file or of an imported one",
                )
            }
        }
        self.diags.push(d);
        None
    }

    /// An error if `n` names a second port or part of the model.
    fn twice<'n>(&mut self, seen: &mut HashMap<&'n str, Span>, n: &'n Name, what: &str) {
        if let Some(first) = seen.get(n.text.as_str()) {
            self.diags.push(
                Diagnostic::error("E0499", n.span, format!("`{}` is declared twice", n.text))
                    .with_label(format!("a second {what} of this name"))
                    .with_related(*first, "first declared here")
                    .with_help("give each part and port of a model its own name"),
            );
        } else {
            seen.insert(&n.text, n.span);
        }
    }

    /// The component of `part` flattened, or `None` after an error.
    fn part(&mut self, part: &crate::ast::Part) -> Option<Rc<Flat>> {
        let Some(&cm) = self.models.get(part.model.text.as_str()) else {
            let mut d = Diagnostic::error(
                "E0120",
                part.model.span,
                format!("unknown model `{}`", part.model.text),
            )
            .with_label("no model has this name");
            match did_you_mean(&part.model.text, self.models.keys().copied()) {
                Some(s) => d = d.with_help(format!("did you mean `{s}`?")),
                None => {
                    d = d
                        .with_note("models of other files are visible after `import \"file.sit\";`")
                }
            }
            self.diags.push(d);
            return None;
        };
        if let Some(at) = self.stack.iter().position(|s| *s == cm.name.text) {
            let mut chain: Vec<String> =
                self.stack[at..].iter().map(|s| format!("`{s}`")).collect();
            chain.push(format!("`{}`", cm.name.text));
            self.diags.push(
                Diagnostic::error(
                    "E0498",
                    part.model.span,
                    format!("the model `{}` is a part of itself", cm.name.text),
                )
                .with_label(format!("parts: {}", chain.join(" holds ")))
                .with_help("a component cannot contain itself, directly or through its parts"),
            );
            return None;
        }
        let why = if cm.decls.iter().any(|d| matches!(d, Decl::Sub { .. })) {
            Some("it holds submodels (`sub`, `phase`), which step on their own")
        } else if !cm.methods.is_empty() {
            Some("it declares a `method`: the model holding the part integrates it")
        } else if !cm.substeps.is_empty() {
            Some("it declares `substeps`: the model holding the part divides the step")
        } else {
            None
        };
        if let Some(why) = why {
            self.diags.push(
                Diagnostic::error(
                    "E0498",
                    part.model.span,
                    format!("the model `{}` cannot be a part", cm.name.text),
                )
                .with_label(why)
                .with_related(cm.name.span, "the model")
                .with_help(
                    "a part's declarations and equations are flattened into the model that \
                     holds it; use `sub` for a model that steps on its own",
                ),
            );
            return None;
        }
        self.flat(cm)
    }

    /// E0499 for a path into a part or port (`r1.x`) that names nothing there.
    fn no_such_name(
        &mut self,
        p: &[Name],
        joined: &str,
        parts: &[(&crate::ast::Part, Rc<Flat>)],
        m: &Model,
    ) {
        let span = p[0].span.to(p[p.len() - 1].span);
        let head = &p[0].text;
        let (what, names): (String, Vec<String>) =
            match parts.iter().find(|(part, _)| &part.name.text == head) {
                Some((part, pf)) => (
                    format!("the part `{head}` (a `{}`)", part.model.text),
                    pf.names.keys().map(|n| format!("{head}.{n}")).collect(),
                ),
                None => (
                    format!("the port `{head}` of `{}`", m.name.text),
                    Vec::new(),
                ),
            };
        let mut d = Diagnostic::error(
            "E0499",
            span,
            format!("{what} has no variable `{}`", &joined[head.len() + 1..]),
        )
        .with_label("not declared there");
        if let Some(s) = did_you_mean(joined, names.iter().map(String::as_str)) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.diags.push(d);
    }
}

/// The variable of one field of a port (`p.v`), declared at the port.
fn port_var(doc: &[String], name: &str, span: Span, unit: &Option<UnitText>) -> Decl {
    Decl::Var {
        doc: doc.to_vec(),
        kind: DeclKind::Real,
        output: false,
        name: Name {
            text: name.to_string(),
            span,
        },
        unit: unit.clone(),
        value: None,
    }
}

/// Copies the flattened component `pf` of `part` into `f` under the part's name: its
/// declarations (the params bound by the part), its ports, its aliases; returns its
/// rules, renamed. `first`: the component's first part (its unknown names are
/// reported there only).
fn instantiate(
    part: &crate::ast::Part,
    pf: &Flat,
    first: bool,
    f: &mut Flat,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Rule> {
    let prefix = &part.name.text;
    let mut bound: HashMap<&str, &Expr> = HashMap::new();
    for (n, e) in &part.bindings {
        match pf.names.get(&n.text) {
            Some(true) if !n.text.contains('.') => {
                bound.insert(&n.text, e);
            }
            _ => {
                let params: Vec<&str> = (pf.names.iter())
                    .filter(|(k, p)| **p && !k.contains('.'))
                    .map(|(k, _)| k.as_str())
                    .collect();
                let mut d = Diagnostic::error(
                    "E0499",
                    n.span,
                    format!("`{}` is not a param of `{}`", n.text, part.model.text),
                )
                .with_label("bound here");
                d = match did_you_mean(&n.text, params.iter().copied()) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None if params.is_empty() => {
                        d.with_help(format!("`{}` has no params to bind", part.model.text))
                    }
                    None => {
                        let mut params = params;
                        params.sort_unstable();
                        d.with_help(format!("its params: {}", params.join(", ")))
                    }
                };
                diags.push(d);
            }
        }
    }
    let mut unknown: Vec<Name> = Vec::new();
    let mut pre = |p: &[Name], u: rename::Use| -> Option<String> {
        let j = rename::join(p);
        if u == rename::Use::Callee {
            // A table of the component goes with it; a procedure is the runtime's.
            let table = |d: &Decl| matches!(d, Decl::Table(t) if t.name.text == j);
            return pf.decls.iter().any(table).then(|| format!("{prefix}.{j}"));
        }
        if pf.names.contains_key(&j) {
            return Some(format!("{prefix}.{j}"));
        }
        if let Some(a) = pf.aliases.get(&j) {
            return Some(format!("{prefix}.{a}"));
        }
        if p.len() == 1 && (super::RESERVED.contains(&j.as_str()) || pf.states.contains(&j)) {
            return None;
        }
        unknown.push(p[0].clone());
        None
    };
    for d in &pf.decls {
        let mut d = d.clone();
        let own = rename::declared(&d).text.clone();
        rename::decl(&mut d, &mut pre);
        if let Decl::Var { value, .. } = &mut d
            && let Some(e) = bound.get(own.as_str())
        {
            *value = Some((*e).clone());
        }
        f.names.insert(
            rename::declared(&d).text.clone(),
            pf.names.get(&own).copied().unwrap_or(false),
        );
        f.decls.push(d);
    }
    let rules: Vec<Rule> = (pf.rules.iter())
        .map(|r| {
            let mut r = r.clone();
            rename::rule(&mut r, &mut pre);
            r
        })
        .collect();
    // Unknown names inside the component: the resolver of the flattened model would
    // find the holder's names, so they are errors here.
    for n in unknown.into_iter().filter(|_| first) {
        diags.push(
            Diagnostic::error(
                "E0499",
                n.span,
                format!(
                    "unknown name `{}` in the component `{}`",
                    n.text, part.model.text
                ),
            )
            .with_label(format!("not declared in `{}`", part.model.text))
            .with_help("a component reads only its own names, its ports' and its parts'"),
        );
    }
    for (k, v) in &pf.aliases {
        f.aliases
            .insert(format!("{prefix}.{k}"), format!("{prefix}.{v}"));
    }
    for s in &pf.states {
        f.states.insert(s.clone());
    }
    for port in &pf.ports {
        f.ports.push(FlatPort {
            name: format!("{prefix}.{}", port.name),
            connector: port.connector.clone(),
            span: part.name.span,
            outside: false,
        });
    }
    rules
}
