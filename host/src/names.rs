//! Variables by name: the suggestion for a misspelt name and the list of variables to record.

use core::fmt;
use sit_middle::suggest::did_you_mean;
use sit_runtime::Model;

/// `; did you mean `x`?` for a misspelt variable name, or nothing. A name that is the last
/// part of submodel variables' paths (`kp` for `pi.kp`) suggests those.
pub fn hint(model: &dyn Model, name: &str) -> String {
    let names: Vec<&str> = sit_runtime::Variables::new(model).map(|v| v.name).collect();
    let inner: Vec<String> = (names.iter())
        .filter(|n| n.rsplit_once('.').is_some_and(|(_, last)| last == name))
        .map(|n| format!("`{n}`"))
        .collect();
    if !inner.is_empty() {
        return format!("; did you mean {}?", inner.join(" or "));
    }
    did_you_mean(name, names).map_or_else(String::new, |s| format!("; did you mean `{s}`?"))
}

/// A name that is no variable of the model, with the suggestion of [`hint`]. Shown as
/// ``no variable named `x`; did you mean `y`?``.
#[derive(Clone, Debug, PartialEq)]
pub struct Unknown {
    /// The name asked for.
    pub name: String,
    /// The suggestion (`; did you mean ...?`), or empty.
    pub hint: String,
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no variable named `{}`{}", self.name, self.hint)
    }
}

impl std::error::Error for Unknown {}

/// The index of the variable `name`, or [`Unknown`] with a suggestion.
pub fn index(model: &dyn Model, name: &str) -> Result<usize, Unknown> {
    model.var_index(name).ok_or_else(|| Unknown {
        name: name.to_string(),
        hint: hint(model, name),
    })
}

/// Why a list of variables to record was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    /// A glob pattern (`pi.*`) that matches no variable.
    NoMatch(String),
    /// A name that is no variable.
    Unknown(Unknown),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NoMatch(p) => write!(f, "`{p}` matches no variable"),
            RecordError::Unknown(u) => u.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

/// The indices to record: `None` the root model's outputs (every variable when it declares
/// none), `["all"]` every variable, else the names and glob patterns in order (`*` any
/// characters, dots included; `?` one character), each pattern standing for the variables
/// it matches in index order; a variable named twice is recorded once.
pub fn record_list<S: AsRef<str>>(
    model: &sit_interp::Instance,
    names: Option<&[S]>,
) -> Result<Vec<usize>, RecordError> {
    let all = || (0..model.var_count()).collect::<Vec<_>>();
    let list = match names {
        None => {
            let outputs = model.root_outputs();
            return Ok(if outputs.is_empty() { all() } else { outputs });
        }
        Some([one]) if one.as_ref() == "all" => return Ok(all()),
        Some(list) => list,
    };
    let mut out: Vec<usize> = Vec::new();
    for name in list.iter().map(AsRef::as_ref) {
        let found = if name.contains(['*', '?']) {
            let pattern = wildmatch::WildMatch::new(name);
            let matched: Vec<usize> = (sit_runtime::Variables::new(model).enumerate())
                .filter(|(_, v)| pattern.matches(v.name))
                .map(|(i, _)| i)
                .collect();
            if matched.is_empty() {
                return Err(RecordError::NoMatch(name.to_string()));
            }
            matched
        } else {
            vec![index(model, name).map_err(RecordError::Unknown)?]
        };
        for i in found {
            if !out.contains(&i) {
                out.push(i);
            }
        }
    }
    Ok(out)
}

/// `record` with, right after each recorded variable `x`, its forward sensitivities to
/// `wrt` that the model has and `record` does not list yet: `d(x)/d(k)` for a param `k`,
/// `d(x)/d(v(0))` for a state `v`'s initial value, in the order of `wrt`
/// (`--sensitivities` with `--record`: the columns beside each recorded variable).
pub fn with_sensitivities<S: AsRef<str>>(
    model: &dyn Model,
    record: &[usize],
    wrt: &[S],
) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(record.len() * (1 + wrt.len()));
    for &i in record {
        if !out.contains(&i) {
            out.push(i);
        }
        let x = name_of(model, i);
        for w in wrt.iter().map(AsRef::as_ref) {
            let found = (model.var_index(&format!("d({x})/d({w})")))
                .or_else(|| model.var_index(&format!("d({x})/d({w}(0))")));
            if let Some(s) = found
                && !out.contains(&s)
                && !record.contains(&s)
            {
                out.push(s);
            }
        }
    }
    out
}

/// The name of variable `index` of `model`, or `?` for an index it does not have.
pub fn name_of(model: &dyn Model, index: usize) -> &str {
    model.var_info(index).map_or("?", |v| v.name)
}
