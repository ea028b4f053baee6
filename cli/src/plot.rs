//! `sitc plot` and `sitc run --plot`: recorded variables against time as an SVG figure.
//!
//! Real variables share a panel when their magnitudes are within a factor of 10 of each
//! other (so a 400 cm height and a 0.5 cm deflection get panels of their own), logical
//! variables get a small step-line panel each, under the real ones. Long traces are
//! thinned to the minimum and maximum of each of about 1,500 buckets per series, which
//! keeps every peak. A mode gets a strip too, its levels named by its states (read back
//! from the names a trace writes). The changes of an event log (`--events`) are marked
//! on the strips of the logical variables. The SVG backend of plotters writes text as
//! `<text>` elements, so no font or system library is needed.

use crate::marks::Mark;
use plotters::coord::Shift;
use plotters::prelude::*;
use sit_middle::suggest::did_you_mean;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Width of the figure, pixels.
const WIDTH: u32 = 1000;
/// Height of a panel of real variables.
const REAL_HEIGHT: u32 = 300;
/// Height of a panel of one logical variable.
const LOGICAL_HEIGHT: u32 = 90;
/// Height of the title.
const TITLE_HEIGHT: u32 = 40;
/// Points kept per series: twice this many buckets' minima and maxima.
const BUCKETS: usize = 1500;
/// Real variables share a panel when their magnitudes are within this factor.
const SCALE_FACTOR: f64 = 10.0;
/// The colour of the marks of an event log's changes.
const MARK: RGBColor = RGBColor(64, 64, 64);
/// The label of the time axis: the language's time is in seconds (`time`, `dt`).
const TIME: &str = "time [s]";
/// A strip labels its marks with their values when it has at most this many.
const MARK_LABELS: usize = 40;
/// Tableau 10: distinct colours that survive printing in grey.
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Draw a CSV trace written by `sitc run` as an SVG figure (exit 0; 2: usage or I/O).
#[derive(clap::Args)]
pub struct PlotArgs {
    /// A CSV trace written by `sitc run` (header `t,<names>`; a name may be followed by
    /// its unit, `h [m]`, as `sitc run --units` writes it).
    pub trace: PathBuf,
    /// The SVG file to write (default: the trace's path with the extension `.svg`; `-`:
    /// standard output).
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: Option<PathBuf>,
    /// The variables to draw, comma-separated (default: every column).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub vars: Vec<String>,
    /// The figure's title (default: the trace's file name).
    #[arg(long)]
    pub title: Option<String>,
    /// An event log written by `sitc run --events`: each change of a plotted variable
    /// is marked on its strip at its time, with its new value (a mode's column is drawn
    /// as a strip named by its states).
    #[arg(long, value_name = "LOG.csv")]
    pub events: Option<PathBuf>,
    /// The `.sit` file the trace was written from: a variable whose row value is as of
    /// the step's start is drawn at that time and named `x (t−dt)` (see `sitc info`,
    /// column `row`), and a column without a unit in the header is labelled with the
    /// model's (declared or inferred); `sitc run --plot` does both without this.
    #[arg(long, value_name = "FILE.sit")]
    pub source: Option<PathBuf>,
    /// With --source: the root model (default: as `sitc run` chooses it).
    #[arg(long, value_name = "NAME", requires = "source")]
    pub model: Option<String>,
}

/// Recorded values over time: one column per variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The figure's title.
    pub title: String,
    /// Variable names.
    pub names: Vec<String>,
    /// Each variable's unit, where known (`m/s`), parallel to `names`.
    pub units: Vec<Option<String>>,
    /// Whether each variable is logical (0/1).
    pub logical: Vec<bool>,
    /// The times of the rows.
    pub t: Vec<f64>,
    /// One column of values per variable, as long as `t`.
    pub columns: Vec<Vec<f64>>,
    /// The names of each column's values, by value (a mode's states; empty: none).
    pub states: Vec<Vec<String>>,
    /// The changes marked on the strips (see [`Trace::mark`]).
    pub marks: Vec<Mark>,
    /// What each variable's row value is as of, by name, where the model is known
    /// (`crate::rowtime`: `t`, `t-dt`, `earlier`, `mixed`, `held`); see
    /// [`Trace::row_times`].
    pub rows: std::collections::BTreeMap<String, &'static str>,
}

