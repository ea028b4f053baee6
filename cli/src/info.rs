//! `sitc info FILE [--model M] [--format json]`: a model's variables and submodel tree.
//!
//! The listing is read from the checked program ([`sit_middle::ir::Program`]), and the
//! values as written (`init`) from the source text of the declarations: the files are
//! parsed again to find the span of each `= expression`, so a value is shown as the
//! user wrote it (`2 * gain`, not a folded number).
//!
//! Submodels are listed recursively: each instance carries the variables and
//! submodels of its model, so every entry of the JSON tree stands on its own. The text
//! form shows the instance tree once, then one table per model.

use crate::fail::{Fail, exit};
use sit_middle::ast::{self, Decl};
use sit_middle::check::equations::{Block, Solved};
use sit_middle::ir::{Model, ModelId, Program, Ty};
use sit_middle::{SourceMap, Span};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `sitc info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// The `.sit` file.
    pub file: PathBuf,
    /// The model to describe (default: the one model of the file that no other model
    /// instantiates, as for `sitc run`).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
    /// Print instead the exact Jacobian of the model's continuous part (the derivative
    /// of each `integral` and `lag` rate with respect to each continuous state, as the
    /// compiler differentiates it): its sparsity pattern, then its tangent rules
    /// (text), or the states and the pattern (JSON).
    #[arg(long)]
    pub jacobian: bool,
}

/// The output formats of `sitc info`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum InfoFormat {
    /// Readable tables.
    Text,
    /// One JSON object (`model`, `variables`, `submodels`).
    Json,
}

/// `sitc info`: prints the variables and submodel tree of a model (exit 0; 1: the
/// model has errors; 2: usage or I/O).
pub fn info(args: InfoArgs) -> ExitCode {
    exit(try_info(&args))
}

fn try_info(args: &InfoArgs) -> Result<(), Fail> {
    let out =
        sit_driver::check(&sit_driver::Source::path(&args.file)).map_err(|e| e.to_string())?;
    let (program, report) = out.into_report();
    let Some(program) = program else {
        return Err(Fail::Model(report.to_string()));
    };
    if !report.is_empty() {
        eprint!("{report}");
    }
    let root =
        sit_driver::select_root(&program, args.model.as_deref()).map_err(|e| e.to_string())?;
    if args.jacobian {
        return print_jacobian(&program, root, args.format);
    }
    let written = Written::parse(&program.sources);
    let tree = Describer {
        program: &program,
        written: &written,
        rows: sit_middle::rows::row_times(&program),
    }
    .model(root);
    match args.format {
        InfoFormat::Json => {
            let json = serde_json::to_string_pretty(&tree.json()).map_err(|e| e.to_string())?;
            crate::out::print(format_args!("{json}\n"));
        }
        InfoFormat::Text => crate::out::print(tree.text()),
    }
    Ok(())
}

/// `sitc info --jacobian`: the Jacobian of `root`'s continuous part.
fn print_jacobian(program: &Program, root: ModelId, format: InfoFormat) -> Result<(), Fail> {
    let m = &program.models[root];
    // The Jacobian is that of the stage pass: a model whose rates read a stage rule's
    // value before it is computed has none (E0472, whatever the model's method).
    let errors = sit_middle::ir::jacobian_errors(m);
    if !errors.is_empty() {
        return Err(Fail::Model(sit_middle::diag::render_all(
            &errors,
            &program.sources,
        )));
    }
    let j = sit_middle::lower::jacobian::jacobian(program, root);
    let names: Vec<&str> = j.states.iter().map(|&v| m.vars[v].name.as_str()).collect();
    match format {
        InfoFormat::Json => {
            let json = serde_json::json!({
                "model": m.name,
                "states": names,
                "pattern": j.pattern,
                "nonzeros": j.nonzeros(),
            });
            let json = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
            crate::out::print(format_args!("{json}\n"));
        }
        InfoFormat::Text if j.states.is_empty() => crate::out::print(format_args!(
            "model {} has no continuous states (no `integral` or `lag` rule): no Jacobian\n",
            m.name
        )),
        InfoFormat::Text => crate::out::print(format_args!(
            "Jacobian of model {} ({} states, {} of {} entries structurally nonzero): \
             row d(y)/dt, column y\n\n{}\nThe tangent rules (d v/d y for each stage rule and \
             rate, in the order of the stage pass):\n{}",
            m.name,
            j.states.len(),
            j.nonzeros(),
            j.states.len() * j.states.len(),
            j.pattern_text(m),
            j.pass_text(program)
        )),
    }
    Ok(())
}

/// The source text of what each declaration wrote, found by the span of its name.
struct Written {
    /// `= expression` of a variable, pred, situation or event, by its name's span and
    /// its name (a part's variables share their component's spans: `r1.v`, `r2.v`).
    values: HashMap<(Span, String), String>,
    /// `name = expression` bindings of a submodel instance, by the instance name's span.
    bindings: HashMap<Span, Vec<(String, String)>>,
    /// The unit of a real variable, declared or inferred (`sit_middle::units`), by its
    /// name's span and its name; absent where it is not known.
    units: HashMap<(Span, String), String>,
    /// The blocks of a model's equations, in the order solved, by the model's name.
    blocks: HashMap<String, Vec<Block>>,
}

impl Written {
    /// Parses every file of `sources` again (they parsed once already, so they parse).
    fn parse(sources: &SourceMap) -> Written {
        let mut written = Written {
            values: HashMap::new(),
            bindings: HashMap::new(),
            units: HashMap::new(),
            blocks: HashMap::new(),
        };
        let files: Vec<(usize, ast::File)> = (sources.files.iter().enumerate())
            .filter_map(|(id, file)| {
                Some((id, sit_middle::parse::parse_file(id, &file.text).ok()?))
            })
            .collect();
        // Parts flattened into their holders, as the checker sees them.
        let flat = sit_middle::check::flat_models(&files);
        let models: Vec<&ast::Model> = flat.iter().collect();
        // The program checked, so its units did: the diagnostics are not needed here.
        let units = sit_middle::units::check_models_in(&models, Some(sources), &mut Vec::new());
        for (m, u) in models.iter().zip(&units) {
            for decl in &m.decls {
                if let Decl::Var { name, .. } = decl
                    && let Some((_, shown, _)) = u.vars.get(&name.text)
                {
                    (written.units).insert((name.span, name.text.clone()), shown.clone());
                }
            }
        }
        for m in &models {
            let blocks = sit_middle::check::equations::blocks(m);
            if !blocks.is_empty() {
                written.blocks.insert(m.name.text.clone(), blocks);
            }
        }
        for m in &models {
            for decl in &m.decls {
                match decl {
                    Decl::Var {
                        name,
                        value: Some(v),
                        ..
                    } => {
                        written.values.insert(
                            (name.span, name.text.clone()),
                            one_line(sources.text(v.span)),
                        );
                    }
                    Decl::Var { value: None, .. } | Decl::Mode { .. } | Decl::Table(_) => {}
                    Decl::Sub { name, bindings, .. } => {
                        let list = bindings
                            .iter()
                            .map(|(n, e)| (n.text.clone(), one_line(sources.text(e.span))))
                            .collect();
                        written.bindings.insert(name.span, list);
                    }
                }
            }
        }
        written
    }
}

/// `text` with every run of white space (line breaks included) made one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One variable of a model, as listed.
struct Variable {
    name: String,
    kind: &'static str,
    ty: &'static str,
    /// The unit, declared or inferred; empty where it is not known.
    unit: String,
    output: bool,
    /// What time its value in a trace's row is as of (`sit_middle::rows`): `t`,
    /// `t-dt`, `earlier`, `mixed`, `held`, or empty for a value constant in a run.
    row: &'static str,
    init: String,
    doc: String,
    file: String,
    line: usize,
    column: usize,
    /// A mode's states in declaration order (its values: their indices); empty
    /// for other kinds.
    states: Vec<String>,
}

/// A model (the root or a submodel's) with its variables and submodels.
struct Described {
    model: String,
    /// The integration method, when the model declares one other than `euler`.
    method: Option<&'static str>,
    variables: Vec<Variable>,
    submodels: Vec<Instance>,
    /// Its equations' blocks, in the order solved, each with where its equations are.
    blocks: Vec<(Block, Vec<Location>)>,
}

/// A file, line and column.
type Location = (String, usize, usize);

/// A submodel instance.
struct Instance {
    name: String,
    on: bool,
    bindings: Vec<(String, String)>,
    doc: String,
    file: String,
    line: usize,
    column: usize,
    described: Described,
}

struct Describer<'a> {
    program: &'a Program,
    written: &'a Written,
    /// Per model and variable, what time a row's value is as of.
    rows: Vec<Vec<sit_middle::rows::RowTime>>,
}

impl Describer<'_> {
    fn model(&self, id: ModelId) -> Described {
        let m: &Model = &self.program.models[id];
        let mut variables = Vec::new();
        for (i, v) in m.vars.iter().enumerate() {
            if v.hidden {
                // A method's memory or an event-log why (not in a checked program).
                continue;
            }
            let kind = v.kind_name();
            let implicit = match v.ty {
                Ty::Real => "0",
                Ty::Flag => "false",
            };
            let mut var = self.variable(&v.name, kind, v.ty, v.output, implicit, &v.doc, v.span);
            var.row = (self.rows.get(id))
                .and_then(|r| r.get(i))
                .map_or("", |r| r.word());
            variables.push(var);
        }
        for (k, c) in m.conds.iter().enumerate() {
            let mut var = self.variable(
                &c.name,
                c.kind.name(),
                Ty::Flag,
                c.output,
                "",
                &c.doc,
                c.span,
            );
            var.row =
                (self.rows.get(id)).map_or("", |r| sit_middle::rows::cond_time(m, r, k).word());
            variables.push(var);
        }
        for e in &m.events {
            let mut var = self.variable(&e.name, "event", Ty::Flag, e.output, "", &e.doc, e.span);
            var.row = sit_middle::rows::RowTime::EVENT.word();
            variables.push(var);
        }
        for md in &m.modes {
            // The value is the index of the state; the initial state is the first.
            let first = md.states.first().map_or("", String::as_str);
            let mut v = self.variable(
                &md.name,
                "mode",
                Ty::Real,
                md.output,
                first,
                &md.doc,
                md.span,
            );
            v.ty = "mode";
            v.states = md.states.clone();
            variables.push(v);
        }
        let submodels = m
            .subs
            .iter()
            .map(|s| {
                let (file, line, column) = self.location(s.span);
                Instance {
                    name: s.name.clone(),
                    on: s.initially_on,
                    bindings: self
                        .written
                        .bindings
                        .get(&s.span)
                        .cloned()
                        .unwrap_or_default(),
                    doc: doc(&s.doc),
                    file,
                    line,
                    column,
                    described: self.model(s.model),
                }
            })
            .collect();
        let blocks = (self.written.blocks.get(&m.name).into_iter().flatten())
            .map(|b| {
                let at = b.equations.iter().map(|&s| self.location(s)).collect();
                (b.clone(), at)
            })
            .collect();
        Described {
            model: m.name.clone(),
            method: (m.method != sit_middle::ir::Method::Euler).then(|| m.method.name()),
            variables,
            submodels,
            blocks,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn variable(
        &self,
        name: &str,
        kind: &'static str,
        ty: Ty,
        output: bool,
        implicit: &str,
        lines: &[String],
        span: Span,
    ) -> Variable {
        let (file, line, column) = self.location(span);
        Variable {
            name: name.to_string(),
            kind,
            ty: ty.name(),
            unit: (self.written.units.get(&(span, name.to_string())).cloned()).unwrap_or_default(),
            output,
            row: "",
            init: (self.written.values.get(&(span, name.to_string())).cloned())
                .unwrap_or_else(|| implicit.to_string()),
            doc: doc(lines),
            file,
            line,
            column,
            states: Vec::new(),
        }
    }

    /// The file, line and column (in characters, from 1) of a span's start.
    fn location(&self, span: Span) -> (String, usize, usize) {
        let f = self.program.sources.file(span.file);
        let (line, column) = f.line_col(span.start);
        (f.display_name(), line, column)
    }
}

/// Doc comment lines joined with line breaks, each without the space after `///`.
fn doc(lines: &[String]) -> String {
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect();
    lines.join("\n")
}

