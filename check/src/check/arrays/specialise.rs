//! Structural params bound by an instance: `part rod: Rod(N = 6);` (or `sub`) is an instance of a copy of `Rod` expanded with `N = 6`, a model of its own named `Rod(N = 6)`.
//!
//! A param that sizes an array or bounds a loop is no variable of the run (see the
//! module above), so an instance cannot set it when the run starts as it sets another
//! param. Binding it is a choice of the model's *shape*: each distinct set of values
//! bound to a model's structural params gives one copy of that model, expanded with
//! those values as the params' declared values, and the instance names the copy. The
//! bound value is a whole number computed from numbers and the holder's own structural
//! params (`part seg: Rod(N = 2 * n);` makes `n` structural in the holder, and the
//! holder's holder binds it in turn): the params that feed a structural binding are
//! found before any model is expanded ([`structural`]).

use super::walk;
use crate::ast::{Decl, DeclKind, Expr, ExprKind, File, Model};
use crate::diag::Diagnostic;
use crate::source::{FileId, Span};
use std::collections::{HashMap, HashSet};

/// The most copies of models made for their structural bindings in one program.
pub const MAX_COPIES: usize = 1_000;

/// The structural params of every model, by model name: the params read where a whole
/// number is computed, and those read in a binding of a structural param of an
/// instance's model (to a fixed point, through any depth of instances).
pub(super) fn structural(files: &[(FileId, File)]) -> HashMap<String, HashSet<String>> {
    let mut models: HashMap<&str, &Model> = HashMap::new();
    for (_, f) in files {
        for m in &f.models {
            models.entry(m.name.text.as_str()).or_insert(m);
        }
    }
    let mut out: HashMap<String, HashSet<String>> = HashMap::new();
    for (&name, m) in &models {
        let params = params(m);
        let mut names = Vec::new();
        walk::integer_names(m, &mut names);
        let set: HashSet<String> = (names.into_iter())
            .filter(|n| params.contains(n.text.as_str()))
            .map(|n| n.text.clone())
            .collect();
        out.insert(name.to_string(), set);
    }
    loop {
        let mut grew = false;
        for (&name, m) in &models {
            let params = params(m);
            let mut read = Vec::new();
            for (target, bindings) in instances(m) {
                let Some(bound) = out.get(target) else {
                    continue;
                };
                for (param, e) in bindings {
                    if bound.contains(param) {
                        names_in(e, &mut read);
                    }
                }
            }
            let own = out.entry(name.to_string()).or_default();
            for r in read {
                if params.contains(r.as_str()) && own.insert(r) {
                    grew = true;
                }
            }
        }
        if !grew {
            return out;
        }
    }
}

/// Whether an instance in `m` binds a structural param of its model.
pub(super) fn binds_structural(m: &Model, structural: &HashMap<String, HashSet<String>>) -> bool {
    instances(m).any(|(target, bindings)| {
        structural
            .get(target)
            .is_some_and(|s| bindings.iter().any(|(p, _)| s.contains(*p)))
    })
}

/// The params of `m`, by name.
pub(crate) fn params(m: &Model) -> HashSet<&str> {
    (m.decls.iter())
        .filter_map(|d| match d {
            Decl::Var {
                kind: DeclKind::Param,
                name,
                ..
            } => Some(name.text.as_str()),
            _ => None,
        })
        .collect()
}

/// Each instance of `m` (its parts, then its submodels): its model's name and its
/// bindings.
fn instances(m: &Model) -> impl Iterator<Item = (&str, Vec<(&str, &Expr)>)> {
    let parts = (m.parts.iter()).map(|p| {
        let b = p
            .bindings
            .iter()
            .map(|(n, e)| (n.text.as_str(), e))
            .collect();
        (p.model.text.as_str(), b)
    });
    let subs = m.decls.iter().filter_map(|d| match d {
        Decl::Sub {
            model, bindings, ..
        } => {
            let b = bindings.iter().map(|(n, e)| (n.text.as_str(), e)).collect();
            Some((model.text.as_str(), b))
        }
        _ => None,
    });
    parts.chain(subs)
}

/// The single names read in `e` (paths of one name).
fn names_in(e: &Expr, out: &mut Vec<String>) {
    walk::each_name(e, &mut |n| out.push(n.to_string()));
}

/// An instance that binds structural params, found while its holder was expanded:
/// which instance, the model it names, the values (in the order written).
#[derive(Debug)]
pub(super) struct Request {
    /// The instance.
    pub at: Instance,
    /// Its model's name as written.
    pub model: String,
    /// The structural params bound, with their values and the bindings' places.
    pub values: Vec<(String, i64, Span)>,
    /// The structural params bound to a value in error (reported).
    pub failed: Vec<String>,
}

/// Which instance of a model.
#[derive(Debug, Clone)]
pub(super) enum Instance {
    /// The `k`-th part.
    Part(usize),
    /// The submodel of this name.
    Sub(String),
}

/// The name of the copy of `model` for `values`: `Rod(N = 6)` (a name no source can
/// declare, so it names nothing else).
pub(super) fn copy_name(model: &str, values: &[(String, i64, Span)]) -> String {
    let vals: Vec<String> = values
        .iter()
        .map(|(p, v, _)| format!("{p} = {v}"))
        .collect();
    format!("{model}({})", vals.join(", "))
}

/// The model a copy was made of: `Rod` for `Rod(N = 6)`; `None` for a model as written.
pub fn origin(name: &str) -> Option<&str> {
    split(name).map(|(m, _)| m)
}

/// A copy's name split into the model copied and its bindings: `("Rod", "N = 6")` for
/// `Rod(N = 6)`; `None` for a model as written.
pub fn split(name: &str) -> Option<(&str, &str)> {
    name.strip_suffix(')')?.split_once('(')
}

/// `m` (as written) with each of `values` as its param's declared value, named `name`.
pub(super) fn copy(m: &Model, name: &str, values: &[(String, i64, Span)]) -> Model {
    let mut out = m.clone();
    out.name.text = name.to_string();
    for d in &mut out.decls {
        if let Decl::Var {
            kind: DeclKind::Param,
            name,
            value,
            ..
        } = d
            && let Some((_, v, span)) = values.iter().find(|(p, ..)| *p == name.text)
        {
            *value = Some(Expr {
                kind: ExprKind::Num(*v as f64),
                span: *span,
            });
        }
    }
    out
}

/// Makes the instance of request `r` in `m` name the model `name`, without the
/// bindings of the structural params.
pub(super) fn rename(m: &mut Model, r: &Request, name: &str) {
    let bound = |p: &str| r.values.iter().any(|(v, ..)| v == p) || r.failed.iter().any(|f| f == p);
    match &r.at {
        Instance::Part(k) => {
            if let Some(p) = m.parts.get_mut(*k) {
                p.model.text = name.to_string();
                p.bindings.retain(|(n, _)| !bound(&n.text));
            }
        }
        Instance::Sub(sub) => {
            for d in &mut m.decls {
                if let Decl::Sub {
                    name: n,
                    model,
                    bindings,
                    ..
                } = d
                    && n.text == *sub
                {
                    model.text = name.to_string();
                    bindings.retain(|(n, _)| !bound(&n.text));
                }
            }
        }
    }
}

/// The error for more than [`MAX_COPIES`] copies.
pub(super) fn too_many(span: Span) -> Diagnostic {
    Diagnostic::error(
        "E0466",
        span,
        format!(
            "the structural params bound by instances make more than {MAX_COPIES} copies of \
             models"
        ),
    )
    .with_label("one copy more")
    .with_help("bind fewer distinct sizes, or pass the size as an ordinary param")
}