impl Trace {
    /// An empty trace of these variables.
    pub fn new(title: String, names: Vec<String>, logical: Vec<bool>) -> Trace {
        let columns = vec![Vec::new(); names.len()];
        let states = vec![Vec::new(); names.len()];
        Trace {
            title,
            units: vec![None; names.len()],
            names,
            logical,
            t: Vec::new(),
            columns,
            states,
            marks: Vec::new(),
            rows: Default::default(),
        }
    }

    /// Labels the columns by what their row values are as of (`words` from
    /// `crate::rowtime::words`): a variable whose row value is the step's start's
    /// (`t-dt`) is drawn at that time, each row's value one row back (the first row's,
    /// the initial pass's, stays at its time), and named `x (t−dt)`; one of both times
    /// is named `x (t, t−dt)`, one of before the step's start `x (earlier)` and one that
    /// may be held from an earlier step `x (held)`, drawn where recorded (see docs/language.md, "What a row holds").
    pub fn row_times(&mut self, words: &std::collections::HashMap<String, &'static str>) {
        for name in &self.names {
            if let Some(&w) = words.get(name) {
                self.rows.insert(name.clone(), w);
            }
        }
    }

    /// Gives the columns their units, in column order (`None`: not known); a column
    /// that has one keeps it.
    pub fn set_units(&mut self, units: impl IntoIterator<Item = Option<String>>) {
        for (have, unit) in self.units.iter_mut().zip(units) {
            if have.is_none() {
                *have = unit;
            }
        }
    }

    /// The name of column `c` with its unit, where known, and what its row values are as
    /// of, where not the row's time: `h [m]`, `p [W] (t−dt)`.
    fn label(&self, c: usize) -> String {
        let name = &self.names[c];
        let unit = self.units.get(c).and_then(Option::as_deref);
        let named = sit_middle::units::labelled(name, unit);
        match self.rows.get(name).copied() {
            Some("t-dt") => format!("{named} (t−dt)"),
            Some("mixed") => format!("{named} (t, t−dt)"),
            Some("held") => format!("{named} (held)"),
            Some("earlier") => format!("{named} (earlier)"),
            _ => named,
        }
    }

    /// The times at which column `c`'s values are drawn: the rows' times, or for a
    /// value of the step's start, the time of the row before (see [`Trace::row_times`]).
    fn times(&self, c: usize) -> std::borrow::Cow<'_, [f64]> {
        if self.rows.get(&self.names[c]).copied() != Some("t-dt") {
            return std::borrow::Cow::Borrowed(&self.t);
        }
        let back = self
            .t
            .first()
            .into_iter()
            .chain(&self.t[..self.t.len().saturating_sub(1)]);
        std::borrow::Cow::Owned(back.copied().collect())
    }

    /// Names the levels of the recorded modes by their states: the columns of the
    /// variables `record` of `model` that are modes become strips with the states'
    /// names, in declaration order.
    pub fn name_modes(&mut self, model: &dyn sit_runtime::Model, record: &[usize]) {
        for (column, &index) in record.iter().enumerate() {
            let states: Vec<String> = (0..)
                .map_while(|k| model.mode_state(index, k))
                .map(str::to_string)
                .collect();
            if !states.is_empty() && column < self.states.len() {
                self.states[column] = states;
                self.logical[column] = true;
            }
        }
    }

    /// Appends a row.
    pub fn push(&mut self, t: f64, values: impl IntoIterator<Item = f64>) {
        self.t.push(t);
        for (column, v) in self.columns.iter_mut().zip(values) {
            column.push(v);
        }
    }

    /// Keeps only the variables called `names`, in that order (error: an unknown name,
    /// with a suggestion).
    pub fn select(mut self, names: &[String]) -> Result<Trace, String> {
        let mut keep = Vec::with_capacity(names.len());
        for name in names {
            match self.names.iter().position(|n| n == name) {
                Some(i) => keep.push(i),
                None => {
                    let hint = did_you_mean(name, self.names.iter().map(String::as_str))
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    return Err(format!("--vars: the trace has no column `{name}`{hint}"));
                }
            }
        }
        self.names = keep.iter().map(|&i| self.names[i].clone()).collect();
        self.units = keep.iter().map(|&i| self.units[i].clone()).collect();
        self.logical = keep.iter().map(|&i| self.logical[i]).collect();
        self.columns = keep
            .iter()
            .map(|&i| std::mem::take(&mut self.columns[i]))
            .collect();
        self.states = keep
            .iter()
            .map(|&i| std::mem::take(&mut self.states[i]))
            .collect();
        self.marks = std::mem::take(&mut self.marks)
            .into_iter()
            .filter_map(|m| {
                let column = keep.iter().position(|&i| i == m.column)?;
                Some(Mark { column, ..m })
            })
            .collect();
        Ok(self)
    }
}