impl Variable {
    fn json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "name": self.name,
            "kind": self.kind,
            "type": self.ty,
            "unit": self.unit,
            "output": self.output,
            "row": self.row,
            "init": self.init,
            "doc": self.doc,
            "file": self.file,
            "line": self.line,
            "column": self.column,
        });
        if !self.states.is_empty() {
            v["states"] = serde_json::json!(self.states);
        }
        v
    }
}

impl Described {
    fn json(&self) -> serde_json::Value {
        let mut json = serde_json::json!({
            "model": self.model,
            "variables": self.variables.iter().map(Variable::json).collect::<Vec<_>>(),
            "submodels": self.submodels.iter().map(Instance::json).collect::<Vec<_>>(),
        });
        if let Some(method) = self.method {
            json["method"] = method.into();
        }
        let without = self.without_unit();
        if !without.is_empty() {
            json["without_unit"] = without.into();
        }
        if !self.blocks.is_empty() {
            json["equations"] = (self.blocks.iter())
                .map(|(b, at)| {
                    let mut v = serde_json::json!({
                        "unknowns": b.unknowns,
                        "lines": at.iter().map(|(_, line, _)| line).collect::<Vec<_>>(),
                        "solved": match &b.solved {
                            Solved::Rearranged => "rearranged",
                            Solved::Substitution => "substitution",
                            Solved::Newton { .. } => "newton",
                        },
                    });
                    if let Solved::Newton {
                        tearing,
                        steps,
                        count,
                    } = &b.solved
                    {
                        v["tearing"] = serde_json::json!(tearing);
                        v["steps"] = serde_json::json!(steps);
                        v["count"] = serde_json::json!(count);
                    }
                    v
                })
                .collect::<Vec<_>>()
                .into();
        }
        json
    }

