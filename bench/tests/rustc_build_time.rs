//! rustc's time on the code generated for synthetic models of 100, 1 000 and 10 000
//! rules (ignored: it runs cargo several times; see `docs/performance.md`).
//!
//! For each size, a throwaway crate under `target/sit-bench-rustc/` depending on
//! `sit-runtime` is first built with an empty `lib.rs` (so that its dependencies are
//! compiled and not timed), then with the generated code as `lib.rs`, timed, once in
//! the release and once in the dev profile. Run:
//!
//! ```text
//! cargo test -p sit-bench --release --test rustc_build_time -- --ignored --nocapture
//! ```

use sit_bench::WORKSPACE;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Rules of the synthetic models.
const SIZES: &[usize] = &[100, 1_000, 10_000];

fn cargo_build(dir: &Path, target: &Path, release: bool) -> Duration {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.arg("build")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        // One rustc at a time, as in a crate with one big module; the machine is shared.
        .env("CARGO_BUILD_JOBS", "1");
    if release {
        cmd.arg("--release");
    }
    let start = Instant::now();
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo: {e}"));
    let elapsed = start.elapsed();
    assert!(status.success(), "cargo build of {} failed", dir.display());
    elapsed
}

fn write_crate(dir: &Path, name: &str, lib: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nsit-runtime = {{ path = \"{WORKSPACE}/runtime\" }}\n\n\
         # Not part of the Sit workspace around it.\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file pins the same dependency versions (cargo prunes the rest).
    std::fs::copy(format!("{WORKSPACE}/Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
}

#[test]
#[ignore = "runs cargo build on generated crates, a minute or more; see docs/performance.md"]
fn rustc_build_time_of_generated_code() {
    let root = PathBuf::from(WORKSPACE).join("target/sit-bench-rustc");
    let target = root.join("target");
    println!("rules  lines  emitted_bytes  release_s  dev_s");
    for &rules in SIZES {
        let text = sit_synth::synthetic(rules);
        let out = sit_middle::check_source(format!("synthetic{rules}.sit"), &text);
        let program = out.program.expect("synthetic models check");
        let code = sit_codegen::generate(
            &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
            &Default::default(),
        )
        .expect("generates");
        let name = format!("synthetic{rules}");
        let dir = root.join(&name);
        let mut times = Vec::new();
        for release in [true, false] {
            write_crate(&dir, &name, "");
            cargo_build(&dir, &target, release);
            write_crate(&dir, &name, &code);
            times.push(cargo_build(&dir, &target, release));
        }
        println!(
            "{rules:>5}  {:>5}  {:>13}  {:>9.2}  {:>5.2}",
            code.lines().count(),
            code.len(),
            times[0].as_secs_f64(),
            times[1].as_secs_f64()
        );
        // The crate did build (asserted above); an empty file would not be a measurement.
        assert!(code.contains(&format!("pub struct Synthetic{rules}")));
    }
}
