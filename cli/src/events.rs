//! `sitc run --events LOG.csv` and `--explain NAME`: the event log of a run, as CSV rows or as a readable account.

use crate::fail::Fail;
use crate::params::io_reason;
use sit_interp::Instance;
use sit_middle::suggest::did_you_mean;
use sit_runtime::Model;
use sit_runtime::events::{Event, Recorder, Table, WatchKind};
use std::io::Write;
use std::path::PathBuf;

/// The event-log options of `sitc run`.
#[derive(clap::Args)]
pub struct EventArgs {
    /// Write the event log to this CSV file: one row `t,name,from,to,rule` per change
    /// of a logical variable (flag, pred, situation, event, mode, `NAME.on`) and per
    /// reset of a submodel, at the time of the step that made it, with the `file:line`
    /// of the rule that made it (see docs/events.md). `-` is standard output, when the
    /// trace goes to a file (`-o FILE`).
    #[arg(long, value_name = "LOG.csv")]
    pub events: Option<PathBuf>,
    /// Print an account of each change of the logical variable NAME (time, from -> to,
    /// the rule and the guards that held) instead of the trace; the trace still goes to
    /// `-o FILE` when given.
    #[arg(long, value_name = "NAME")]
    pub explain: Option<String>,
}

impl EventArgs {
    /// Whether the run needs a model built for the log.
    pub fn wanted(&self) -> bool {
        self.events.is_some() || self.explain.is_some()
    }
}

/// A change of the variable of `--explain`, with the lines saying what its rule read.
type Explained = (Event, Vec<String>);

/// The log of one run: the recorder and where its events go.
pub struct Log {
    recorder: Recorder,
    csv: Option<(csv::Writer<Box<dyn Write>>, PathBuf)>,
    /// The name `--explain` asks for, and its changes with what their rules read.
    explain: Option<(String, Vec<Explained>)>,
    /// The hidden whys, by index (not recorded in the trace).
    hidden: Vec<usize>,
    /// The changes kept for the plot (`--plot`), if it is drawn.
    plotted: Option<Vec<crate::marks::Change>>,
}

impl Log {
    /// The log of `model` (built for it, as `table` describes) asked for by `args`;
    /// checks the name of `--explain` and creates the CSV file.
    pub fn open(args: &EventArgs, table: Table, model: &Instance) -> Result<Log, Fail> {
        let explain = match &args.explain {
            Some(name) => Some((explained(&table, model, name)?, Vec::new())),
            None => None,
        };
        let hidden = (table.whys.iter())
            .filter_map(|n| model.var_index(n))
            .collect();
        let recorder =
            Recorder::new(table, model).map_err(|e| Fail::Model(format!("error: {e}\n")))?;
        let csv = match &args.events {
            Some(path) => {
                let cannot =
                    |e: &dyn std::fmt::Display| format!("cannot write `{}`: {e}", path.display());
                let out: Box<dyn Write> = if crate::out::is_stdout(path) {
                    Box::new(std::io::stdout())
                } else {
                    Box::new(std::fs::File::create(path).map_err(|e| cannot(&io_reason(&e)))?)
                };
                let mut w = csv::Writer::from_writer(out);
                w.write_record(["t", "name", "from", "to", "rule"])
                    .map_err(|e| cannot(&e))?;
                Some((w, path.clone()))
            }
            None => None,
        };
        Ok(Log {
            recorder,
            csv,
            explain,
            hidden,
            plotted: None,
        })
    }

    /// Keeps the changes for the plot of the run.
    pub fn keep_for_plot(&mut self) {
        self.plotted.get_or_insert_with(Vec::new);
    }

    /// Marks the changes kept for the plot on `trace`, its modes named by their states.
    pub fn mark(&mut self, trace: &mut crate::plot::Trace) {
        let changes = self.plotted.take().unwrap_or_default();
        let states: Vec<(String, Vec<String>)> = (self.recorder.table().watches.iter())
            .filter(|w| w.kind == WatchKind::Mode)
            .map(|w| (w.name.clone(), w.states.clone()))
            .collect();
        trace.mark(&changes, &states);
    }

    /// Whether the variable `index` is a hidden why (never recorded).
    pub fn hides(&self, index: usize) -> bool {
        self.hidden.contains(&index)
    }

    /// Whether the account of `--explain` replaces the trace on standard output.
    pub fn explains(&self) -> bool {
        self.explain.is_some()
    }

    /// Before a step.
    pub fn start(&mut self, model: &mut Instance) {
        // The whys are states: always settable.
        let _ = self.recorder.start(model);
    }

