//! Lookup table declarations to [`LookupTable`]s: inline numbers or a CSV file (already read by the loader), checked (E0400–E0411).
//!
//! A CSV table file is plain text: cells separated by `,` (spaces around them
//! ignored), a cell may be quoted (`"1.5"`, the quote first in the cell); blank lines
//! and lines starting with `#` are skipped. Its first
//! line is a header. In 1-D the header's cells are ignored (names, say `speed,gain`)
//! and every further line is `x,value`. In 2-D the header is a corner cell (ignored)
//! followed by the second argument's grid, and every further line is a point of the
//! first argument's grid followed by one value per point of the second grid.

use super::Stateful;
use super::resolve::{Ctx, Resolver};
use crate::ast::{self, ExprKind, NumList, TableData, TableDecl, Values};
use crate::diag::Diagnostic;
use crate::ir::{Beyond, Expr, Func, LookupTable, Ty};
use crate::source::{SourceMap, Span};
use crate::suggest::did_you_mean;
use std::path::PathBuf;
use std::sync::Arc;

impl Resolver<'_> {
    /// `name(args)` where `name` is a table of this model (`None`: declared with errors,
    /// already reported): E0410 for the wrong number of arguments.
    pub(super) fn table_call(
        &mut self,
        t: Option<Arc<LookupTable>>,
        span: Span,
        args: &[ast::Expr],
        ctx: Ctx,
    ) -> (Expr, Ty) {
        let xs: Vec<Expr> = args.iter().map(|a| self.expr(a, Ty::Real, ctx)).collect();
        let Some(t) = t else {
            return (Expr::Num(0.0), Ty::Real);
        };
        if xs.len() != t.grids.len() {
            let n = t.grids.len();
            self.err(
                Diagnostic::error(
                    "E0410",
                    span,
                    format!(
                        "table `{}` takes {n} argument{}, but {} {} given",
                        t.name,
                        plural(n),
                        xs.len(),
                        if xs.len() == 1 { "was" } else { "were" }
                    ),
                )
                .with_label("wrong number of arguments")
                .with_related(t.span, format!("a {n}-D table, declared here")),
            );
            return (Expr::Num(0.0), Ty::Real);
        }
        (Expr::Table(t, xs), Ty::Real)
    }
}

/// A number with where it is written.
type Num = (f64, Span);