    /// The blocks of the model's equations, one line each: what it determines, how,
    /// and where its equations are.
    fn equations(&self, out: &mut String) {
        if self.blocks.is_empty() {
            return;
        }
        out.push_str("  equations, in the order solved:\n");
        let rows: Vec<[String; 3]> = (self.blocks.iter())
            .map(|(b, at)| {
                let how = match &b.solved {
                    Solved::Rearranged => "rearranged".to_string(),
                    Solved::Substitution => format!("loop of {}, substitution", at.len()),
                    Solved::Newton {
                        tearing,
                        steps,
                        count,
                    } => {
                        let what = if at.len() > 1 {
                            format!("loop of {}, ", at.len())
                        } else {
                            String::new()
                        };
                        format!(
                            "{what}Newton on {} ({steps} steps, needed: {count})",
                            tearing.join(", ")
                        )
                    }
                };
                let file = at.first().map_or("", |(f, _, _)| f.as_str());
                let lines: Vec<String> = at.iter().map(|(_, l, _)| l.to_string()).collect();
                [
                    b.unknowns.join(", "),
                    how,
                    format!("{file}:{}", lines.join(",")),
                ]
            })
            .collect();
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let (w0, w1) = (width(0), width(1));
        for [a, b, c] in &rows {
            let _ = writeln!(out, "    {a:<w0$}  {b:<w1$}  {c}");
        }
    }

