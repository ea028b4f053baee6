//! How long formatting takes against parsing the same file, measured in one run
//! (`cargo test --release -p sit-fmt --test speed -- --ignored --nocapture`).

use std::time::Instant;

/// The best of `runs` timings of `f`, in seconds.
fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn formatting_costs_a_small_multiple_of_parsing() {
    let text = sit_synth::synthetic(10_000);
    let parse = best(5, || {
        sit_middle::parse::parse_file(0, &text).unwrap();
    });
    let format = best(5, || {
        sit_fmt::format(0, &text).unwrap();
    });
    let ratio = format / parse;
    eprintln!(
        "{} bytes: parse {:.2} ms, format {:.2} ms (parse included), ratio {ratio:.2}",
        text.len(),
        parse * 1e3,
        format * 1e3
    );
    // Formatting parses once, lexes once more and lays out linearly.
    assert!(ratio < 10.0, "format/parse = {ratio}");
}
