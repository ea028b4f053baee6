//! Name resolution, type checking and lowering of the syntax tree to the IR.
//!
//! The passes, each in its module: `declare` builds each model's table of
//! names; `order` resolves submodel types, orders models leaves first and
//! bounds the instance tree; `lower` lowers each model (declarations,
//! cycles), with `subs` for submodel instances, `rules` for rules and
//! actions and `expr` for expressions.

use crate::ast::{self, Name};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::parse::Keyword;
use crate::source::SourceMap;
use crate::suggest::did_you_mean;
use std::collections::HashMap;

pub mod arrays;
mod components;
mod declare;
pub mod equations;
mod exact;
mod expr;
mod modes;
mod order;
mod phase;
mod resolve;
mod rules;
mod slips;
mod step;
mod subs;
mod substeps;
mod table;

pub use components::flat_models;
use declare::{Table, declare};
pub use order::MAX_INSTANCES;
use order::{instance_counts, topo_order};
pub use resolve::collect_vars;
use resolve::{Ctx, Resolver};
pub(crate) use table::file_header;

/// Names that are built in: `time`, `dt`, and `on` (a submodel's switch).
pub const RESERVED: &[&str] = &["time", "dt", "on"];

/// Stateful procedures: only as the whole right-hand side of a δ rule,
/// where they compute the target's next value from its current one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stateful {
    /// `integral(rate)` or `integral(rate, lo, hi)`.
    Integral,
    /// `lag(input, T)` or `lag(input, T, gain)`.
    Lag,
    /// `deriv(signal)`.
    Deriv,
    /// `hysteresis(input, lo, hi)` or `hysteresis(input, lo, hi, amplitude)`.
    Hysteresis,
    /// `timer(condition)`: how long the condition has held, counted in whole steps.
    Timer,
}

impl Stateful {
    /// Every stateful procedure.
    pub const ALL: [Stateful; 5] = [
        Stateful::Integral,
        Stateful::Lag,
        Stateful::Deriv,
        Stateful::Hysteresis,
        Stateful::Timer,
    ];

    /// The procedure called `name`, if it is stateful.
    pub fn from_name(name: &str) -> Option<Stateful> {
        Stateful::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its name in `.sit`.
    pub fn name(self) -> &'static str {
        match self {
            Stateful::Integral => "integral",
            Stateful::Lag => "lag",
            Stateful::Deriv => "deriv",
            Stateful::Hysteresis => "hysteresis",
            Stateful::Timer => "timer",
        }
    }