    /// The real variables (not modes) whose unit stays unknown, in a model where some
    /// have one (a model without units checks as before, and is not listed: gradual).
    fn without_unit(&self) -> Vec<&str> {
        let reals = || (self.variables.iter()).filter(|v| v.ty == "real" && v.states.is_empty());
        if reals().all(|v| v.unit.is_empty()) {
            return Vec::new();
        }
        (reals().filter(|v| v.unit.is_empty()))
            .map(|v| v.name.as_str())
            .collect()
    }

    /// The root's table, the instance tree, then one table per model below the root
    /// (in the order first met).
    fn text(&self) -> String {
        let mut out = String::new();
        self.table(&mut out);
        if !self.submodels.is_empty() {
            out.push_str("\nsubmodels:\n");
            tree(&self.submodels, 1, &mut out);
            let mut seen = vec![self.model.as_str()];
            let mut pending: Vec<&Described> =
                self.submodels.iter().map(|s| &s.described).collect();
            pending.reverse();
            while let Some(d) = pending.pop() {
                if seen.contains(&d.model.as_str()) {
                    continue;
                }
                seen.push(&d.model);
                out.push('\n');
                d.table(&mut out);
                pending.extend(d.submodels.iter().rev().map(|s| &s.described));
            }
        }
        out
    }