/// `sitc plot`: exit 0, or 2 with a one-line message.
pub fn plot(args: PlotArgs) -> ExitCode {
    let result = read_csv(&args.trace).and_then(|mut trace| {
        if let Some(title) = args.title {
            trace.title = title;
        }
        let mut trace = if args.vars.is_empty() {
            trace
        } else {
            trace.select(&args.vars)?
        };
        if let Some(log) = &args.events {
            trace.mark(&crate::marks::read_log(log)?, &[]);
        }
        if let Some(source) = &args.source {
            let loaded = sit_host::load_file_with(source, args.model.as_deref(), None)
                .map_err(|e| e.to_string())?;
            let program = loaded.lowered.unrewritten();
            let words = crate::rowtime::words(program, loaded.root);
            trace.row_times(&words);
            let units = crate::units::by_name(program, loaded.root);
            let known: Vec<Option<String>> = (trace.names.iter())
                .map(|n| units.get(n).cloned())
                .collect();
            trace.set_units(known);
        }
        let out = args
            .output
            .unwrap_or_else(|| args.trace.with_extension("svg"));
        write_svg(&trace, &out)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Reads a CSV trace (as written by `sitc run`, with or without `--units`: a header's
/// `h [m]` is the column `h` in `m`). A column whose values are all 0 or 1,
/// both present, is taken as logical; a column of names (a mode's states, as `sitc run`
/// writes them) is drawn as a strip with a level per name, in the order the names
/// first appear.
pub fn read_csv(path: &Path) -> Result<Trace, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read `{}`: {}",
            path.display(),
            crate::params::io_reason(&e)
        )
    })?;
    let shown = path.display();
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = match lines.next() {
        Some((_, h)) => h.split(',').map(str::trim).collect(),
        None => return Err(format!("`{shown}` is empty")),
    };
    let header: Vec<(&str, Option<&str>)> = header.into_iter().map(with_unit).collect();
    if header.first().map(|h| h.0) != Some("t") {
        return Err(format!(
            "`{shown}` is not a trace: its first line must be `t,<names>`"
        ));
    }
    let names: Vec<String> = header[1..].iter().map(|s| s.0.to_string()).collect();
    let title = path
        .file_name()
        .map_or_else(|| shown.to_string(), |f| f.to_string_lossy().into_owned());
    let mut trace = Trace::new(title, names, Vec::new());
    trace.set_units(header[1..].iter().map(|h| h.1.map(str::to_string)));
    let mut row = Vec::with_capacity(header.len());
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        row.clear();
        for (column, field) in line.split(',').enumerate() {
            let field = field.trim();
            let value = match field.parse::<f64>() {
                Ok(v) => v,
                // A state's name, in a variable's column: its level on the strip.
                Err(_) if column > 0 && column <= trace.states.len() && is_name(field) => {
                    let states = &mut trace.states[column - 1];
                    let level = match states.iter().position(|s| s == field) {
                        Some(level) => level,
                        None => {
                            states.push(field.to_string());
                            states.len() - 1
                        }
                    };
                    level as f64
                }
                Err(_) => {
                    let what = if column == 0 {
                        "a time"
                    } else {
                        "a number or a state's name"
                    };
                    return Err(format!("{shown}:{}: `{field}` is not {what}", i + 1));
                }
            };
            row.push(value);
        }
        if row.len() != header.len() {
            return Err(format!(
                "{shown}:{}: expected {} values, found {}",
                i + 1,
                header.len(),
                row.len()
            ));
        }
        trace.push(row[0], row[1..].iter().copied());
    }
    trace.logical = (trace.columns.iter().zip(&trace.states))
        .map(|(c, states)| {
            !states.is_empty()
                || c.iter().all(|&v| v == 0.0 || v == 1.0) && c.contains(&0.0) && c.contains(&1.0)
        })
        .collect();
    Ok(trace)
}

