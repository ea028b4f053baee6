//! The generated code of a chain of submodels against its depth (issue 53): for each
//! depth given, the source size, the Rust size and the time to generate it.
//!
//! `cargo run --release -p sit-codegen --example chain_emit -- 25 50 100 150`

use std::time::Instant;

fn main() {
    let depths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a depth"))
        .collect();
    println!("| depth | source | generated Rust | bytes per instance | emit time |");
    println!("|---|---|---|---|---|");
    for d in depths {
        let text = sit_synth::chain(d);
        let t = Instant::now();
        let source = sit_driver::Source::Text {
            path: std::path::Path::new("chain.sit"),
            text: &text,
        };
        let compiled = sit_driver::compile(&source, &Default::default()).expect("a valid chain");
        let code = sit_codegen::generate(&compiled.lowered, &Default::default()).expect("code");
        let took = t.elapsed();
        println!(
            "| {d} | {:.1} KB | {:.2} MB | {:.0} B | {:.2} s |",
            text.len() as f64 / 1e3,
            code.len() as f64 / 1e6,
            code.len() as f64 / (d * (d + 1) / 2) as f64,
            took.as_secs_f64()
        );
    }
}