    /// The numbers of arguments it takes, for messages.
    pub fn arity(self) -> &'static str {
        match self {
            Stateful::Integral => "1 or 3",
            Stateful::Lag => "2 or 3",
            Stateful::Deriv => "1",
            Stateful::Hysteresis => "3 or 4",
            Stateful::Timer => "1",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sym {
    Var(VarId),
    Cond(CondId),
    Event(EventId),
    Sub(SubId),
    Mode(ModeId),
}

/// Check and lower all parsed files. Returns the program when there is no
/// error; diagnostics (errors and warnings) are appended to `diags`.
pub fn check(
    files: &[(crate::source::FileId, ast::File)],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<Program> {
    check_with(files, sources, diags, None)
}

/// [`check`], every model integrated by `method` when one is given (a run's
/// `--method`): it replaces the declared methods before the checks that depend on the
/// method (the split of E0472, the lints), so that what the run uses is what is checked.
pub fn check_with(
    files: &[(crate::source::FileId, ast::File)],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
    method: Option<crate::ir::Method>,
) -> Option<Program> {
    // Arrays and loops expanded into scalars first; a diagnostic of a rule written in
    // a loop is reported once, not once per value of the loop variable.
    let start = diags.len();
    let (files, loops) = arrays::expand(files, diags);
    let out = check_expanded(&files, sources, diags, method);
    let mut tail = diags.split_off(start);
    arrays::once_per_place(&mut tail, &loops);
    diags.extend(tail);
    out
}

/// [`check_with`] on files whose arrays and loops are expanded.
fn check_expanded(
    files: &[(crate::source::FileId, ast::File)],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
    method: Option<crate::ir::Method>,
) -> Option<Program> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    // Each model's parts flattened into it (the components, only into others), then its
    // equations solved into rules.
    let flat = components::flatten(files, diags);
    let solved: Vec<ast::Model> = (files.iter().zip(flat))
        .flat_map(|((_, f), flat)| f.models.iter().zip(flat))
        .filter_map(|(m, flat)| match flat {
            components::Flattened::AsWritten => {
                Some(equations::solve(m, diags).unwrap_or_else(|| m.clone()))
            }
            components::Flattened::Model(flat) => {
                let before = diags.len();
                let solved = equations::solve(&flat, diags).unwrap_or(*flat);
                components::annotate(m, &mut diags[before..]);
                Some(solved)
            }
            components::Flattened::Dropped => None,
        })
        .collect();
    // All models of all files, by name.
    let mut asts: Vec<&ast::Model> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for m in &solved {
        check_name(&m.name, "model", diags);
        if let Some(&prev) = by_name.get(m.name.text.as_str()) {
            diags.push(
                Diagnostic::error(
                    "E0102",
                    m.name.span,
                    format!("the model `{}` is defined twice", m.name.text),
                )
                .with_label("second definition")
                .with_related(asts[prev].name.span, "first defined here"),
            );
            continue;
        }
        by_name.insert(&m.name.text, asts.len());
        asts.push(m);
    }
    let tables: Vec<Table> = asts.iter().map(|m| declare(m, sources, diags)).collect();
    // An import that failed (E0301, E0302) may hold the models that are not found: their
    // E0120 would only follow from it, unless a known model's name is close.
    let import_failed = diags.iter().any(|d| d.code == "E0301" || d.code == "E0302");
    // An unknown model left unreported: the program has an error all the same.
    let mut unreported = false;
    // Resolve submodel types and find recursive instantiation.
    let mut sub_models: Vec<Vec<Option<usize>>> = Vec::new();
    let mut model_budget = resolve::SUGGESTION_BUDGET;
    for (mi, t) in tables.iter().enumerate() {
        let mut v = Vec::new();
        for sub in &t.subs {
            let model = &sub.model;
            match by_name.get(model.text.as_str()) {
                Some(&i) => v.push(Some(i)),
                None => {
                    // Suggestions within a budget of comparisons, as for names.
                    // In definition order: ties are decided the same way in every run.
                    let names: Vec<&str> = asts.iter().map(|m| m.name.text.as_str()).collect();
                    let suggestion = if names.len() <= model_budget {
                        model_budget -= names.len();
                        did_you_mean(&model.text, names.iter().copied())
                    } else {
                        None
                    };
                    let mut d = Diagnostic::error(
                        "E0120",
                        model.span,
                        format!("unknown model `{}`", model.text),
                    )
                    .with_label("no model has this name");
                    if let Some(s) = suggestion {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    } else {
                        d = d.with_note(
                            "models of other files are visible after `import \"file.sit\";`",
                        );
                    }
                    if suggestion.is_some() || !import_failed {
                        diags.push(d);
                    } else {
                        unreported = true;
                    }
                    v.push(None);
                }
            }
        }
        let _ = mi;
        sub_models.push(v);
    }
    let order = topo_order(&asts, &tables, &sub_models, diags)?;
    instance_counts(&asts, &order, &sub_models, diags);
    // Pass 2: lower every model.
    let mut lowered: Vec<Option<Model>> = vec![None; asts.len()];
    let mut equalities: Vec<Vec<exact::Equality>> = vec![Vec::new(); asts.len()];
    let new_index: HashMap<usize, usize> = order.iter().enumerate().map(|(n, &o)| (o, n)).collect();
    for &mi in &order {
        let (m, found) = Resolver {
            tables: &tables,
            sub_models: &sub_models,
            new_index: &new_index,
            this: mi,
            sources,
            diags,
            fired: HashMap::new(),
            memories: Vec::new(),
            suggestions: std::cell::Cell::new(resolve::SUGGESTION_BUDGET),
            blocks: Vec::new(),
            unknown_reads: 0,
            binding_of: None,
            equalities: Vec::new(),
        }
        .lower(asts[mi]);
        lowered[mi] = Some(m);
        equalities[mi] = found;
    }
    // W0210: exact comparisons of inexact reals, the submodels' known before each parent.
    let mut inexact: Vec<Option<exact::Inexact>> = vec![None; asts.len()];
    for &mi in &order {
        let Some(m) = &lowered[mi] else { continue };
        let subs: Vec<exact::Sub<'_>> = (m.subs.iter())
            .map(|s| {
                let c = *order.get(s.model)?;
                Some((lowered[c].as_ref()?, inexact[c].as_ref()?))
            })
            .collect();
        let vars = exact::inexact(m, &subs);
        exact::warn(m, &equalities[mi], &vars, &subs, diags);
        inexact[mi] = Some(vars);
    }
    // The run's method replaces the declared ones before anything depends on them.
    if let Some(method) = method {
        lowered.iter_mut().flatten().for_each(|m| m.method = method);
    }
    // Derived params of a submodel cannot be bound (they follow their definition).
    for &mi in &order {
        let Some(m) = &lowered[mi] else { continue };
        for sub in &m.subs {
            // `sub.model` indexes the models in `order`.
            let Some(cm) = order.get(sub.model).and_then(|&c| lowered[c].as_ref()) else {
                continue;
            };
            // A phase binds params at each run, with its inputs.
            let at_run: &[Binding] = match sub.phase {
                Some(_) => &sub.input_bindings,
                None => &[],
            };
            for b in sub.param_bindings.iter().chain(at_run) {
                if let VarKind::Param { derived: true } = cm.vars[b.var].kind {
                    diags.push(
                        Diagnostic::error(
                            "E0183",
                            b.span,
                            format!(
                                "the param `{}` of `{}` is derived from other params and cannot be bound",
                                cm.vars[b.var].name, cm.name
                            ),
                        )
                        .with_label("bound here")
                        .with_related(cm.vars[b.var].span, "defined from other params here")
                        .with_help("bind the params it is computed from instead"),
                    );
                }
            }
        }
    }
    let errors_after = diags.iter().filter(|d| d.is_error()).count();
    if errors_after > errors_before || unreported {
        return None;
    }
    // Units (issue 30): declared units checked where they flow, the others inferred.
    let before_units = diags.len();
    crate::units::check_models_in(&asts, Some(sources), diags);
    if diags[before_units..].iter().any(Diagnostic::is_error) {
        return None;
    }
    // A model integrated by a higher-order method splits into continuous and discrete rules.
    let split: Vec<Diagnostic> = lowered
        .iter()
        .flatten()
        .flat_map(crate::ir::split_errors)
        .collect();
    if !split.is_empty() {
        diags.extend(split);
        return None;
    }
    // A loop of rules that read each other's values of the same step.
    let loops: Vec<Diagnostic> = lowered
        .iter()
        .flatten()
        .flat_map(crate::lint::order::loops)
        .collect();
    if !loops.is_empty() {
        diags.extend(loops);
        return None;
    }
    let models = order
        .iter()
        .map(|&i| lowered[i].take().expect("lowered"))
        .collect();
    Some(Program {
        models,
        sources: sources.clone(),
    })
}

/// The note of E0103 and E0104 for a state: the two words it may still be.
const STATE_NOTE: &str =
    "a state may be named `on` or `off`, but no other keyword or built-in name";

fn check_name(name: &Name, what: &str, diags: &mut Vec<Diagnostic>) -> bool {
    let for_state = |d: Diagnostic| {
        if what == "state" {
            d.with_note(STATE_NOTE)
        } else {
            d
        }
    };
    if Keyword::is_keyword(&name.text) {
        diags.push(for_state(
            Diagnostic::error(
                "E0103",
                name.span,
                format!("`{}` is a keyword and cannot name a {what}", name.text),
            )
            .with_label("keyword used as a name")
            .with_help(format!("choose another name, such as `{}_`", name.text)),
        ));
        return false;
    }
    if RESERVED.contains(&name.text.as_str()) && what != "model" {
        let why = match name.text.as_str() {
            "time" => "`time` is the model's clock",
            "dt" => "`dt` is the length of the current step",
            _ => "`on` is the switch of a submodel (`name.on`)",
        };
        diags.push(for_state(
            Diagnostic::error(
                "E0104",
                name.span,
                format!(
                    "`{}` is a built-in name and cannot name a {what}",
                    name.text
                ),
            )
            .with_label("reserved")
            .with_note(why),
        ));
        return false;
    }
    if name.text.starts_with("__") {
        diags.push(
            Diagnostic::error(
                "E0104",
                name.span,
                format!("`{}`: names starting with `__` are reserved", name.text),
            )
            .with_label("reserved for generated code"),
        );
        return false;
    }
    true
}