/// A header's field as a name and its unit: `h [m]` is (`h`, `m`), `h` (`h`, none).
fn with_unit(field: &str) -> (&str, Option<&str>) {
    let unit = (field.strip_suffix(']'))
        .and_then(|f| f.split_once('['))
        .map(|(name, unit)| (name.trim_end(), unit.trim()));
    match unit {
        Some((name, unit)) if !name.is_empty() && !unit.is_empty() => (name, Some(unit)),
        _ => (field, None),
    }
}

/// Whether `field` can be a state's name: an identifier (a letter or `_`, then letters,
/// digits and `_`), not a number such as `inf` or `NaN` (which parse as numbers first).
fn is_name(field: &str) -> bool {
    let mut chars = field.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Draws `trace` into the SVG file `path` (`-`: standard output).
pub fn write_svg(trace: &Trace, path: &Path) -> Result<(), String> {
    let svg = render_svg(trace)?;
    if crate::out::is_stdout(path) {
        crate::out::print(svg);
        return Ok(());
    }
    std::fs::write(path, svg).map_err(|e| {
        format!(
            "cannot write `{}`: {}",
            path.display(),
            crate::params::io_reason(&e)
        )
    })
}

/// A panel of the figure.
#[derive(Debug, Clone, PartialEq)]
enum Panel {
    /// Real variables of similar magnitude (column indices).
    Real(Vec<usize>),
    /// One logical variable.
    Logical(usize),
}

/// Groups the variables into panels: real ones by magnitude, in order of appearance,
/// then one panel per logical variable.
fn panels(trace: &Trace) -> Vec<Panel> {
    // (columns, smallest and largest non-zero magnitude)
    let mut groups: Vec<(Vec<usize>, f64, f64)> = Vec::new();
    for (i, column) in trace.columns.iter().enumerate() {
        if trace.logical[i] {
            continue;
        }
        let m = column
            .iter()
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let fits = |g: &(Vec<usize>, f64, f64)| {
            m == 0.0 || g.2 == 0.0 || g.2.max(m) <= SCALE_FACTOR * g.1.min(m)
        };
        match groups.iter_mut().find(|g| fits(g)) {
            Some(g) => {
                g.0.push(i);
                if m > 0.0 {
                    g.1 = if g.1 == 0.0 { m } else { g.1.min(m) };
                    g.2 = g.2.max(m);
                }
            }
            None => groups.push((vec![i], m, m)),
        }
    }
    let logical = (0..trace.names.len()).filter(|&i| trace.logical[i]);
    groups
        .into_iter()
        .map(|g| Panel::Real(g.0))
        .chain(logical.map(Panel::Logical))
        .collect()
}

/// The SVG text of the figure of `trace`.
pub fn render_svg(trace: &Trace) -> Result<String, String> {
    let panels = panels(trace);
    let heights: Vec<u32> = panels
        .iter()
        .map(|p| match p {
            Panel::Real(_) => REAL_HEIGHT,
            // A mode's strip grows with its states.
            Panel::Logical(c) => {
                LOGICAL_HEIGHT + 20 * trace.states[*c].len().saturating_sub(2) as u32
            }
        })
        .collect();
    let height = TITLE_HEIGHT + heights.iter().sum::<u32>().max(REAL_HEIGHT);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let body = root.titled(&trace.title, ("sans-serif", 22)).map_err(err)?;
        let mut breaks = Vec::new();
        let mut y = 0;
        for h in &heights[..heights.len().saturating_sub(1)] {
            y += *h as i32;
            breaks.push(y);
        }
        let areas = body.split_by_breakpoints::<i32, i32, _, _>([], breaks);
        let (t0, t1) = time_range(&trace.t);
        let mut color = 0;
        for (k, (panel, area)) in panels.iter().zip(&areas).enumerate() {
            let last = k + 1 == panels.len();
            match panel {
                Panel::Real(cols) => {
                    draw_real(trace, cols, area, (t0, t1), last, &mut color).map_err(err)?
                }
                Panel::Logical(col) => {
                    let c = COLORS[color % COLORS.len()];
                    color += 1;
                    draw_logical(trace, *col, area, (t0, t1), last, c).map_err(err)?
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the plot: {e}")
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult<'a> =
    Result<(), DrawingAreaErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

/// A panel of real variables with a legend.
fn draw_real<'a>(
    trace: &Trace,
    cols: &[usize],
    area: &Area<'a>,
    (t0, t1): (f64, f64),
    last: bool,
    color: &mut usize,
) -> DrawResult<'a> {
    let (lo, hi) = value_range(cols.iter().flat_map(|&c| trace.columns[c].iter().copied()));
    let mut chart = ChartBuilder::on(area)
        .margin(6)
        .margin_right(24)
        .x_label_area_size(if last { 44 } else { 24 })
        .y_label_area_size(80)
        .build_cartesian_2d(t0..t1, lo..hi)?;
    let single = (cols.len() == 1).then(|| trace.label(cols[0]));
    chart
        .configure_mesh()
        .x_desc(if last { TIME } else { "" })
        .y_desc(single.as_deref().unwrap_or(""))
        .x_label_formatter(&|x| tick(snap(*x, t1 - t0)))
        .y_label_formatter(&|y| tick(snap(*y, hi - lo)))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(210, 210, 210))
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    for &c in cols {
        let rgb = COLORS[*color % COLORS.len()];
        *color += 1;
        let style = rgb.stroke_width(2);
        let points = thin(&trace.times(c), &trace.columns[c]);
        let mut runs = finite_runs(&points).peekable();
        // Always one series (even empty) to carry the legend entry.
        let first = runs.next().unwrap_or_default();
        chart
            .draw_series(LineSeries::new(first, style))?
            .label(trace.label(c))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
        for run in runs {
            chart.draw_series(LineSeries::new(run, style))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 14))
        .draw()
}

/// A small panel of one logical variable, drawn as a step line, with its changes'
/// marks: a line across the strip at each change, labelled with the new value.
fn draw_logical<'a>(
    trace: &Trace,
    col: usize,
    area: &Area<'a>,
    (t0, t1): (f64, f64),
    last: bool,
    rgb: RGBColor,
) -> DrawResult<'a> {
    let mut chart = ChartBuilder::on(area)
        .margin(6)
        .margin_right(24)
        .x_label_area_size(if last { 44 } else { 20 })
        .y_label_area_size(80)
        .build_cartesian_2d(t0..t1, strip_range(trace, col))?;
    let states = &trace.states[col];
    chart
        .configure_mesh()
        .x_desc(if last { TIME } else { "" })
        .y_desc(trace.label(col))
        .x_label_formatter(&|x| tick(*x))
        .y_labels(if states.is_empty() {
            3
        } else {
            2 * states.len() + 1
        })
        .y_label_formatter(&|y| level_name(states, *y))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(225, 225, 225))
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 14))
        .draw()?;
    let points = thin(&trace.times(col), &trace.columns[col]);
    for run in finite_runs(&points) {
        let mut steps = Vec::with_capacity(2 * run.len());
        for (i, &(t, v)) in run.iter().enumerate() {
            if i > 0 {
                steps.push((t, run[i - 1].1));
            }
            steps.push((t, v));
        }
        chart.draw_series(LineSeries::new(steps, rgb.stroke_width(2)))?;
    }
    let marks: Vec<&Mark> = trace.marks.iter().filter(|m| m.column == col).collect();
    let range = strip_range(trace, col);
    let (lo, hi) = (range.start, range.end);
    for m in &marks {
        chart.draw_series(LineSeries::new(
            [(m.t, lo), (m.t, hi)],
            MARK.stroke_width(1),
        ))?;
    }
    if marks.len() <= MARK_LABELS {
        let style = ("sans-serif", 11).into_font().color(&MARK);
        chart.draw_series(marks.iter().map(|m| {
            EmptyElement::at((m.t, hi)) + Text::new(m.to.clone(), (3, 1), style.clone())
        }))?;
    }
    Ok(())
}

