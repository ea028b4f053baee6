//! `connect(a, b)`: the ports joined into connection sets (union–find), each set's
//! potentials made one variable and its flows one equation summing to zero.

use super::{Flat, FlatPort, rename};
use crate::ast::{BinOp, Connector, Expr, ExprKind, Model, Name, Part, Rule};
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::suggest::did_you_mean;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Joins the ports of `f` (the model `m`'s own and its parts') by `m`'s connects, adds
/// the flows' equations to `f.rules`, and makes each set's potentials one variable
/// (the connects of the `broken` parts and ports, already reported, left out).
pub(super) fn connections(
    m: &Model,
    parts: &[(&Part, Rc<Flat>)],
    broken: &HashSet<&str>,
    connectors: &HashMap<&str, &Connector>,
    f: &mut Flat,
    diags: &mut Vec<Diagnostic>,
) {
    let index: HashMap<&str, usize> = (f.ports.iter().enumerate())
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let mut parent: Vec<usize> = (0..f.ports.len()).collect();
    // The first connect of each port (its set's equation stands there).
    let mut first: Vec<Option<Span>> = vec![None; f.ports.len()];
    for c in &m.connects {
        // A failed part or port was reported: its connects are not.
        if [&c.a, &c.b]
            .iter()
            .any(|p| broken.contains(p[0].text.as_str()))
        {
            continue;
        }
        let a = port_of(&c.a, &index, m, parts, diags);
        let b = port_of(&c.b, &index, m, parts, diags);
        let (Some(a), Some(b)) = (a, b) else { continue };
        if !compatible(
            &f.ports[a],
            &f.ports[b],
            &c.a,
            &c.b,
            connectors,
            c.span,
            diags,
        ) {
            continue;
        }
        for x in [a, b] {
            first[x].get_or_insert(c.span);
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut set_of: HashMap<usize, usize> = HashMap::new();
    for i in 0..f.ports.len() {
        let r = find(&mut parent, i);
        let s = *set_of.entry(r).or_insert_with(|| {
            sets.push(Vec::new());
            sets.len() - 1
        });
        sets[s].push(i);
    }
    let mut aliases: HashMap<String, String> = HashMap::new();
    let mut equations = Vec::new();
    for set in &sets {
        let ports: Vec<&FlatPort> = set.iter().map(|&i| &f.ports[i]).collect();
        if ports.iter().all(|p| p.outside) && ports.len() < 2 {
            continue; // the model's own port: the holder connects it
        }
        let Some(c) = connectors.get(ports[0].connector.as_str()) else {
            continue;
        };
        let rep = ports.iter().find(|p| p.outside).unwrap_or(&ports[0]);
        let span = set.iter().find_map(|&i| first[i]).unwrap_or(ports[0].span);
        for field in &c.fields {
            if field.flow {
                let terms: Vec<(String, bool)> = (ports.iter())
                    .map(|p| (format!("{}.{}", p.name, field.name.text), p.outside))
                    .collect();
                equations.push(flow_sum(&terms, span));
            } else {
                let to = resolve(&f.aliases, &format!("{}.{}", rep.name, field.name.text));
                for p in &ports {
                    let from = resolve(&f.aliases, &format!("{}.{}", p.name, field.name.text));
                    let from = resolve(&aliases, &from);
                    let to = resolve(&aliases, &to);
                    if from != to {
                        aliases.insert(from, to);
                    }
                }
            }
        }
    }
    // Every alias to the end of its chain.
    let keys: Vec<String> = aliases.keys().cloned().collect();
    let finals: HashMap<String, String> = keys
        .into_iter()
        .map(|k| {
            let v = resolve(&aliases, &k);
            (k, v)
        })
        .collect();
    f.rules.extend(equations);
    if finals.is_empty() {
        return;
    }
    let mut map = |p: &[Name], u: rename::Use| -> Option<String> {
        match p {
            [n] if u == rename::Use::Value => finals.get(&n.text).cloned(),
            _ => None,
        }
    };
    f.decls
        .retain(|d| !finals.contains_key(&rename::declared(d).text));
    f.decls.iter_mut().for_each(|d| rename::decl(d, &mut map));
    f.rules.iter_mut().for_each(|r| rename::rule(r, &mut map));
    for k in finals.keys() {
        f.names.remove(k);
    }
    for v in f.aliases.values_mut() {
        if let Some(to) = finals.get(v.as_str()) {
            *v = to.clone();
        }
    }
    f.aliases.extend(finals);
}

/// The root of `i`'s set (with path halving).
pub(super) fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// `name` followed through `aliases` to a name that is no alias (a chain is at most as
/// long as the map).
pub(super) fn resolve(aliases: &HashMap<String, String>, name: &str) -> String {
    let mut at = name;
    for _ in 0..=aliases.len() {
        match aliases.get(at) {
            Some(next) => at = next,
            None => break,
        }
    }
    at.to_string()
}

/// `Σ inside − Σ outside = 0` for the flows `terms` (each with whether it flows through
/// a port of the model itself, out of it).
fn flow_sum(terms: &[(String, bool)], span: Span) -> Rule {
    let path = |n: &str| Expr {
        kind: ExprKind::Path(vec![Name {
            text: n.to_string(),
            span,
        }]),
        span,
    };
    let mut sum: Option<Expr> = None;
    for (n, outside) in terms {
        let term = path(n);
        sum = Some(match (sum, outside) {
            (None, false) => term,
            (None, true) => Expr {
                kind: ExprKind::Neg(Box::new(term)),
                span,
            },
            (Some(s), out) => Expr {
                kind: ExprKind::Binary(
                    if *out { BinOp::Sub } else { BinOp::Add },
                    Box::new(s),
                    Box::new(term),
                ),
                span,
            },
        });
    }
    Rule::Equation {
        lhs: sum.unwrap_or(Expr {
            kind: ExprKind::Num(0.0),
            span,
        }),
        rhs: Expr {
            kind: ExprKind::Num(0.0),
            span,
        },
        span,
    }
}

/// The port that path `p` of a `connect` names, or an error (E0496).
fn port_of(
    p: &[Name],
    index: &HashMap<&str, usize>,
    m: &Model,
    parts: &[(&Part, Rc<Flat>)],
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let joined = rename::join(p);
    if let Some(&i) = index.get(joined.as_str()) {
        return Some(i);
    }
    let span = p[0].span.to(p[p.len() - 1].span);
    let part = parts.iter().find(|(part, _)| part.name.text == p[0].text);
    let (what, expected, options): (String, String, Vec<String>) = match (p.len(), part) {
        (1, Some((part, pf))) => (
            format!("`{joined}` is a part, not a port"),
            format!("one of its ports: {}", port_list(&part.name.text, pf)),
            Vec::new(),
        ),
        (1, None) => (
            format!("`{joined}` is not a port of `{}`", m.name.text),
            match m.ports.is_empty() {
                true => "a part's port, `part.port`".to_string(),
                false => format!(
                    "a part's port (`part.port`) or one of the model's own: {}",
                    (m.ports.iter())
                        .map(|p| format!("`{}`", p.name.text))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
            m.ports.iter().map(|p| p.name.text.clone()).collect(),
        ),
        (2, Some((part, pf))) => (
            format!(
                "the part `{}` (a `{}`) has no port `{}`",
                p[0].text, part.model.text, p[1].text
            ),
            format!("one of its ports: {}", port_list(&part.name.text, pf)),
            pf.ports
                .iter()
                .map(|q| format!("{}.{}", p[0].text, q.name))
                .collect(),
        ),
        (2, None) => (
            format!("`{}` is not a part of `{}`", p[0].text, m.name.text),
            "`part.port` with a part declared by `part name: Model(…);`".to_string(),
            parts
                .iter()
                .map(|(q, _)| format!("{}.{}", q.name.text, p[1].text))
                .collect(),
        ),
        _ => (
            format!("`{joined}` reaches into a part's part"),
            "a port of the model or of one of its own parts: a part's inner ports are \
             connected inside it"
                .to_string(),
            Vec::new(),
        ),
    };
    let mut d = Diagnostic::error("E0496", span, format!("cannot connect `{joined}`: {what}"))
        .with_label("not a port here")
        .with_note(format!("expected {expected}"));
    if let Some(s) = did_you_mean(&joined, options.iter().map(String::as_str)) {
        d = d.with_help(format!("did you mean `{s}`?"));
    }
    diags.push(d);
    None
}

/// The ports of part `name`, for messages.
fn port_list(name: &str, pf: &Flat) -> String {
    if pf.ports.is_empty() {
        return "none".to_string();
    }
    (pf.ports.iter())
        .map(|p| format!("`{name}.{}`", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether ports `a` and `b` can be joined: the same connector, or connectors with the
/// same fields (names, kinds and units as written); E0497 if not.
#[allow(clippy::too_many_arguments)]
fn compatible(
    a: &FlatPort,
    b: &FlatPort,
    pa: &[Name],
    pb: &[Name],
    connectors: &HashMap<&str, &Connector>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if a.connector == b.connector {
        return true;
    }
    let (Some(ca), Some(cb)) = (
        connectors.get(a.connector.as_str()),
        connectors.get(b.connector.as_str()),
    ) else {
        return false;
    };
    let unit = |f: &crate::ast::ConnectorField| -> String {
        f.unit
            .as_ref()
            .map(|u| u.text.replace(' ', ""))
            .unwrap_or_else(|| "1".to_string())
    };
    let kind = |flow: bool| if flow { "flow" } else { "potential" };
    let mismatch = if ca.fields.len() != cb.fields.len() {
        Some(format!(
            "`{}` has {} variables, `{}` {}",
            ca.name.text,
            ca.fields.len(),
            cb.name.text,
            cb.fields.len()
        ))
    } else {
        ca.fields.iter().zip(&cb.fields).find_map(|(x, y)| {
            if x.name.text != y.name.text {
                Some(format!(
                    "`{}` where the other has `{}`",
                    x.name.text, y.name.text
                ))
            } else if x.flow != y.flow {
                Some(format!(
                    "`{}` is a {} in `{}` and a {} in `{}`",
                    x.name.text,
                    kind(x.flow),
                    ca.name.text,
                    kind(y.flow),
                    cb.name.text
                ))
            } else if unit(x) != unit(y) {
                Some(format!(
                    "`{}` is in [{}] at `{}` and in [{}] at `{}`",
                    x.name.text,
                    unit(x),
                    rename::join(pa),
                    unit(y),
                    rename::join(pb)
                ))
            } else {
                None
            }
        })
    };
    let Some(mismatch) = mismatch else {
        return true;
    };
    let decl = |f: &crate::ast::ConnectorField| {
        format!(
            "{}real {} [{}]",
            if f.flow { "flow " } else { "" },
            f.name.text,
            unit(f)
        )
    };
    let shape = |c: &Connector| {
        format!(
            "`{}` {{ {} }}",
            c.name.text,
            c.fields.iter().map(decl).collect::<Vec<_>>().join("; ")
        )
    };
    diags.push(
        Diagnostic::error(
            "E0497",
            span,
            format!(
                "`{}` (a `{}`) and `{}` (a `{}`) cannot be connected",
                rename::join(pa),
                a.connector,
                rename::join(pb),
                b.connector
            ),
        )
        .with_label(mismatch)
        .with_note(format!("{} and {}", shape(ca), shape(cb)))
        .with_help(
            "connect ports of the same connector, or of connectors with the same variables, \
             kinds and units",
        ),
    );
    false
}
