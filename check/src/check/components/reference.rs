//! W0211: a group of connected ports whose potentials nothing fixes (a circuit without a ground), found after the connections are made, before the equations turn it into a singular system.
//!
//! The ports of one connector type are *grouped* when they share a connection set (one
//! potential variable) or belong to the same part (a resistor joins its two pins). A
//! group is *referenced* when some rule writes one of its potentials, or some equation
//! mentions exactly one of them and nothing else that the equations must determine
//! (`gnd.p.v = 0`, an inertia's `a.phi = phi` with `phi` a state, a fixed temperature's
//! `port.T = T`): that potential is then known absolutely, and the group's differences
//! (`v = p.v − n.v`) carry it to every other. A group with potentials and no reference
//! has its potentials determined only up to a constant: the equations are singular and
//! a run gives NaN. It is a warning, not an error: the test is structural and a model
//! may fix a potential in a way it does not see.

use super::connect::{find, resolve};
use super::{Flat, FlatPort, rename};
use crate::ast::{Connector, Decl, DeclKind, Model, Rule};
use crate::diag::Diagnostic;
use std::collections::{HashMap, HashSet};

/// Warns (W0211) for each group of `f`'s ports (the model `m`'s parts' and its own, its
/// connections made) whose potentials no rule or equation fixes, suggesting a
/// component of `models` that references the connector (a `Ground`).
pub(super) fn check(
    m: &Model,
    f: &Flat,
    connectors: &HashMap<&str, &Connector>,
    models: &HashMap<&str, &Model>,
    diags: &mut Vec<Diagnostic>,
) {
    // Each port's potentials, resolved to the variable of its connection set.
    let potentials: Vec<Vec<String>> = (f.ports.iter())
        .map(|p| {
            (connectors.get(p.connector.as_str()).into_iter())
                .flat_map(|c| c.fields.iter().filter(|x| !x.flow))
                .map(|x| resolve(&f.aliases, &format!("{}.{}", p.name, x.name.text)))
                .collect()
        })
        .collect();
    let mut parent: Vec<usize> = (0..f.ports.len()).collect();
    let mut by_var: HashMap<&str, usize> = HashMap::new();
    let mut by_owner: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, p) in f.ports.iter().enumerate() {
        if potentials[i].is_empty() {
            continue;
        }
        let owner = p.name.rsplit_once('.').map_or("", |(o, _)| o);
        let mut join = |j: usize| {
            let (a, b) = (find(&mut parent, i), find(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        };
        if !p.outside {
            let j = *by_owner.entry((owner, p.connector.as_str())).or_insert(i);
            join(j);
        }
        for v in &potentials[i] {
            let j = *by_var.entry(v.as_str()).or_insert(i);
            join(j);
        }
    }
    let unknowns = unknowns(f);
    // The potentials each rule fixes.
    let mut fixed: HashSet<&str> = HashSet::new();
    let all: HashSet<&str> = potentials.iter().flatten().map(String::as_str).collect();
    for r in &f.rules {
        let (mut read, mut wrote) = (Vec::new(), Vec::new());
        rename::rule_names(r, &mut read, &mut wrote);
        if !matches!(r, Rule::Equation { .. }) {
            fixed.extend(wrote.iter().filter_map(|w| all.get(w.as_str()).copied()));
            continue;
        }
        let mentioned: HashSet<&str> = read.iter().map(String::as_str).collect();
        let here: Vec<&str> = (mentioned.iter().copied())
            .filter(|n| all.contains(*n))
            .collect();
        let others_known = (mentioned.iter())
            .filter(|n| !all.contains(**n))
            .all(|n| !unknowns.contains(*n));
        if let ([one], true) = (here.as_slice(), others_known)
            && let Some(&p) = all.get(*one)
        {
            fixed.insert(p);
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, pots) in potentials.iter().enumerate() {
        if !pots.is_empty() && !f.ports[i].outside {
            groups.entry(find(&mut parent, i)).or_default().push(i);
        }
    }
    let mut roots: Vec<usize> = groups.keys().copied().collect();
    roots.sort_unstable();
    for root in roots {
        let ports = &groups[&root];
        if ports
            .iter()
            .any(|&i| potentials[i].iter().any(|v| fixed.contains(v.as_str())))
        {
            continue;
        }
        diags.push(floating(m, ports.iter().map(|&i| &f.ports[i]), models));
    }
}

/// The warning for the unreferenced group of `ports`.
fn floating<'p>(
    m: &Model,
    ports: impl Iterator<Item = &'p FlatPort>,
    models: &HashMap<&str, &Model>,
) -> Diagnostic {
    let ports: Vec<&FlatPort> = ports.collect();
    let connector = ports[0].connector.as_str();
    let mut parts: Vec<&str> = Vec::new();
    for p in &ports {
        let owner = p.name.rsplit_once('.').map_or(p.name.as_str(), |(o, _)| o);
        if !parts.contains(&owner) {
            parts.push(owner);
        }
    }
    let listed: Vec<String> = parts.iter().map(|p| format!("`{p}`")).collect();
    // Where the group is first connected, else the first part's declaration.
    let span = (m.connects.iter())
        .find(|c| {
            [&c.a, &c.b]
                .iter()
                .any(|p| parts.contains(&rename::join(&p[..p.len().saturating_sub(1)]).as_str()))
        })
        .map_or(ports[0].span, |c| c.span);
    let mut d = Diagnostic::warning(
        "W0211",
        span,
        format!(
            "the `{connector}` ports of {} have no reference: their potentials are \
             determined only up to a constant",
            listed.join(", ")
        ),
    )
    .with_label("connects a group that nothing fixes")
    .with_note(
        "no part fixes one of these potentials absolutely (as a ground fixes a voltage, a \
         fixed flange an angle, a state the value it carries): every equation among them \
         relates differences, so the equations are singular and a run gives NaN",
    );
    let port_name = ports
        .iter()
        .find(|p| !p.outside)
        .map_or("", |p| p.name.as_str());
    d = match reference_component(connector, models) {
        Some((model, port)) => d.with_help(format!(
            "connect the group to a reference: `part ref: {model}; connect(ref.{port}, \
             {port_name});`"
        )),
        None => d.with_help(format!(
            "connect the group to a part that fixes one of its potentials, or state one \
             (`equation {port_name}.<potential> = 0;`)"
        )),
    };
    d
}

/// A component with a single port, of `connector`, whose equations fix its potentials
/// from params and constants alone (a `Ground`): its name and its port's, the first in
/// name order.
fn reference_component(
    connector: &str,
    models: &HashMap<&str, &Model>,
) -> Option<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for m in models.values() {
        let [port] = m.ports.as_slice() else { continue };
        if port.connector.text != connector || !m.parts.is_empty() {
            continue;
        }
        let params = crate::check::arrays::specialise::params(m);
        let fixes = m.rules.iter().any(|r| {
            let (mut read, mut wrote) = (Vec::new(), Vec::new());
            rename::rule_names(r, &mut read, &mut wrote);
            matches!(r, Rule::Equation { .. })
                && read
                    .iter()
                    .any(|n| n.starts_with(&format!("{}.", port.name.text)))
                && (read.iter()).all(|n| {
                    n.starts_with(&format!("{}.", port.name.text)) || params.contains(n.as_str())
                })
                && read.len() == 1
        });
        if fixes {
            found.push((m.name.text.clone(), port.name.text.clone()));
        }
    }
    found.sort();
    found.into_iter().next()
}

/// The reals the equations of `f` must determine: declared `real`, written by no rule,
/// and not a state (whose `der` an equation determines instead).
fn unknowns(f: &Flat) -> HashSet<&str> {
    let mut written: HashSet<String> = HashSet::new();
    let mut rated: HashSet<String> = HashSet::new();
    for r in &f.rules {
        let (mut read, mut wrote) = (Vec::new(), Vec::new());
        rename::rule_names(r, &mut read, &mut wrote);
        if let Rule::Equation { lhs, rhs, .. } = r {
            super::ders(lhs, &mut rated);
            super::ders(rhs, &mut rated);
        } else {
            written.extend(wrote);
        }
    }
    (f.decls.iter())
        .filter_map(|d| match d {
            Decl::Var {
                kind: DeclKind::Real,
                name,
                ..
            } if !written.contains(&name.text) && !rated.contains(&name.text) => {
                Some(name.text.as_str())
            }
            _ => None,
        })
        .collect()
}
