//! The changes of an event log marked on a plot's strips: reading `sitc run --events` CSV files and matching their rows to the trace's columns.

use crate::plot::Trace;
use std::path::Path;

/// One change of a plotted logical variable, marked on its strip.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The trace column it marks.
    pub column: usize,
    /// The time of the change.
    pub t: f64,
    /// The value after it: `0`/`1` or a mode's state name.
    pub to: String,
}

/// One row of an event log: a change of `name` from `from` to `to` at `t`.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The time after the step that made it.
    pub t: f64,
    /// Dotted name.
    pub name: String,
    /// The value before (empty for a reset).
    pub from: String,
    /// The value after (`reset` for a reset).
    pub to: String,
}

/// Reads an event log written by `sitc run --events` (header `t,name,from,to,rule`).
pub fn read_log(path: &Path) -> Result<Vec<Change>, String> {
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| {
        format!(
            "--events: cannot read `{shown}`: {}",
            crate::params::io_reason(&e)
        )
    })?;
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(file);
    let header = reader
        .headers()
        .map_err(|e| format!("--events: cannot read `{shown}`: {e}"))?;
    if header.iter().take(4).ne(["t", "name", "from", "to"]) {
        return Err(format!(
            "--events: `{shown}` is not an event log: its first line must be \
             `t,name,from,to,rule`"
        ));
    }
    let mut changes = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| format!("--events: {shown}:{line}: {e}"))?;
        if record.len() < 4 {
            return Err(format!(
                "--events: {shown}:{line}: expected 5 fields, found {}",
                record.len()
            ));
        }
        let t = record[0]
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("--events: {shown}:{line}: `{}` is not a time", &record[0]))?;
        changes.push(Change {
            t,
            name: record[1].to_string(),
            from: record[2].to_string(),
            to: record[3].to_string(),
        });
    }
    Ok(changes)
}

impl Trace {
    /// Marks the changes of the plotted columns on their strips: each column a change
    /// names is drawn as a strip (a mode's column too). A mode's states are named from
    /// `states` (name, states by index) when given, else from the changes and the
    /// values the trace shows around them. Changes of other names (a column not
    /// plotted, a submodel's reset) and outside the trace's times are left out.
    pub fn mark(&mut self, changes: &[Change], states: &[(String, Vec<String>)]) {
        let (t0, t1) = match (self.t.first(), self.t.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => return,
        };
        for (name, names) in states {
            if let Some(col) = self.names.iter().position(|n| n == name) {
                self.states[col] = names.clone();
                self.logical[col] = true;
            }
        }
        for c in changes {
            let Some(column) = self.names.iter().position(|n| *n == c.name) else {
                continue;
            };
            if c.to == "reset" && c.from.is_empty() {
                continue;
            }
            self.logical[column] = true;
            if (t0..=t1).contains(&c.t) {
                self.marks.push(Mark {
                    column,
                    t: c.t,
                    to: c.to.clone(),
                });
            }
        }
        for column in 0..self.names.len() {
            if self.states[column].is_empty() {
                self.states[column] = self.derive_states(column, changes);
            }
        }
    }

    /// The names of the values of `column` from its changes (empty for 0/1 changes):
    /// a change's `from` names the value of the last row before it, its `to` the value
    /// of the first row at or after it, unless another change of the column comes
    /// between them.
    fn derive_states(&self, column: usize, changes: &[Change]) -> Vec<String> {
        let name = &self.names[column];
        let own: Vec<&Change> = changes.iter().filter(|c| c.name == *name).collect();
        if own.iter().all(|c| is_bit(&c.from) && is_bit(&c.to)) {
            return Vec::new();
        }
        let values = &self.columns[column];
        // Another change of the column shown by a row at `b` but not at `a`.
        let between = |a: f64, b: f64| own.iter().any(|c| a < c.t && c.t <= b);
        let mut states: Vec<String> = Vec::new();
        let mut name_value = |v: f64, s: &str| {
            if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 1e6 {
                let i = v as usize;
                if states.len() <= i {
                    states.resize(i + 1, String::new());
                }
                states[i] = s.to_string();
            }
        };
        for c in &own {
            let after = self.t.partition_point(|&t| t < c.t);
            if let Some(before) = after.checked_sub(1)
                && !own.iter().any(|o| self.t[before] < o.t && o.t < c.t)
            {
                name_value(values[before], &c.from);
            }
            if after < self.t.len() && !between(c.t, self.t[after]) {
                name_value(values[after], &c.to);
            }
        }
        states
    }
}

fn is_bit(s: &str) -> bool {
    s == "0" || s == "1"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(t: f64, name: &str, from: &str, to: &str) -> Change {
        Change {
            t,
            name: name.into(),
            from: from.into(),
            to: to.into(),
        }
    }

    fn light() -> Trace {
        let mut trace = Trace::new(
            "light".into(),
            vec!["x".into(), "light".into(), "go".into()],
            vec![false, false, true],
        );
        for (i, (light, go)) in [(0., 0.), (0., 0.), (1., 1.), (1., 1.), (2., 0.), (0., 0.)]
            .into_iter()
            .enumerate()
        {
            trace.push(i as f64, [i as f64 * 0.5, light, go]);
        }
        trace
    }

    #[test]
    fn marks_the_plotted_changes_and_names_the_states() {
        let mut trace = light();
        let log = [
            change(2.0, "go", "0", "1"),
            change(2.0, "light", "red", "green"),
            change(4.0, "go", "1", "0"),
            change(4.0, "light", "green", "yellow"),
            change(5.0, "light", "yellow", "red"),
            change(5.0, "pump", "", "reset"),
            change(9.0, "light", "red", "green"),
        ];
        trace.mark(&log, &[]);
        let marks: Vec<(usize, f64, &str)> = (trace.marks.iter())
            .map(|m| (m.column, m.t, m.to.as_str()))
            .collect();
        assert_eq!(
            marks,
            [
                (2, 2.0, "1"),
                (1, 2.0, "green"),
                (2, 4.0, "0"),
                (1, 4.0, "yellow"),
                (1, 5.0, "red")
            ]
        );
        assert_eq!(trace.logical, [false, true, true]);
        assert_eq!(trace.states[1], ["red", "green", "yellow"]);
        assert!(trace.states[2].is_empty());
    }

    #[test]
    fn a_thinned_trace_names_only_what_it_shows() {
        // Rows at 0 and 4 only: between them `light` changed at 2 and 4; the row at 4
        // shows yellow (the change at 4), the row at 0 red (before the change at 2).
        let mut trace = Trace::new("l".into(), vec!["light".into()], vec![false]);
        trace.push(0.0, [0.0]);
        trace.push(4.0, [2.0]);
        let log = [
            change(2.0, "light", "red", "green"),
            change(4.0, "light", "green", "yellow"),
        ];
        trace.mark(&log, &[]);
        assert_eq!(trace.states[0], ["red", "", "yellow"]);
        // Given states win.
        let mut trace = light();
        let states = [(
            "light".to_string(),
            vec!["R".into(), "G".into(), "Y".into()],
        )];
        trace.mark(&[], &states);
        assert_eq!(trace.states[1], ["R", "G", "Y"]);
        assert!(trace.logical[1] && trace.marks.is_empty());
    }
}
