//! The front end's peak memory grows linearly with its input, measured in child processes.
//!
//! For each pathological family, this test binary runs itself three times as a
//! child process (the same test, selected by name, with [`ENV`] set to a size
//! `k`): one child checks the family at size 0 (the baseline: the process and
//! its test harness), one at `k` (megabytes of input) and one at `2k`. Each
//! child generates its input, checks it, renders the diagnostics, then prints
//! its peak resident memory (`VmHWM` in `/proc/self/status`). The memory the
//! larger input needs over the baseline is at most [`MAX_RATIO`] times what
//! the smaller one needs. Peak memory does not depend on the machine's load,
//! so one measurement suffices; the input text itself is counted, as it is
//! part of what checking a file holds.
#![cfg(target_os = "linux")]

use std::fmt::Write as _;
use std::process::Command;

/// The variable that makes a test a child: the size of the input to check.
const ENV: &str = "SIT_GROWTH_MEMORY_K";
/// The line a child prints: its peak resident memory in KiB, then the input's size in bytes.
const MARK: &str = "sit-growth-memory: peak_kib=";
/// The largest accepted ratio of memory over the baseline between an input
/// and one half its size.
const MAX_RATIO: f64 = 2.5;
/// The smaller input must need at least this much memory over the baseline
/// (KiB), so that the baseline's noise does not decide the ratio.
const MIN_GROWTH_KIB: u64 = 2048;

/// This process's peak resident memory (`VmHWM`), in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("a VmHWM line");
    line.trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("VmHWM in kB")
}

/// In a child: check `family(k)`, render, print the peak memory.
fn child(family: fn(usize) -> String, k: usize) {
    let text = family(k);
    let out = sit_middle::check_source("growth.sit", &text);
    let rendered = out.render();
    std::hint::black_box((&out, &rendered));
    println!(
        "{MARK}{} bytes={} diagnostics={}",
        peak_kib(),
        text.len(),
        out.diagnostics.len()
    );
}

/// Run the test `test` of this binary as a child checking `family(k)`:
/// (peak memory in KiB, input bytes).
fn probe(test: &str, k: usize) -> (u64, u64) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(ENV, k.to_string())
        .output()
        .expect("run the test binary as a child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.split_once(MARK).map(|(_, rest)| rest))
        .unwrap_or_else(|| {
            panic!(
                "{test} (k = {k}) printed no peak:\n{stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let mut fields = line.split_whitespace();
    let peak = fields.next().and_then(|f| f.parse().ok()).expect("peak");
    let bytes = fields
        .next()
        .and_then(|f| f.strip_prefix("bytes="))
        .and_then(|f| f.parse().ok())
        .expect("bytes");
    (peak, bytes)
}

/// The test `test` asserts that checking `family(2k)` needs at most
/// [`MAX_RATIO`] times the memory over the baseline of `family(k)`; run as a
/// child (with [`ENV`] set), it measures one size instead.
fn assert_memory_linear(test: &str, family: fn(usize) -> String, k: usize) {
    if let Ok(size) = std::env::var(ENV) {
        child(family, size.parse().expect("a size"));
        return;
    }
    let (base, _) = probe(test, 0);
    let (small, small_bytes) = probe(test, k);
    let (large, large_bytes) = probe(test, 2 * k);
    let report = format!(
        "baseline {base} KiB; {small_bytes} bytes: {small} KiB; {large_bytes} bytes: {large} KiB"
    );
    assert!(
        large_bytes as f64 >= 1.8 * small_bytes as f64,
        "{test}: the family does not grow ({report})"
    );
    let (grow_small, grow_large) = (small.saturating_sub(base), large.saturating_sub(base));
    assert!(
        grow_small >= MIN_GROWTH_KIB,
        "{test}: the smaller input is too small to measure ({report})"
    );
    let ratio = grow_large as f64 / grow_small as f64;
    eprintln!("{test}: {report}; growth ratio {ratio:.2}");
    assert!(
        ratio <= MAX_RATIO,
        "{test}: memory grows faster than linearly, {ratio:.2}x ({report})"
    );
}

/// The synthetic model of `k` rules, one declaration or rule per line.
fn synthetic_per_line(k: usize) -> String {
    sit_synth::synthetic(k)
}

/// The synthetic model of `k` rules with all its declarations on one line.
fn synthetic_one_line(k: usize) -> String {
    let text = sit_synth::synthetic(k);
    let (doc, rest) = text.split_once('\n').expect("a doc line");
    format!("{doc}\n{}\n", rest.replace('\n', " "))
}

#[test]
fn synthetic_model_per_line() {
    assert_memory_linear("synthetic_model_per_line", synthetic_per_line, 20_000);
}

#[test]
fn synthetic_model_on_one_line() {
    assert_memory_linear("synthetic_model_on_one_line", synthetic_one_line, 20_000);
}

/// `k` chains of block comments nested 63 deep holding doc comments (the
/// family of issue 21), each closed, then one left unterminated.
#[test]
fn nested_comments_with_doc_comments() {
    fn family(k: usize) -> String {
        let level = "/*/// A time-optimal (ban";
        let unit = format!("{}{}\n", level.repeat(63), "*/".repeat(63));
        format!(
            "{}model M {{\n    output real x = 1;\n    x = integral(-x);\n}}\n{}",
            unit.repeat(k),
            level.repeat(63)
        )
    }
    assert_memory_linear("nested_comments_with_doc_comments", family, 600);
}

/// A syntax error on each of `k` lines, between valid rules.
#[test]
fn many_syntax_errors() {
    fn family(k: usize) -> String {
        let mut s = String::from("model M {\n    output real x = 1;\n");
        for i in 0..k {
            let _ = writeln!(s, "    x = x * {i} + ;\n    x = integral(-x) when x > {i};");
        }
        s + "}\n"
    }
    assert_memory_linear("many_syntax_errors", family, 16_000);
}

/// `k` unread states, one per line: `k` warnings, all rendered.
#[test]
fn thousands_of_warnings() {
    fn family(k: usize) -> String {
        let mut s = String::from("model M {\n");
        for i in 0..k {
            let _ = writeln!(s, "    real a{i} = 1;");
        }
        s + "}\n"
    }
    assert_memory_linear("thousands_of_warnings", family, 50_000);
}