/// The value axis of the strip of `col`: its values (0 and 1 at least, and every level
/// of a mode's states) with a fifth of
/// their span below and above, and room for the marks' labels when it has marks.
fn strip_range(trace: &Trace, col: usize) -> std::ops::Range<f64> {
    let finite = trace.columns[col].iter().copied().filter(|v| v.is_finite());
    // Every state of a mode has its level, shown or not.
    let last = trace.states[col].len().saturating_sub(1) as f64;
    let (lo, hi) = finite
        .chain([0.0, 1.0, last])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let pad = 0.2 * (hi - lo);
    let room = if trace.marks.iter().any(|m| m.column == col) {
        0.3 * (hi - lo)
    } else {
        0.0
    };
    lo - pad..hi + pad + room
}

/// The label of the value `y` of a strip: the state it names, or 0 and 1 for a strip
/// without names; empty between them.
fn level_name(states: &[String], y: f64) -> String {
    if y.fract() != 0.0 || y < 0.0 {
        return String::new();
    }
    match states.get(y as usize) {
        Some(name) => name.clone(),
        None if states.is_empty() && (y == 0.0 || y == 1.0) => format!("{y}"),
        None => String::new(),
    }
}

/// The time axis: first to last time, or 0..1 for fewer than two distinct times.
fn time_range(t: &[f64]) -> (f64, f64) {
    let finite = || t.iter().copied().filter(|v| v.is_finite());
    let lo = finite().fold(f64::INFINITY, f64::min);
    let hi = finite().fold(f64::NEG_INFINITY, f64::max);
    if lo < hi {
        (lo, hi)
    } else if lo.is_finite() {
        (lo, lo + 1.0)
    } else {
        (0.0, 1.0)
    }
}