    /// After a step: the step's events to the CSV file and the account.
    pub fn finish(&mut self, model: &Instance) -> Result<(), String> {
        let Log {
            recorder,
            csv,
            explain,
            plotted,
            ..
        } = self;
        let table = recorder.table();
        let mut failed = None;
        recorder.finish(model, |e| {
            if let Some((w, path)) = csv.as_mut() {
                let t = sit_runtime::number::shortest(e.t).to_string();
                let row = [t.as_str(), &e.name, &e.from, &e.to, e.rule(table)];
                if let Err(err) = w.write_record(row) {
                    failed.get_or_insert(format!("cannot write `{}`: {err}", path.display()));
                }
            }
            if let Some(changes) = plotted.as_mut() {
                changes.push(crate::marks::Change {
                    t: e.t,
                    name: e.name.clone(),
                    from: e.from.clone(),
                    to: e.to.clone(),
                });
            }
            if let Some((name, events)) = explain.as_mut()
                && e.name == *name
            {
                let read = what_it_read(recorder, model, &e);
                events.push((e, read));
            }
        });
        failed.map_or(Ok(()), Err)
    }

    /// Ends the run: flushes the CSV file and writes the account to `out`.
    pub fn close(self, out: &mut dyn Write) -> Result<(), Fail> {
        if let Some((mut w, path)) = self.csv {
            // Standard output: a reader that went away ends sitc quietly.
            crate::out::unless_closed(w.flush())
                .map_err(|e| format!("cannot write `{}`: {}", path.display(), io_reason(&e)))?;
        }
        if let Some((name, events)) = &self.explain {
            let text = account(self.recorder.table(), name, events);
            // `out` is stdout: a reader that went away ends sitc quietly.
            crate::out::unless_closed(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
                .map_err(|e| format!("cannot write the account: {}", io_reason(&e)))?;
        }
        Ok(())
    }
}

/// `name` if the table watches it, else the error: a name that is not logical, or no
/// such name (with a close logical name).
fn explained(table: &Table, model: &Instance, name: &str) -> Result<String, Fail> {
    if table.watches.iter().any(|w| w.name == name) {
        return Ok(name.to_string());
    }
    let whys = |n: &str| table.whys.iter().any(|w| w == n);
    if let Some(i) = model.var_index(name).filter(|_| !whys(name)) {
        let kind = model.var_info(i).map_or("variable", |v| v.kind.name());
        return Err(format!(
            "--explain: `{name}` is a real {kind}, not a logical variable; --explain takes a \
             flag, pred, situation, event, mode, `NAME.on` or a submodel (its resets)"
        )
        .into());
    }
    let names = table.watches.iter().map(|w| w.name.as_str());
    let hint =
        did_you_mean(name, names).map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
    Err(format!("--explain: no logical variable named `{name}`{hint}").into())
}

/// What the rule of `e` read, as lines of its account: the values its guards read
/// when it ran (`elapsed = 30, t_red = 30`), or for a pred or situation the variables
/// it reads that the step changed (`T: 21.99 -> 22.01`).
fn what_it_read(recorder: &Recorder, model: &Instance, e: &Event) -> Vec<String> {
    let show = |name: &str, v: f64| {
        let state = (v >= 0.0 && v.fract() == 0.0)
            .then(|| model.var_index(name))
            .flatten()
            .and_then(|i| model.mode_state(i, v as usize));
        state.map_or_else(
            || sit_runtime::number::shortest(v).to_string(),
            str::to_string,
        )
    };
    let changed = recorder.changed_reads(model, e);
    if !changed.is_empty() {
        return changed
            .iter()
            .map(|(n, a, b)| format!("{n} changed: {} -> {}", show(n, *a), show(n, *b)))
            .collect();
    }
    let read = recorder.guard_values(model, e);
    if read.is_empty() {
        return Vec::new();
    }
    let values: Vec<String> = (read.iter())
        .map(|(n, v)| format!("{n} = {}", show(n, *v)))
        .collect();
    vec![format!("it read {}", values.join(", "))]
}

/// The readable account of the changes of `name`, each with what its rule read.
pub fn account(table: &Table, name: &str, events: &[Explained]) -> String {
    let kind = table
        .watches
        .iter()
        .find(|w| w.name == name)
        .map(|w| w.kind);
    let mut out = match events.len() {
        0 => format!("`{name}` never changed\n"),
        1 => format!("`{name}` changed once\n"),
        n => format!("`{name}` changed {n} times\n"),
    };
    for (e, read) in events {
        let change = if kind == Some(WatchKind::Reset) {
            "reset".to_string()
        } else {
            format!("{} -> {}", e.from, e.to)
        };
        out.push_str(&format!("\nt = {}: {change}\n", e.t));
        let Some(site) = e.site.and_then(|s| table.sites.get(s)) else {
            out.push_str("  no rule of the step changed it (the time, an input, or a value set from outside)\n");
            for line in read {
                out.push_str(&format!("  {line}\n"));
            }
            continue;
        };
        let why = match kind {
            Some(WatchKind::Event) if e.to == "0" => "true only in the step it fired:",
            Some(WatchKind::Event) => "its condition became true:",
            Some(WatchKind::Cond) => "a value it reads was changed by",
            Some(WatchKind::Newton) => "the steps Newton's iteration needed for",
            _ => "by",
        };
        out.push_str(&format!("  {why} {}: {}\n", site.location, site.text));
        for g in &site.guards {
            out.push_str(&format!("  when {g} held\n"));
        }
        for line in read {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}