/// The checked table of `d`, or `None` after reporting why not.
pub(super) fn build(
    d: &TableDecl,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<LookupTable> {
    let errors = diags.len();
    let name = d.name.text.as_str();
    if Func::from_name(name).is_some() || Stateful::from_name(name).is_some() {
        diags.push(
            Diagnostic::error(
                "E0411",
                d.name.span,
                format!(
                    "a table cannot be named `{name}`: it is a procedure of the runtime library"
                ),
            )
            .with_label("the name of a procedure")
            .with_help(format!("choose another name, such as `{name}_table`")),
        );
    }
    let beyond = beyond(d, diags);
    if d.args.len() > 2 {
        diags.push(
            Diagnostic::error(
                "E0401",
                d.args[2].span,
                format!(
                    "table `{}` has {} arguments; tables have one or two",
                    d.name.text,
                    d.args.len()
                ),
            )
            .with_label("a third argument")
            .with_note("a 1-D table is `table f(x) = …`, a 2-D table `table f(x, y) = …`"),
        );
        return None;
    }
    let (grids, values, file) = match &d.data {
        TableData::Inline { grids, values } => {
            let (g, v) = inline(d, grids, values, diags)?;
            (g, v, None)
        }
        TableData::File { path, span } => {
            let dir = sources.file(span.file).path.parent().map(PathBuf::from);
            let target = dir.unwrap_or_default().join(path);
            // Not loaded: the loader reported it could not read the file (E0407).
            let id = sources.find(&target)?;
            let (g, v) = csv(d, *span, id, sources, diags)?;
            (g, v, Some(target))
        }
    };
    let grids: Vec<Vec<f64>> = grids
        .iter()
        .zip(&d.args)
        .map(|(g, arg)| grid(d, g, arg, diags))
        .collect();
    if diags.len() > errors {
        return None;
    }
    Some(LookupTable {
        name: d.name.text.clone(),
        span: d.name.span,
        args: d.args.iter().map(|a| a.text.clone()).collect(),
        grids,
        values: values.iter().map(|v| v.0).collect(),
        beyond: beyond?,
        file,
    })
}

/// E0400: the rule beyond the grid, required.
fn beyond(d: &TableDecl, diags: &mut Vec<Diagnostic>) -> Option<Beyond> {
    let Some(w) = &d.beyond else {
        diags.push(
            Diagnostic::error(
                "E0400",
                d.name.span,
                format!(
                    "table `{}` does not say what it gives beyond its grid",
                    d.name.text
                ),
            )
            .with_label("no `clamp` or `extrapolate`")
            .with_help("end the declaration with `clamp` (hold the end values) or `extrapolate` (continue the end segments), before `;`"),
        );
        return None;
    };
    match w.text.as_str() {
        "clamp" => Some(Beyond::Clamp),
        "extrapolate" => Some(Beyond::Extrapolate),
        _ => {
            let mut e = Diagnostic::error(
                "E0400",
                w.span,
                format!("unknown rule beyond the grid `{}`", w.text),
            )
            .with_label("expected `clamp` or `extrapolate`");
            if let Some(s) = did_you_mean(&w.text, ["clamp", "extrapolate"]) {
                e = e.with_help(format!("did you mean `{s}`?"));
            }
            diags.push(e);
            None
        }
    }
}

/// The numbers of an inline table: the grids, and the values in row-major order.
fn inline(
    d: &TableDecl,
    grids: &[NumList],
    values: &Values,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<Vec<Num>>, Vec<Num>)> {
    let errors = diags.len();
    if grids.len() != d.args.len() {
        let at = grids.get(d.args.len()).map_or(d.name.span, |g| g.span);
        diags.push(
            Diagnostic::error(
                "E0405",
                at,
                format!(
                    "table `{}` has {} argument{} but {} grid{}",
                    d.name.text,
                    d.args.len(),
                    plural(d.args.len()),
                    grids.len(),
                    plural(grids.len())
                ),
            )
            .with_label("one grid `[…]` per argument, separated by `,`"),
        );
        return None;
    }
    let g: Vec<Vec<Num>> = grids.iter().map(|l| numbers(l, diags)).collect();
    let v: Vec<Num> = match (values, d.args.len()) {
        (Values::Flat(l), 1) => {
            let v = numbers(l, diags);
            if v.len() != g[0].len() && diags.len() == errors {
                diags.push(count(d, l.span, "values", v.len(), g[0].len(), &d.args[0]));
            }
            v
        }
        (Values::Rows(rows, span), 2) => {
            if rows.len() != g[0].len() {
                diags.push(count(d, *span, "rows", rows.len(), g[0].len(), &d.args[0]));
            }
            let mut v = Vec::new();
            for r in rows {
                let row = numbers(r, diags);
                if row.len() != g[1].len() {
                    diags.push(ragged(d, r.span, row.len(), g[1].len(), &d.args[1]));
                }
                v.extend(row);
            }
            v
        }
        (Values::Flat(l), _) => {
            diags.push(
                Diagnostic::error(
                    "E0405",
                    l.span,
                    format!("the 2-D table `{}` needs its values as rows", d.name.text),
                )
                .with_label("a flat list")
                .with_help(format!(
                    "write one row `[…]` per point of `{}`'s grid, inside `[…]`: `[[…], […]]`",
                    d.args[0].text
                )),
            );
            return None;
        }
        (Values::Rows(_, span), _) => {
            diags.push(
                Diagnostic::error(
                    "E0405",
                    *span,
                    format!(
                        "the 1-D table `{}` takes a flat list of values",
                        d.name.text
                    ),
                )
                .with_label("rows given")
                .with_help("write the values as `[v0, v1, …]`, one per grid point"),
            );
            return None;
        }
    };
    (diags.len() == errors).then_some((g, v))
}

/// The items of a list as numbers (E0402 for anything else).
fn numbers(l: &NumList, diags: &mut Vec<Diagnostic>) -> Vec<Num> {
    let mut out = Vec::new();
    for e in &l.items {
        let x = match &e.kind {
            ExprKind::Num(x) => Some(*x),
            ExprKind::Neg(a) => match a.kind {
                ExprKind::Num(x) => Some(-x),
                _ => None,
            },
            _ => None,
        };
        match x {
            Some(x) if x.is_finite() => out.push((x, e.span)),
            Some(_) => diags.push(not_finite(e.span)),
            None => diags.push(
                Diagnostic::error("E0402", e.span, "table data must be numbers")
                    .with_label("not a number literal")
                    .with_note("tables are constant: write each grid point and value as a number, such as `-1.5` or `2e3`"),
            ),
        }
    }
    out
}

/// E0409: a number that is not finite.
fn not_finite(span: Span) -> Diagnostic {
    Diagnostic::error("E0409", span, "a table's numbers must be finite")
        .with_label("NaN or infinite")
        .with_help("give a finite number; a table cannot interpolate through NaN or infinity")
}

/// E0405: the wrong number of values or rows for a grid.
fn count(
    d: &TableDecl,
    at: Span,
    what: &str,
    n: usize,
    want: usize,
    arg: &ast::Name,
) -> Diagnostic {
    Diagnostic::error(
        "E0405",
        at,
        format!(
            "table `{}` has {n} {what} but the grid of `{}` has {want} points",
            d.name.text, arg.text
        ),
    )
    .with_label(format!("{n} {what}"))
    .with_help(format!(
        "give one {} per grid point",
        &what[..what.len() - 1]
    ))
}

/// E0406: a row of a 2-D table whose length is not the second grid's.
fn ragged(d: &TableDecl, at: Span, n: usize, want: usize, arg: &ast::Name) -> Diagnostic {
    Diagnostic::error(
        "E0406",
        at,
        format!(
            "a row of table `{}` has {n} value{} but the grid of `{}` has {want} points",
            d.name.text,
            plural(n),
            arg.text
        ),
    )
    .with_label("ragged row")
    .with_help(format!(
        "every row has one value per point of `{}`",
        arg.text
    ))
}

/// A grid checked: at least two points (E0403), strictly increasing (E0404).
fn grid(d: &TableDecl, g: &[Num], arg: &ast::Name, diags: &mut Vec<Diagnostic>) -> Vec<f64> {
    if g.len() < 2 {
        let at = g.first().map_or(d.name.span, |p| p.1);
        diags.push(
            Diagnostic::error(
                "E0403",
                at,
                format!(
                    "the grid of `{}` in table `{}` has {} point{}; it needs at least 2",
                    arg.text,
                    d.name.text,
                    g.len(),
                    plural(g.len())
                ),
            )
            .with_label("too few points")
            .with_note("interpolation needs a segment: two points or more"),
        );
    }
    for w in g.windows(2) {
        if w[1].0 <= w[0].0 {
            let what = if w[1].0 == w[0].0 {
                "repeats"
            } else {
                "is below"
            };
            diags.push(
                Diagnostic::error(
                    "E0404",
                    w[1].1,
                    format!(
                        "the grid of `{}` in table `{}` is not strictly increasing",
                        arg.text, d.name.text
                    ),
                )
                .with_label(format!("{} {what} the point before", w[1].0))
                .with_related(w[0].1, "previous point")
                .with_help("sort the grid points in increasing order, each once"),
            );
            break;
        }
    }
    g.iter().map(|p| p.0).collect()
}

/// A cell of a CSV file: its text (quotes removed, spaces around it trimmed) and where
/// it is written (the quotes included).
type Cell = (String, Span);

/// The records of a CSV file's `text` (source `file`), each a list of cells, read by
/// `csv_core` (the `csv` crate's parser: quoted cells, `""` escapes, `\n`, `\r\n` or
/// `\r` line ends, `#` comment lines). Blank lines and lines whose first non-blank
/// character is `#` are left out.
///
/// Spans come from the bytes `csv_core` consumes for each field; the `csv` crate's own
/// `Position` cannot serve, as it counts the line end, blank and comment lines before
/// a record as part of it.
fn records(text: &str, file: usize) -> Vec<Vec<Cell>> {
    let mut reader = csv_core::ReaderBuilder::new().comment(Some(b'#')).build();
    let bytes = text.as_bytes();
    let (mut out, mut record, mut field) = (Vec::new(), Vec::new(), Vec::new());
    let mut buf = [0u8; 256];
    // `at`: where the field being read starts in `text`; `pos`: how far the reader is.
    let (mut at, mut pos) = (0, 0);
    // Whether the record has a cell with something in it (or quoted).
    let mut written = false;
    loop {
        let (res, nin, nout) = reader.read_field(&bytes[pos..], &mut buf);
        field.extend_from_slice(&buf[..nout]);
        pos += nin;
        let record_end = match res {
            csv_core::ReadFieldResult::InputEmpty | csv_core::ReadFieldResult::OutputFull => {
                continue;
            }
            csv_core::ReadFieldResult::Field { record_end } => record_end,
            csv_core::ReadFieldResult::End => break,
        };
        let (start, end) = written_part(text, at, pos, record.is_empty());
        written |= end > start;
        let value = String::from_utf8_lossy(&field).trim().to_string();
        // An empty cell points at the `,` or line end after it (none at the file's end).
        let end = end.max(start + 1).min(text.len());
        record.push((value, Span::new(file, start, end)));
        field.clear();
        at = pos;
        if record_end {
            let first = &text[record[0].1.start..];
            // A blank line is one empty cell; a line of `,` is not blank.
            if (written || record.len() > 1) && !first.starts_with('#') {
                out.push(std::mem::take(&mut record));
            }
            record.clear();
            written = false;
        }
    }
    out
}

/// The bounds in `text` of the cell read from `at` to `pos`: without the `,` or line end
/// that closed it, the spaces around it, and (before the first cell of a record, `first`)
/// the byte order mark, line ends and comment lines the reader skipped.
fn written_part(text: &str, at: usize, pos: usize, first: bool) -> (usize, usize) {
    let (mut start, mut end) = (at, pos);
    if text[start..end].ends_with([',', '\n', '\r']) {
        end -= 1;
    }
    if first {
        // What the reader skips before a record belongs to no cell.
        loop {
            let rest = text[start..end].trim_start_matches(['\u{feff}', '\n', '\r']);
            start = end - rest.len();
            if !rest.starts_with('#') {
                break;
            }
            start = rest.find('\n').map_or(end, |i| start + i + 1);
        }
    }
    let raw = &text[start..end];
    let start = start + (raw.len() - raw.trim_start().len());
    (start, start + raw.trim().len())
}

/// A cell as a number: E0408 if it is not one, E0409 if it is NaN or infinite.
fn cell(c: &Cell, diags: &mut Vec<Diagnostic>) -> Option<Num> {
    match c.0.parse::<f64>() {
        Ok(x) if x.is_finite() => Some((x, c.1)),
        Ok(_) => {
            diags.push(not_finite(c.1));
            None
        }
        Err(_) => {
            let what = if c.0.is_empty() {
                "an empty cell".to_string()
            } else {
                format!("`{}`", c.0)
            };
            let mut e = Diagnostic::error("E0408", c.1, format!("{what} is not a number"))
                .with_label("expected a number")
                .with_note("a table file has one header line, then numbers only, separated by `,`");
            // Quotes after a space are text, as in every CSV reader.
            if c.0.len() > 1 && c.0.starts_with('"') && c.0.ends_with('"') {
                e = e.with_help("a quoted cell starts with its quote: remove the spaces before it");
            }
            diags.push(e);
            None
        }
    }
}

/// The header cells of the CSV file of table `d` (as read: trimmed, with their spans in
/// the file), when it reads a file the loader read: where the unit check finds the
/// `[unit]`s a header may carry (issue 30).
pub(crate) fn file_header(d: &TableDecl, sources: &SourceMap) -> Option<Vec<(String, Span)>> {
    let TableData::File { path, span } = &d.data else {
        return None;
    };
    let dir = sources.file(span.file).path.parent().map(PathBuf::from);
    let id = sources.find(&dir.unwrap_or_default().join(path))?;
    records(&sources.file(id).text, id).into_iter().next()
}

/// The grids and values of a table's CSV file (source `id`), read by the loader.
fn csv(
    d: &TableDecl,
    lit: Span,
    id: usize,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<Vec<Num>>, Vec<Num>)> {
    let errors = diags.len();
    let lines = records(&sources.file(id).text, id);
    let Some((header, rows)) = lines.split_first() else {
        diags.push(
            Diagnostic::error(
                "E0403",
                lit,
                format!("the table file of `{}` holds no data", d.name.text),
            )
            .with_label("empty file")
            .with_note("a table file has one header line, then one line per grid point"),
        );
        return None;
    };
    let mut g1 = Vec::new();
    let mut values = Vec::new();
    let width = if d.args.len() == 1 { 2 } else { header.len() };
    let mut g2 = Vec::new();
    if d.args.len() == 2 {
        g2 = header[1..].iter().filter_map(|c| cell(c, diags)).collect();
    }
    for r in rows {
        if r.len() != width {
            let (n, want) = (r.len() - 1, width - 1);
            let span = r[0].1.to(r[r.len() - 1].1);
            let e = if d.args.len() == 1 {
                Diagnostic::error(
                    "E0406",
                    span,
                    format!(
                        "a line of the 1-D table file of `{}` has {} cells",
                        d.name.text,
                        r.len()
                    ),
                )
                .with_label("expected 2: the grid point and its value")
            } else {
                ragged(d, span, n, want, &d.args[1]).with_note(
                    "each line is a point of the first grid, then one value per point of the header's grid",
                )
            };
            diags.push(e);
            continue;
        }
        if let Some(x) = cell(&r[0], diags) {
            g1.push(x);
        }
        values.extend(r[1..].iter().filter_map(|c| cell(c, diags)));
    }
    if diags.len() > errors {
        for e in &mut diags[errors..] {
            *e = e
                .clone()
                .with_related(lit, format!("the data of table `{}`", d.name.text));
        }
        return None;
    }
    let mut grids = vec![g1];
    if d.args.len() == 2 {
        grids.push(g2);
    }
    Some((grids, values))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Decl;

    /// The table `t` of a model reading `t.csv`, whose text is `csv`: the table, or the
    /// diagnostics with the text each one's span covers.
    fn read(args: &str, csv: &str) -> Result<LookupTable, Vec<(&'static str, String, String)>> {
        let sit = format!("model M {{\n    table t({args}) from \"t.csv\" clamp;\n}}\n");
        let mut sources = SourceMap::default();
        let file = sources.add("m.sit", sit.as_str());
        sources.add("t.csv", csv);
        let parsed = crate::parse::parse_file(file, &sit).expect("the model parses");
        let d = parsed.models[0]
            .decls
            .iter()
            .find_map(|d| match d {
                Decl::Table(t) => Some(t),
                _ => None,
            })
            .expect("a table");
        let mut diags = Vec::new();
        build(d, &sources, &mut diags).ok_or_else(|| {
            diags
                .iter()
                .map(|e| (e.code, e.message.clone(), sources.text(e.span).to_string()))
                .collect()
        })
    }

    #[test]
    fn quoted_cells_read_as_numbers() {
        let t = read("x", "\"x\",\"gain\"\n0,\"0\"\n\"1\",  10 \n2,\"1.5e1\"\n").unwrap();
        assert_eq!(t.grids, [[0.0, 1.0, 2.0]]);
        assert_eq!(t.values, [0.0, 10.0, 15.0]);
        let t = read("x, y", "corner,\"0\",\"0.5\"\n\"0\",1,2\n1,\"3\",4\n").unwrap();
        assert_eq!(t.grids, [vec![0.0, 1.0], vec![0.0, 0.5]]);
        assert_eq!(t.values, [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn a_quote_after_a_space_is_text_with_a_help() {
        let csv = "x,gain\n0, \"1\"\n1,2\n";
        let mut sources = SourceMap::default();
        let id = sources.add("t.csv", csv);
        let mut diags = Vec::new();
        let cells = records(csv, id);
        assert_eq!(cell(&cells[1][1], &mut diags), None);
        assert_eq!(sources.text(diags[0].span), "\"1\"");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("a quoted cell starts with its quote: remove the spaces before it")
        );
    }

    #[test]
    fn a_quoted_cell_that_is_not_a_number_is_pointed_at_with_its_quotes() {
        let e = read("x", "x,gain\n0,0\n1,\"1,5\"\n").unwrap_err();
        assert_eq!(
            e,
            [("E0408", "`1,5` is not a number".into(), "\"1,5\"".into())]
        );
    }

    #[test]
    fn crlf_line_ends_blank_and_comment_lines_keep_exact_spans() {
        let csv = "# gains\r\nx,gain\r\n\r\n0,0\r\n  # indented\r\n   \r\n1, ten \r\n2,NaN\r\n";
        let e = read("x", csv).unwrap_err();
        assert_eq!(
            e,
            [
                ("E0408", "`ten` is not a number".into(), "ten".into()),
                (
                    "E0409",
                    "a table's numbers must be finite".into(),
                    "NaN".into()
                ),
            ]
        );
        let t = read("x", "\u{feff}x,gain\r\n0,0\r\n1,10\r\n2,15").unwrap();
        assert_eq!(t.grids, [[0.0, 1.0, 2.0]]);
        assert_eq!(t.values, [0.0, 10.0, 15.0]);
    }

    proptest::proptest! {
        /// Any text of CSV's special characters: no panic, and every diagnostic's span
        /// inside its file, on character boundaries.
        #[test]
        fn any_file_reads_or_is_located(text in "[01.,\"\n\r #xé-]{0,40}") {
            for args in ["x", "x, y"] {
                let sit = format!("model M {{ table t({args}) from \"t.csv\" clamp; }}");
                let mut sources = SourceMap::default();
                let file = sources.add("m.sit", sit.as_str());
                sources.add("t.csv", text.as_str());
                let parsed = crate::parse::parse_file(file, &sit).unwrap();
                let Decl::Table(d) = &parsed.models[0].decls[0] else { panic!() };
                let mut diags = Vec::new();
                let _ = build(d, &sources, &mut diags);
                for e in &diags {
                    let f = &sources.file(e.span.file).text;
                    proptest::prop_assert!(e.span.start <= e.span.end && e.span.end <= f.len());
                    proptest::prop_assert!(f.is_char_boundary(e.span.start) && f.is_char_boundary(e.span.end));
                }
                let _ = crate::Report::new(diags, sources).render();
            }
        }
    }

    #[test]
    fn an_empty_cell_at_the_end_of_the_file_is_located() {
        let e = read("x", "x,gain\n0,0\n1,").unwrap_err();
        assert_eq!(
            e,
            [("E0408", "an empty cell is not a number".into(), "".into())]
        );
    }

    #[test]
    fn an_empty_cell_and_a_ragged_line_are_located() {
        let e = read("x, y", "c,0,1\n0,1,2\n1,,3\n2,5\n , \n").unwrap_err();
        assert_eq!(e[0].0, "E0408");
        assert_eq!(e[0].1, "an empty cell is not a number");
        assert_eq!(e[0].2, ",", "an empty cell points at the `,` after it");
        assert_eq!(e[1].0, "E0406");
        assert_eq!(e[1].2, "2,5");
        assert_eq!(e[2].0, "E0406", "a line of `,` is not blank: {e:?}");
        assert_eq!(e.len(), 3);
    }
}
