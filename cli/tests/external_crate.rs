//! What a user outside this workspace does: `sitc emit` the Reference FMU
//! models into a crate that depends on `sit-runtime` by path, build it with
//! `RUSTFLAGS=-D warnings`, drive the models through `sit_runtime::Model`,
//! and compare every row with the published results (relative 1e-12); and
//! `sitc run` on the same models gives the same rows.

mod common;
use common::{assert_close, parse_csv};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (file stem, model, dt, steps between rows, rows after the first)
const CASES: &[(&str, &str, f64, u64, u64)] = &[
    ("dahlquist", "Dahlquist", 0.1, 1, 100),
    ("van_der_pol", "VanDerPol", 0.01, 1, 2000),
    ("bouncing_ball", "BouncingBall", 0.001, 10, 300),
    ("stair", "Stair", 0.2, 1, 45),
];

/// The Reference FMU result of `model`.
fn oracle_csv(model: &str) -> String {
    let path = root().join(format!("tests/oracles/reference-fmus/{model}_out.csv"));
    std::fs::read_to_string(path).expect("oracle")
}

/// Compare a trace (header `t,names...`) with the oracle, to relative 1e-12: the oracle
/// README's bound for a C build that may contract multiply-adds.
fn compare(label: &str, csv: &str, model: &str) {
    assert_close(label, csv, &oracle_csv(model), 1e-12);
}

#[test]
fn sitc_run_reproduces_the_reference_fmus() {
    for &(stem, model, dt, every, rows) in CASES {
        let file = root().join(format!("examples/models/{stem}.sit"));
        let (names, _) = parse_csv(&oracle_csv(model));
        let out = Command::new(env!("CARGO_BIN_EXE_sitc"))
            .arg("run")
            .arg(&file)
            .args(["--dt", &dt.to_string()])
            .args(["--t-end", &(dt * (every * rows) as f64).to_string()])
            .args(["--every", &every.to_string()])
            .args(["--record", &names[1..].join(",")])
            .output()
            .expect("sitc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        compare(
            &format!("sitc run {stem}"),
            &String::from_utf8(out.stdout).unwrap(),
            model,
        );
    }
}

#[test]
fn an_external_crate_embeds_sitc_emit_output() {
    let dir = root().join("target/external-crate");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let runtime = root().join("runtime").canonicalize().unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"external\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nsit-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string()
        ),
    )
    .unwrap();
    let mut main = String::from(
        "//! Runs the Reference FMU models emitted by `sitc emit`.\n\n\
         use sit_runtime::Model;\n\n",
    );
    for &(stem, ..) in CASES {
        let out = Command::new(env!("CARGO_BIN_EXE_sitc"))
            .arg("emit")
            .arg(root().join(format!("examples/models/{stem}.sit")))
            .arg("-o")
            .arg(src.join(format!("{stem}.rs")))
            .output()
            .expect("sitc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        main.push_str(&format!("mod {stem};\n"));
    }
    main.push_str(
        "\nfn trace(m: &mut dyn Model, dt: f64, every: u64, rows: u64, names: &[&str]) {\n\
         \x20   let idx: Vec<usize> = names.iter().map(|n| m.var_index(n).expect(\"variable\")).collect();\n\
         \x20   println!(\"t,{}\", names.join(\",\"));\n\
         \x20   for r in 0..=rows {\n\
         \x20       if r > 0 {\n\
         \x20           for _ in 0..every {\n\
         \x20               m.step(dt);\n\
         \x20           }\n\
         \x20       }\n\
         \x20       let vals: Vec<String> = idx.iter().map(|&i| m.get_at(i).unwrap().to_string()).collect();\n\
         \x20       println!(\"{},{}\", m.time(), vals.join(\",\"));\n\
         \x20   }\n\
         }\n\nfn main() {\n\
         \x20   let which = std::env::args().nth(1).unwrap_or_default();\n\
         \x20   match which.as_str() {\n",
    );
    for &(stem, model, dt, every, rows) in CASES {
        let (names, _) = parse_csv(&oracle_csv(model));
        let list: Vec<String> = names[1..].iter().map(|n| format!("{n:?}")).collect();
        main.push_str(&format!(
            "        {stem:?} => trace(&mut {stem}::{model}::new(), {dt:?}, {every}, {rows}, &[{}]),\n",
            list.join(", ")
        ));
    }
    main.push_str("        _ => std::process::exit(2),\n    }\n}\n");
    std::fs::write(src.join("main.rs"), main).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let build = Command::new(&cargo)
        .args(["build", "--quiet", "--offline"])
        .current_dir(&dir)
        .env("RUSTFLAGS", "-D warnings")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo runs");
    assert!(
        build.status.success(),
        "the external crate does not build:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    for &(stem, model, ..) in CASES {
        let exe = dir.join("target/debug/external");
        let out = Command::new(exe).arg(stem).output().expect("runs");
        assert!(out.status.success());
        compare(
            &format!("external {stem}"),
            &String::from_utf8(out.stdout).unwrap(),
            model,
        );
    }
}