/// The value axis: the finite values' range with 5 % margins (a constant gets ±10 %,
/// at least ±1 around 0; no finite value gives -1..1).
fn value_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    if lo == hi {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// The points of a series, thinned to each bucket's minimum and maximum (in time
/// order) when there are more than `2 · BUCKETS`; a non-finite value in a bucket is
/// kept, to break the line there.
fn thin(t: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    let n = t.len().min(y.len());
    if n <= 2 * BUCKETS {
        return t.iter().copied().zip(y.iter().copied()).collect();
    }
    let mut out = Vec::with_capacity(2 * BUCKETS + 2);
    for b in 0..BUCKETS {
        let (start, end) = (b * n / BUCKETS, (b + 1) * n / BUCKETS);
        let (mut min, mut max) = (start, start);
        let mut gap = None;
        for i in start..end {
            if !y[i].is_finite() {
                gap.get_or_insert(i);
            } else if !y[min].is_finite() || y[i] < y[min] {
                min = i;
            } else if !y[max].is_finite() || y[i] > y[max] {
                max = i;
            }
        }
        let mut keep = [Some(min.min(max)), gap, Some(min.max(max))];
        keep.sort_unstable();
        let mut previous = None;
        for i in keep.into_iter().flatten() {
            if previous != Some(i) {
                out.push((t[i], y[i]));
                previous = Some(i);
            }
        }
    }
    out
}

/// The runs of consecutive points whose time and value are both finite.
fn finite_runs(points: &[(f64, f64)]) -> impl Iterator<Item = Vec<(f64, f64)>> + '_ {
    points
        .split(|(t, v)| !(t.is_finite() && v.is_finite()))
        .filter(|run| !run.is_empty())
        .map(<[(f64, f64)]>::to_vec)
}

/// A tick value that is zero up to the rounding of the tick arithmetic
/// (plotters sums steps, so 0 may come out as -2.2e-16) shown as 0.
fn snap(v: f64, span: f64) -> f64 {
    if v.abs() <= 1e-9 * span.abs() { 0.0 } else { v }
}

