//! The root model of a program: the one asked for, or the one no other model instantiates.

use sit_middle::ir::{ModelId, Program};
use sit_middle::suggest::did_you_mean;
use std::fmt;

/// Why no root model could be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootError {
    /// `--model NAME` names no model.
    Unknown {
        /// The name asked for.
        name: String,
        /// A close model name, if any.
        suggestion: Option<String>,
        /// Every model name.
        models: Vec<String>,
    },
    /// More than one model could be the root.
    Ambiguous {
        /// The candidates' names.
        candidates: Vec<String>,
    },
    /// The program has no model.
    Empty,
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootError::Unknown {
                name,
                suggestion,
                models,
            } => {
                write!(f, "no model named `{name}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(f, " (models: {})", models.join(", ")),
                }
            }
            RootError::Ambiguous { candidates } => write!(
                f,
                "several models could be the root: {}; choose one with --model",
                candidates.join(", ")
            ),
            RootError::Empty => f.write_str("the file defines no model"),
        }
    }
}

impl std::error::Error for RootError {}

/// The root model: the one called `model` if given, else the one model that no other
/// model instantiates. When several are not instantiated, only those defined in the root
/// file (file 0, not its imports) are candidates; more than one is
/// [`RootError::Ambiguous`].
pub fn select_root<X>(program: &Program<X>, model: Option<&str>) -> Result<ModelId, RootError> {
    let names = || program.models.iter().map(|m| m.name.clone()).collect();
    if let Some(name) = model {
        return program.model(name).ok_or_else(|| RootError::Unknown {
            name: name.to_string(),
            suggestion: did_you_mean(name, program.models.iter().map(|m| m.name.as_str()))
                .map(str::to_string),
            models: names(),
        });
    }
    let roots = program.roots();
    let own: Vec<ModelId> = roots
        .iter()
        .copied()
        .filter(|&m| program.models[m].span.file == 0)
        .collect();
    let candidates = if own.is_empty() { roots } else { own };
    match candidates.as_slice() {
        [] => Err(RootError::Empty),
        [one] => Ok(*one),
        many => Err(RootError::Ambiguous {
            candidates: many
                .iter()
                .map(|&m| program.models[m].name.clone())
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_selection() {
        let out = sit_middle::check_source(
            "r.sit",
            "model A { real x; } model B { sub a: A; } model C { real y; }",
        );
        let p = out.program.unwrap();
        assert_eq!(
            select_root(&p, None),
            Err(RootError::Ambiguous {
                candidates: vec!["B".into(), "C".into()]
            })
        );
        assert_eq!(select_root(&p, Some("A")), Ok(p.model("A").unwrap()));
        let unknown = select_root(&p, Some("BB")).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "no model named `BB`; did you mean `B`?"
        );
        let one = sit_middle::check_source("o.sit", "model A { real x; } model B { sub a: A; }");
        let p = one.program.unwrap();
        assert_eq!(select_root(&p, None), Ok(p.model("B").unwrap()));
    }
}