    /// `model NAME` and an aligned table of its variables (the first doc line only).
    fn table(&self, out: &mut String) {
        match self.method {
            Some(method) => {
                let _ = writeln!(out, "model {} (method {method})", self.model);
            }
            None => {
                let _ = writeln!(out, "model {}", self.model);
            }
        }
        if self.variables.is_empty() {
            out.push_str("  (no variables)\n");
            return;
        }
        let header = [
            "name", "kind", "type", "unit", "row", "output", "init", "declared", "doc",
        ];
        let rows: Vec<[String; 9]> = self
            .variables
            .iter()
            .map(|v| {
                [
                    v.name.clone(),
                    v.kind.to_string(),
                    if v.states.is_empty() {
                        v.ty.to_string()
                    } else {
                        format!("mode {{ {} }}", v.states.join(", "))
                    },
                    v.unit.clone(),
                    v.row.to_string(),
                    if v.output { "yes" } else { "" }.to_string(),
                    v.init.clone(),
                    format!("{}:{}:{}", v.file, v.line, v.column),
                    v.doc.lines().next().unwrap_or("").to_string(),
                ]
            })
            .collect();
        let width = |i: usize| {
            (rows.iter().map(|r| r[i].chars().count()))
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..header.len()).map(width).collect();
        let mut line = |cells: &[&str]| {
            let mut text = String::from(" ");
            for (cell, w) in cells.iter().zip(&widths) {
                let _ = write!(text, " {cell:<w$}");
            }
            let _ = writeln!(out, "{}", text.trim_end());
        };
        line(&header);
        for r in &rows {
            line(&r.each_ref().map(String::as_str));
        }
        let without = self.without_unit();
        if !without.is_empty() {
            let _ = writeln!(out, "  without a unit: {}", without.join(", "));
        }
        self.equations(out);
    }
}

/// The instance tree, indented two spaces per level.
fn tree(instances: &[Instance], depth: usize, out: &mut String) {
    for s in instances {
        let bindings: Vec<String> = s
            .bindings
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        // A copy made for structural bindings is named with them (`Rod(N = 6)`): the
        // other bindings join its list.
        let model = &s.described.model;
        let (name, mut all) = match sit_middle::check::arrays::specialise::split(model) {
            Some((name, structural)) => (name, vec![structural.to_string()]),
            None => (model.as_str(), Vec::new()),
        };
        all.extend(bindings);
        let _ = writeln!(
            out,
            "{:indent$}{}: {}({}){} at {}:{}:{}",
            "",
            s.name,
            name,
            all.join(", "),
            if s.on { "" } else { " off" },
            s.file,
            s.line,
            s.column,
            indent = 2 * depth,
        );
        tree(&s.described.submodels, depth + 1, out);
    }
}

impl Instance {
    fn json(&self) -> serde_json::Value {
        let mut json = self.described.json();
        let bindings: serde_json::Map<String, serde_json::Value> = (self.bindings.iter())
            .map(|(n, v)| (n.clone(), serde_json::Value::from(v.clone())))
            .collect();
        let extra = serde_json::json!({
            "name": self.name,
            "initially_on": self.on,
            "bindings": bindings,
            "doc": self.doc,
            "file": self.file,
            "line": self.line,
            "column": self.column,
        });
        if let (Some(obj), serde_json::Value::Object(more)) = (json.as_object_mut(), extra) {
            obj.extend(more);
        }
        json
    }
}