/// An axis tick: 0, up to 6 decimals without trailing zeros, or scientific notation
/// for very large or small magnitudes.
fn tick(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if !(1e-4..1e6).contains(&a) {
        return format!("{v:.2e}");
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_near_zero_show_as_zero() {
        assert_eq!(tick(snap(-2.220446049250313e-16, 2.0)), "0");
        assert_eq!(tick(snap(1e-6, 2e-6)), "1.00e-6");
    }

    fn trace(columns: Vec<(&str, bool, Vec<f64>)>) -> Trace {
        let n = columns.first().map_or(0, |c| c.2.len());
        let n_cols = columns.len();
        Trace {
            title: "test".into(),
            names: columns.iter().map(|c| c.0.to_string()).collect(),
            units: vec![None; n_cols],
            logical: columns.iter().map(|c| c.1).collect(),
            t: (0..n).map(|i| i as f64).collect(),
            states: vec![Vec::new(); n_cols],
            columns: columns.into_iter().map(|c| c.2).collect(),
            marks: Vec::new(),
            rows: Default::default(),
        }
    }

    #[test]
    fn values_of_the_steps_start_are_drawn_a_row_back() {
        let mut tr = trace(vec![
            ("p", false, vec![0.0, 1.0, 2.0]),
            ("x", false, vec![0.0; 3]),
        ]);
        let words = [("p".to_string(), "t-dt"), ("x".to_string(), "t")];
        tr.row_times(&words.into_iter().collect());
        assert_eq!(*tr.times(0), [0.0, 0.0, 1.0]);
        assert_eq!(*tr.times(1), [0.0, 1.0, 2.0]);
        assert_eq!(
            (tr.label(0).as_str(), tr.label(1).as_str()),
            ("p (t−dt)", "x")
        );
        tr.set_units([Some("W".to_string()), None]);
        tr.set_units([Some("kW".to_string()), Some("m".to_string())]);
        assert_eq!(
            (tr.label(0).as_str(), tr.label(1).as_str()),
            ("p [W] (t−dt)", "x [m]")
        );
    }

    #[test]
    fn headers_give_names_and_units() {
        assert_eq!(with_unit("h [m]"), ("h", Some("m")));
        assert_eq!(with_unit("v [m/s^2]"), ("v", Some("m/s^2")));
        assert_eq!(with_unit("h"), ("h", None));
        assert_eq!(with_unit("[m]"), ("[m]", None));
        assert_eq!(with_unit("h []"), ("h []", None));
    }

    #[test]
    fn panels_group_by_magnitude() {
        let t = trace(vec![
            ("h", false, vec![400.0, 30.0]),
            ("defl", false, vec![0.0, 0.5]),
            ("Vy", false, vec![0.0, -850.0]),
            ("zero", false, vec![0.0, 0.0]),
            ("q", true, vec![0.0, 1.0]),
            ("small", false, vec![0.06, 0.01]),
        ]);
        assert_eq!(
            panels(&t),
            [
                Panel::Real(vec![0, 2, 3]),
                Panel::Real(vec![1, 5]),
                Panel::Logical(4)
            ]
        );
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(400.0), "400");
        assert_eq!(tick(0.125), "0.125");
        assert_eq!(tick(0.0005), "0.0005");
        assert_eq!(tick(0.1 + 0.2), "0.3");
        assert_eq!(tick(-0.00001), "-1.00e-5");
        assert_eq!(tick(1e7), "1.00e7");
    }

    #[test]
    fn thinning_keeps_extremes_and_gaps() {
        let n = 10 * BUCKETS;
        let t: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let mut y: Vec<f64> = (0..n).map(|i| (i as f64 * 0.01).sin()).collect();
        y[5000] = 7.0;
        y[9000] = f64::NAN;
        let p = thin(&t, &y);
        assert!(p.len() <= 3 * BUCKETS);
        assert!(p.contains(&(5000.0, 7.0)));
        assert!(p.iter().any(|(t, v)| *t == 9000.0 && v.is_nan()));
        assert!(p.windows(2).all(|w| w[0].0 < w[1].0), "time order");
        assert_eq!(finite_runs(&p).count(), 2);
    }

    #[test]
    fn strips_name_their_levels_and_label_few_marks() {
        assert_eq!(level_name(&[], 1.0), "1");
        assert_eq!(level_name(&[], 0.5), "");
        let states = ["red".to_string(), "green".into()];
        assert_eq!(
            (level_name(&states, 1.0), level_name(&states, 2.0)),
            ("green".into(), "".into())
        );
        let n = MARK_LABELS + 1;
        let flips = (0..=n).map(|i| (i % 2) as f64).collect();
        let mut t = trace(vec![("q", true, flips)]);
        assert_eq!(strip_range(&t, 0), -0.2..1.2);
        let mark = |i: usize| Mark {
            column: 0,
            t: i as f64,
            to: format!("v{i}"),
        };
        t.marks = (1..=n).map(mark).collect();
        assert_eq!(strip_range(&t, 0), -0.2..1.5);
        let labelled = |t: &Trace| {
            render_svg(t)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with('v'))
                .count()
        };
        assert_eq!(labelled(&t), 0, "too many marks to label");
        t.marks.truncate(MARK_LABELS);
        assert_eq!(labelled(&t), MARK_LABELS);
    }

    #[test]
    fn ranges() {
        assert_eq!(value_range([1.0, 3.0, f64::NAN].into_iter()), (0.9, 3.1));
        assert_eq!(value_range([0.0].into_iter()), (-1.0, 1.0));
        assert_eq!(value_range([f64::INFINITY].into_iter()), (-1.0, 1.0));
        assert_eq!(time_range(&[0.0]), (0.0, 1.0));
        assert_eq!(time_range(&[0.0, 2.0]), (0.0, 2.0));
    }
}
