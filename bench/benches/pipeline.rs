//! The front ends' pipeline on one large model, in two layouts: time and peak memory.
//!
//! Three commands, as `sitc` runs them on a file:
//!
//! - `check`: `sit_middle::check_file` (read, parse, check, lint);
//! - `emit`: `sit_build::compile_file` (check, then generate and format the Rust);
//! - `run start`: `sit_host::load_file` and one step (check, compile for the
//!   interpreter, construct, step).
//!
//! The model is `sit_synth::synthetic(RULES)` (10 000 rules by default), once as
//! generated (one declaration per line) and once with every declaration on one long
//! line; costs must not depend on the layout, so the table ends with the ratio of the
//! two layouts, measured in the same run.
//!
//! Each measurement runs in a fresh child process (this binary, re-executed with
//! `--child COMMAND FILE`), so that its peak resident memory is the command's own: the
//! child reads `VmHWM` from `/proc/self/status` (Linux), the figure `/usr/bin/time -v`
//! reports as "Maximum resident set size", and its CPU time from `/proc/self/schedstat`
//! (time on a CPU, which a loaded machine disturbs less than the wall-clock time). Times
//! are the medians over the runs, peaks the largest. Run (see `docs/performance.md`, "Compile pipeline"):
//!
//! ```text
//! cargo bench -p sit-bench --bench pipeline
//! SIT_PIPELINE_RULES=1000 SIT_PIPELINE_RUNS=9 cargo bench -p sit-bench --bench pipeline
//! ```

use sit_runtime::Model;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The commands measured, as `--child` names them.
const COMMANDS: &[&str] = &["check", "emit", "run-start"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(&args[i + 1], Path::new(&args[i + 2]));
        return;
    }
    let rules = env_usize("SIT_PIPELINE_RULES", 10_000);
    let runs = env_usize("SIT_PIPELINE_RUNS", 5).max(1);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sit-pipeline");
    std::fs::create_dir_all(&dir).expect("cannot create the bench's folder");
    let text = sit_synth::synthetic(rules);
    let layouts = [
        (
            "one per line",
            dir.join(format!("lines{rules}.sit")),
            text.clone(),
        ),
        (
            "one long line",
            dir.join(format!("long{rules}.sit")),
            one_line(&text),
        ),
    ];
    for (_, path, text) in &layouts {
        std::fs::write(path, text).expect("cannot write the model");
    }
    println!("synthetic({rules}), {runs} runs per cell, each in a fresh process\n");
    println!("| command | layout | wall time | CPU time | peak memory (VmHWM) |");
    println!("|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for command in COMMANDS {
        let mut medians = Vec::new();
        for (layout, path, _) in &layouts {
            let (wall, cpu, peak_kb) = measure(command, path, runs);
            println!(
                "| `{command}` | {layout} | {} | {} | {:.0} MB |",
                show_time(wall),
                show_time(cpu),
                peak_kb as f64 / 1024.0
            );
            medians.push(cpu);
        }
        ratios.push((command, medians[1] / medians[0]));
    }
    println!("\nlong line / one per line (CPU time):");
    for (command, ratio) in ratios {
        println!("  {command}: {ratio:.2}");
    }
}

/// Runs `command` on `path` `runs` times in fresh processes: the median wall and CPU
/// times (s) and the largest peak (kB).
fn measure(command: &str, path: &Path, runs: usize) -> (f64, f64, u64) {
    let exe = std::env::current_exe().expect("cannot find the bench binary");
    let mut times = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    let mut peak = 0;
    for _ in 0..runs {
        let out = Command::new(&exe)
            .args(["--child", command])
            .arg(path)
            .output()
            .expect("cannot run the child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{command} on {} failed:\n{stdout}\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let fields: Vec<f64> = stdout
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        let [wall, cpu, kb] = fields[..] else {
            panic!("unexpected child output: {stdout}");
        };
        times.push(wall);
        cpus.push(cpu);
        peak = peak.max(kb as u64);
    }
    (median(times), median(cpus), peak)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// In the child: runs `command` once on `path`, prints `WALL_S CPU_S PEAK_KB`.
fn child(command: &str, path: &Path) {
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    match command {
        "check" => {
            let out = sit_middle::check_file(path).expect("cannot read the model");
            assert!(!out.has_errors(), "{}", out.render());
        }
        "emit" => {
            let generated = sit_build::compile_file(path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!generated.code.is_empty());
        }
        "run-start" => {
            let mut loaded = sit_host::load_file(path, None).unwrap_or_else(|e| panic!("{e}"));
            loaded.instance.step(0.01);
            assert!(loaded.instance.time() > 0.0);
        }
        other => panic!("unknown command `{other}`"),
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{secs} {} {}", cpu_seconds() - cpu_start, peak_kb());
}

/// The CPU time of this (single-threaded) process so far, in seconds: the first field
/// of `/proc/self/schedstat`, in nanoseconds (0 where `/proc` has none).
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns * 1e-9)
}

/// The process's peak resident set size in kB (`VmHWM`), 0 where `/proc` has none.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The model with its doc line kept and every other line joined into one.
fn one_line(text: &str) -> String {
    let (doc, rest) = text.split_once('\n').unwrap_or(("", text));
    let joined: Vec<&str> = rest.lines().map(str::trim).collect();
    format!("{doc}\n{}\n", joined.join(" "))
}

fn show_time(secs: f64) -> String {
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else {
        format!("{:.0} ms", secs * 1e3)
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
