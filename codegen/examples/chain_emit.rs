//! The generated code of a chain of submodels against its depth (issue 53): for each
//! depth given, the source size, the Rust size (in all and per model of the chain) and
//! the time to check, lower and generate it. With `SIT_CHAIN_OUT=DIR`, each generated
//! file is also written to `DIR/chain_DEPTH.rs`; with `SIT_CHAIN_EVENTS=1`, the program
//! is prepared for the event log (`sitc emit --events`: each model's `event_table()`).
//!
//! `cargo run --release -p sit-codegen --example chain_emit -- 25 50 100 150`

use std::time::Instant;

fn main() {
    let depths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a depth"))
        .collect();
    let out = std::env::var_os("SIT_CHAIN_OUT").map(std::path::PathBuf::from);
    let opts = sit_driver::Options {
        events: std::env::var_os("SIT_CHAIN_EVENTS").is_some(),
        ..Default::default()
    };
    println!("| depth | source | generated Rust | per model | emit time |");
    println!("|---|---|---|---|---|");
    for d in depths {
        let text = sit_synth::chain(d);
        let t = Instant::now();
        let source = sit_driver::Source::Text {
            path: std::path::Path::new("chain.sit"),
            text: &text,
        };
        let compiled = sit_driver::compile(&source, &opts).expect("a valid chain");
        let code = sit_codegen::generate(&compiled.lowered, &Default::default()).expect("code");
        let took = t.elapsed();
        println!(
            "| {d} | {:.1} KB | {:.2} MB | {:.1} KB | {:.2} s |",
            text.len() as f64 / 1e3,
            code.len() as f64 / 1e6,
            code.len() as f64 / 1e3 / d.max(1) as f64,
            took.as_secs_f64()
        );
        if let Some(dir) = &out {
            std::fs::write(dir.join(format!("chain_{d}.rs")), &code).expect("written");
        }
    }
}
