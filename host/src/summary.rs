//! The summaries of a study as `sitc sweep --summary` and Python's `sit.sweep(summary=…)`
//! name them: `final`, `max`, `min`, `first-crossing=THRESH` and
//! `first-crossing(NAME)=THRESH`, and what each collects of a recorded variable.

use core::fmt;
use sit_runtime::sweep::Collect;

/// A summary of the recorded variables.
#[derive(Clone, Debug, PartialEq)]
pub enum Summary {
    /// The value after the last step.
    Final,
    /// The largest value over the run.
    Max,
    /// The smallest value over the run.
    Min,
    /// The time at which the variable first reaches the threshold (see
    /// [`Collect::FirstCrossing`]): of every recorded variable (`var` is `None`,
    /// `first-crossing=T`) or of the one named (`first-crossing(NAME)=T`).
    Crossing {
        /// The variable's dotted name, or `None` for every recorded variable.
        var: Option<String>,
        /// The threshold, a number (not NaN).
        threshold: f64,
    },
}

/// Why the text of a summary was not read.
#[derive(Clone, Debug, PartialEq)]
pub enum SummaryError {
    /// `first-crossing=T` where `T` (given) is not a number, or is NaN.
    NotANumber(String),
    /// `first-crossing()=T`: the parentheses name no variable.
    NoName,
    /// None of `final`, `max`, `min`, `first-crossing=THRESH`,
    /// `first-crossing(NAME)=THRESH`.
    Unknown,
}

impl fmt::Display for SummaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SummaryError::NotANumber(t) => write!(f, "`{t}` is not a number"),
            SummaryError::NoName => {
                f.write_str("the parentheses of `first-crossing(NAME)` name no variable")
            }
            SummaryError::Unknown => f.write_str(
                "expected final, max, min, first-crossing=THRESH or first-crossing(NAME)=THRESH",
            ),
        }
    }
}

impl Summary {
    /// Reads one summary (surrounding spaces ignored, and spaces around the name and the
    /// threshold).
    pub fn parse(item: &str) -> Result<Summary, SummaryError> {
        Ok(match item.trim() {
            "final" => Summary::Final,
            "max" => Summary::Max,
            "min" => Summary::Min,
            item => {
                let rest = item
                    .strip_prefix("first-crossing")
                    .ok_or(SummaryError::Unknown)?
                    .trim_start();
                let (var, rest) = match rest.strip_prefix('(') {
                    Some(inner) => {
                        let (name, rest) = inner.split_once(')').ok_or(SummaryError::Unknown)?;
                        let name = name.trim();
                        if name.is_empty() {
                            return Err(SummaryError::NoName);
                        }
                        (Some(name.to_string()), rest.trim_start())
                    }
                    None => (None, rest),
                };
                let t = rest.strip_prefix('=').ok_or(SummaryError::Unknown)?.trim();
                match t.parse::<f64>() {
                    Ok(threshold) if !threshold.is_nan() => Summary::Crossing { var, threshold },
                    _ => return Err(SummaryError::NotANumber(t.into())),
                }
            }
        })
    }

    /// Reads the summaries in order, each once (a repeated one is kept where it first
    /// stands); the error with the item it is about.
    pub fn parse_all<'a>(
        items: impl IntoIterator<Item = &'a str>,
    ) -> Result<Vec<Summary>, (&'a str, SummaryError)> {
        let mut out = Vec::new();
        for item in items {
            let s = Summary::parse(item).map_err(|e| (item.trim(), e))?;
            if !out.contains(&s) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// The variable a summary is restricted to (`first-crossing(NAME)=T`), if any.
    pub fn only(&self) -> Option<&str> {
        match self {
            Summary::Crossing { var: Some(v), .. } => Some(v),
            _ => None,
        }
    }

    /// What to collect of variable `var`, named `name`, and the title of its column, or
    /// `None` when the summary is of another variable: `final(name)`, `max(name)`,
    /// `min(name)`, `crossing(name=T)` (every summary names what it is of, so a column
    /// is never taken for an axis or a set value).
    pub fn collect(&self, var: usize, name: &str) -> Option<(Collect, String)> {
        if self.only().is_some_and(|only| only != name) {
            return None;
        }
        Some(match *self {
            Summary::Final => (Collect::Final(var), format!("final({name})")),
            Summary::Max => (Collect::Max(var), format!("max({name})")),
            Summary::Min => (Collect::Min(var), format!("min({name})")),
            Summary::Crossing { threshold, .. } => (
                Collect::FirstCrossing { var, threshold },
                format!("crossing({name}={threshold})"),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crossing(var: Option<&str>, threshold: f64) -> Summary {
        Summary::Crossing {
            var: var.map(str::to_string),
            threshold,
        }
    }

    #[test]
    fn summaries_are_read() {
        assert_eq!(
            Summary::parse_all(["final", "max", "first-crossing=-0.5", "max", " min "]),
            Ok(vec![
                Summary::Final,
                Summary::Max,
                crossing(None, -0.5),
                Summary::Min
            ])
        );
        assert_eq!(
            Summary::parse("first-crossing(T)=20.5"),
            Ok(crossing(Some("T"), 20.5))
        );
        assert_eq!(
            Summary::parse(" first-crossing ( pi.x ) = 1e3 "),
            Ok(crossing(Some("pi.x"), 1000.0))
        );
        assert_eq!(
            Summary::parse("first-crossing=x"),
            Err(SummaryError::NotANumber("x".into()))
        );
        assert_eq!(
            Summary::parse("first-crossing=NaN"),
            Err(SummaryError::NotANumber("NaN".into()))
        );
        assert_eq!(
            Summary::parse("first-crossing()=1"),
            Err(SummaryError::NoName)
        );
        for bad in [
            "avg",
            "first-crossing",
            "first-crossing(T=1",
            "first-crossing(T)",
        ] {
            assert_eq!(Summary::parse(bad), Err(SummaryError::Unknown), "{bad}");
        }
        assert_eq!(
            Summary::parse_all(["max", "mean"]),
            Err(("mean", SummaryError::Unknown))
        );
    }

    #[test]
    fn a_named_crossing_is_of_its_variable_only() {
        let s = crossing(Some("T"), 20.5);
        assert_eq!(
            s.collect(3, "T"),
            Some((
                Collect::FirstCrossing {
                    var: 3,
                    threshold: 20.5
                },
                "crossing(T=20.5)".to_string()
            ))
        );
        assert_eq!(s.collect(4, "Q"), None);
        let every = crossing(None, 0.0);
        assert_eq!(every.collect(4, "Q").unwrap().1, "crossing(Q=0)");
        assert_eq!(Summary::Final.collect(1, "k").unwrap().1, "final(k)");
        assert_eq!(Summary::Final.collect(1, "w_L").unwrap().1, "final(w_L)");
    }
}
