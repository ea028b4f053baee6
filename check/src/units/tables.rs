//! Units on lookup tables: declared on the arguments and values (`table heat(T [degC]) [W] = …`)
//! or in the header of the table's CSV file (`T [degC], Q [W]`), checked where the table is read.
//!
//! A read `heat(x)` requires `x` in the unit of the table's argument and has the unit of its
//! values, so a table written in kelvins and read with Celsius temperatures, or written in
//! `kW` and assigned to a value in `W`, is an error (E0481/E0482) at the read. Units declared
//! both in the model and in the file must be the same unit.

use super::check::ModelCheck;
use super::report;
use super::solve::{Conflict, Origin, Term, same};
use super::{Unit, parse_unit};
use crate::Span;
use crate::ast::{Expr, TableDecl, UnitText};
use crate::diag::Diagnostic;
use crate::source::SourceMap;

/// A unit with where it was declared.
type Placed = (Unit, Origin);

/// The units of a table, where known.
#[derive(Clone, Debug)]
pub(super) struct TableUnits {
    /// The table's name.
    name: String,
    /// Each argument's name and unit.
    args: Vec<(String, Option<Placed>)>,
    /// The values' unit.
    value: Option<Placed>,
}

/// The units of table `t`, from its declaration and its file's header (`sources`, when
/// the files are at hand); E0480 for a unit that does not parse, E0481/E0482 for a file
/// that says another unit than the declaration. Units as written are pushed to `written`.
pub(super) fn table_units(
    t: &TableDecl,
    sources: Option<&SourceMap>,
    written: &mut Vec<(Unit, String)>,
    errors: &mut Vec<Diagnostic>,
) -> TableUnits {
    let name = &t.name.text;
    let arg_what = |k: usize| format!("the argument `{}` of table `{name}`", t.args[k].text);
    let value_what = format!("the values of table `{name}`");
    // From the file's header: in 1-D the first cell's `[unit]` is the argument's and the
    // second's the values'; in 2-D the corner cell's brackets are, in order, the first
    // argument's, the second's and the values'.
    let header = sources.and_then(|s| Some((s, crate::check::file_header(t, s)?)));
    let mut in_file: Vec<Option<UnitText>> = vec![None; t.args.len() + 1];
    if let Some((s, cells)) = header {
        if t.args.len() == 1 {
            for (k, c) in cells.iter().take(2).enumerate() {
                in_file[k] = brackets(s, c.1).into_iter().next();
            }
        } else if let Some(c) = cells.first() {
            for (k, u) in brackets(s, c.1).into_iter().take(3).enumerate() {
                in_file[k] = Some(u);
            }
        }
    }
    // `are` for the values, `is` for an argument.
    let mut placed =
        |declared: Option<&UnitText>, file: Option<UnitText>, what: &str, are: bool| {
            let verb = if are { "are" } else { "is" };
            let mut parse = |u: &UnitText, whence: &str| match parse_unit(&u.text) {
                Ok(p) => {
                    let shown = u.text.trim().to_string();
                    written.push((p, shown.clone()));
                    Some((
                        p,
                        Origin {
                            span: u.span,
                            label: format!("{what} {verb} {whence} `{shown}` here"),
                        },
                    ))
                }
                Err(e) => {
                    errors.push(report::not_a_unit(u, e, what));
                    None
                }
            };
            let d = declared.and_then(|u| parse(u, "declared"));
            let f = file.as_ref().and_then(|u| parse(u, "written"));
            match (d, f) {
                (Some(d), Some(f)) if !(same(&d.0, &f.0) && d.0.dim == f.0.dim) => {
                    let at = f.1.span;
                    let c = Conflict {
                        found: f.0,
                        expected: d.0,
                        found_origin: None,
                        expected_origin: Some(d.1.clone()),
                    };
                    errors.push(report::conflict(
                        c,
                        at,
                        &format!("{what} in its file against its declaration"),
                        written,
                        Vec::new(),
                    ));
                    Some(d)
                }
                (Some(d), _) => Some(d),
                (None, f) => f,
            }
        };
    let args = (0..t.args.len())
        .map(|k| {
            let declared = t.arg_units.get(k).and_then(Option::as_ref);
            let u = placed(declared, in_file[k].take(), &arg_what(k), false);
            (t.args[k].text.clone(), u)
        })
        .collect();
    let value = placed(
        t.unit.as_ref(),
        in_file[t.args.len()].take(),
        &value_what,
        true,
    );
    TableUnits {
        name: name.clone(),
        args,
        value,
    }
}

/// The `[unit]`s written in the header cell at `cell` (a span of a file of `s`), in order.
fn brackets(s: &SourceMap, cell: Span) -> Vec<UnitText> {
    let raw = s.text(cell);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = raw[from..].find('[').map(|i| from + i) {
        let Some(close) = raw[open..].find(']').map(|i| open + i) else {
            break;
        };
        let start = cell.start + open + 1;
        out.push(UnitText {
            text: raw[open + 1..close].to_string(),
            span: Span::new(cell.file, start, cell.start + close),
            pieces: vec![(0, start)],
        });
        from = close + 1;
    }
    out
}

impl ModelCheck<'_> {
    /// A read of table `i` with arguments `args` (of units `ts`): each argument in the
    /// unit of the table's, the read in the unit of its values (unknown if not declared).
    pub(super) fn table_read(&mut self, i: usize, ts: &[Term], args: &[Expr]) -> Term {
        let t = self.tables[i].clone();
        for ((name, unit), (a, ta)) in t.args.iter().zip(args.iter().zip(ts)) {
            if let Some((u, o)) = unit {
                let what = format!("the argument `{name}` of table `{}`", t.name);
                self.require(ta, &Term::Known(*u, Some(o.clone()), true), a.span, &what);
            }
        }
        match t.value {
            Some((u, o)) => Term::Known(u, Some(o), true),
            None => Term::Free,
        }
    }
}
