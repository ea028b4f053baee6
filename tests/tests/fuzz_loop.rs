//! The in-process fuzz loop of issue 53 (ignored: minutes long): random valid models from `sit_synth` (which draw `prev` of flags and states with two rates under exclusive guards) checked, lowered and interpreted, and each with one of its rates duplicated, which must be refused (E0477).
//!
//! `SIT_FUZZ_SEEDS=N` (default 1 000 000) seeds from `SIT_FUZZ_FROM` (default 0), split
//! over `SIT_FUZZ_THREADS` threads (default 2); run with
//! `cargo test -p sit-tests --test fuzz_loop -- --ignored --nocapture` (the test profile is optimised). It prints
//! the counts and fails on any finding: a generated file that does not check, a panic, a
//! checked program the lowering or the interpreter refuses, a duplicated rate accepted.

use sit_interp::Instance;
use sit_runtime::Model;
use sit_synth::{Size, random_file};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A size that varies with the seed, small enough to run many (as the fuzz targets').
fn size(seed: u64) -> Size {
    Size {
        models: 1 + (seed % 3) as usize,
        reals: 1 + (seed % 5) as usize,
        rules: 2 + (seed % 11) as usize,
    }
}

/// The counts of one run.
#[derive(Default)]
struct Counts {
    files: AtomicU64,
    prev_flags: AtomicU64,
    two_rates: AtomicU64,
    steps: AtomicU64,
    faults: AtomicU64,
    duplicated: AtomicU64,
    findings: std::sync::Mutex<Vec<String>>,
}

impl Counts {
    fn found(&self, what: String) {
        eprintln!("finding: {what}");
        let mut f = self.findings.lock().unwrap_or_else(|e| e.into_inner());
        if f.len() < 20 {
            f.push(what);
        }
    }
}

/// One seed: the file checks, lowers and runs `steps + 1` steps of each root (a reset
/// half way);
/// a copy with a rate written twice is E0477.
fn one(seed: u64, steps: u64, c: &Counts) {
    let text = random_file(seed, size(seed));
    c.files.fetch_add(1, Relaxed);
    if text.contains("prev(q") {
        c.prev_flags.fetch_add(1, Relaxed);
    }
    if text.contains(", 0.5, 2) ") {
        c.two_rates.fetch_add(1, Relaxed);
    }
    let out = sit_middle::check_source("fuzz.sit", &text);
    let Some(program) = out.program.as_ref().filter(|_| !out.has_errors()) else {
        return c.found(format!("seed {seed}: does not check:\n{}", out.render()));
    };
    let lowered = match sit_middle::lower::Lowered::new(program, Default::default()) {
        Ok(l) => l,
        Err(e) => return c.found(format!("seed {seed}: lowering refused: {e}")),
    };
    for root in program.roots() {
        let mut m = match Instance::try_new(&lowered, root) {
            Ok(m) => m,
            Err(e) if e.is_too_large() => continue,
            Err(e) => return c.found(format!("seed {seed}: interpreter refused: {e}")),
        };
        // As the `interpret` fuzz target: 300 steps (by default), a reset half way, one checked step. A
        // model may stop itself (a `sit_runtime` fault: internal steps or events past
        // their limit, a singular iteration matrix, a step underflow): not a finding.
        let run = sit_runtime::catch_fault(|| {
            for k in 0..steps {
                m.step(0.01);
                if k == steps / 2 {
                    m.reset();
                }
            }
            let _ = m.step_checked(0.01);
        });
        match run {
            Ok(()) => c.steps.fetch_add(steps + 1, Relaxed),
            Err(_) => c.faults.fetch_add(1, Relaxed),
        };
    }
    // A rate written twice, unconditionally, at the top level (issue 53's second finding;
    // inside a block whose guard can never hold, two rates would not overlap).
    let top = |l: &&str| l.starts_with("    ") && !l.starts_with("     ");
    if let Some(line) = text
        .lines()
        .filter(top)
        .find(|l| l.contains("= integral(") && !l.contains("otherwise") && !l.contains(" when "))
    {
        let twice = text.replacen(line, &format!("{line}\n{line}"), 1);
        let out = sit_middle::check_source("fuzz.sit", &twice);
        c.duplicated.fetch_add(1, Relaxed);
        if !out.diagnostics.iter().any(|d| d.code == "E0477") || out.program.is_some() {
            c.found(format!(
                "seed {seed}: a rate written twice is accepted: {line}"
            ));
        }
    }
}

#[test]
#[ignore = "minutes long: the fuzz run of issue 53, recorded in fuzz/README.md"]
fn synth_check_lower_interpret_loop() {
    let (from, n, threads) = (
        env("SIT_FUZZ_FROM", 0),
        env("SIT_FUZZ_SEEDS", 1_000_000),
        env("SIT_FUZZ_THREADS", 2).max(1),
    );
    let steps = env("SIT_FUZZ_STEPS", 300);
    sit_runtime::quiet_fault_panics();
    let c = Counts::default();
    let next = AtomicU64::new(from);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let seed = next.fetch_add(1, Relaxed);
                    if seed >= from + n {
                        break;
                    }
                    if catch_unwind(AssertUnwindSafe(|| one(seed, steps, &c))).is_err() {
                        c.found(format!("seed {seed}: panicked"));
                    }
                    if (seed - from + 1).is_multiple_of(10_000) {
                        eprintln!(
                            "{} seeds started, {} done, {:.0} s",
                            seed - from + 1,
                            c.files.load(Relaxed),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let findings = c.findings.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "seeds {from}..{}: {} files ({} with prev of a flag, {} with two rates under exclusive \
         guards), {} interpreted steps, {} runs stopped by a model fault, {} duplicated rates \
         refused, {:.0} s, {} findings",
        from + n,
        c.files.load(Relaxed),
        c.prev_flags.load(Relaxed),
        c.two_rates.load(Relaxed),
        c.steps.load(Relaxed),
        c.faults.load(Relaxed),
        c.duplicated.load(Relaxed),
        start.elapsed().as_secs_f64(),
        findings.len()
    );
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}
