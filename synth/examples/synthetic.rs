//! Prints `sit_synth::synthetic(N)` (N rules, default 10 000): the large model of the pipeline measurements.
//!
//! ```text
//! cargo run --release -p sit-synth --example synthetic -- 10000 > synthetic.sit
//! ```

fn main() {
    let rules = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    print!("{}", sit_synth::synthetic(rules));
}
