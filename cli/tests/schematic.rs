//! `sitc schematic` and `.sch` files given to `check`, `run`, `emit`, `sweep`, and a
//! `.sit` model importing a schematic as a submodel.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::str::contains;

const AXLE: &str = "examples/schematics/drive_axle.sch";

fn sitc() -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sitc");
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn prints_the_matrices_as_tables() {
    insta::assert_snapshot!(
        "drive_axle_tables",
        stdout(sitc().args(["schematic", AXLE]))
    );
    // Under the tables, which form of the equations `--sit` writes.
    let printed = stdout(sitc().args(["schematic", AXLE, "--form", "printed"]));
    insta::assert_snapshot!(
        "drive_axle_tables_printed_form_note",
        &printed[printed.find("Equations").expect("the note")..]
    );
}

#[test]
fn prints_the_matrices_as_json() {
    let text = stdout(sitc().args(["schematic", AXLE, "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        v["matrices"]["elastic"],
        serde_json::json!([[-1], [1], [1]])
    );
    assert_eq!(v["matrices"]["inertial"][0], serde_json::json!([-1, 0, 0]));
    assert_eq!(v["matrices"]["transformer"][2], serde_json::json!([1, 1]));
    assert_eq!(v["rows"], serde_json::json!(["J1", "J2", "J3"]));
}

#[test]
fn prints_the_generated_model_in_either_form() {
    let consistent = stdout(sitc().args(["schematic", AXLE, "--sit"]));
    assert!(
        consistent.contains("w_J1 = integral((M1 - 2 * (My_D1 + Md0_D1) / u_T1 / eta_T1) / J1);")
    );
    let printed = stdout(sitc().args(["schematic", AXLE, "--sit", "--form", "printed"]));
    assert!(printed.contains("w_J1 = integral((M1 - (My_D1 + Md0_D1) / u_T1 / eta_T1) / J1);"));
}

#[test]
fn draws_an_svg() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("axle.svg");
    sitc()
        .args(["schematic", AXLE, "--svg"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    for label in ["J1", "J2", "J3", "D1", "T1i", "T3o", "+M1", "−M2"] {
        assert!(text.contains(&format!(">{label}<")), "no label {label}");
    }
}

/// `--svg -` is standard output, as in every Unix tool: the same drawing, alone; with
/// `--sit` (also on standard output) a usage error.
#[test]
fn draws_an_svg_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("axle.svg");
    sitc()
        .args(["schematic", AXLE, "--svg"])
        .arg(&svg)
        .assert()
        .success();
    let on_stdout = stdout(sitc().args(["schematic", AXLE, "--svg", "-"]));
    assert_eq!(on_stdout, std::fs::read_to_string(&svg).unwrap());
    sitc()
        .args(["schematic", AXLE, "--svg", "-", "--sit"])
        .assert()
        .code(2)
        .stderr(contains("cannot both go to standard output"));
}

#[test]
fn check_run_emit_and_sweep_accept_schematics() {
    sitc().args(["check", AXLE]).assert().success();
    let trace = stdout(sitc().args([
        "run", AXLE, "--dt", "1e-3", "--t-end", "0.01", "--every", "10",
    ]));
    assert!(
        trace.starts_with("t,w_J1,w_J2,w_J3,My_D1,Md_D1,M1,M2,M3\n"),
        "{trace}"
    );
    let code = stdout(sitc().args(["emit", AXLE]));
    assert!(code.contains("pub struct DriveAxle"), "{code}");
    let sweep = stdout(sitc().args([
        "sweep",
        AXLE,
        "--dt",
        "1e-3",
        "--t-end",
        "0.01",
        "--param",
        "M_res=0,21923",
    ]));
    assert_eq!(sweep.lines().count(), 3, "{sweep}");
    let info = stdout(sitc().args(["info", AXLE]));
    assert!(info.contains("w_J1") && info.contains("My_D1"), "{info}");
}

#[test]
fn malformed_schematics_exit_1_with_located_errors() {
    sitc()
        .args(["check", "schematic/tests/malformed/gap_in_shaft.sch"])
        .assert()
        .code(1)
        .stderr(contains("gap_in_shaft.sch:4:14: error[E0503]"));
    sitc()
        .args([
            "schematic",
            "schematic/tests/malformed/gear_without_partner.sch",
        ])
        .assert()
        .code(1)
        .stderr(contains("error[E0506]"));
    sitc()
        .args([
            "check",
            "--format",
            "json",
            "schematic/tests/malformed/ragged_row.sch",
        ])
        .assert()
        .code(1)
        .stdout(contains("\"code\":\"E0502\""));
    sitc()
        .args([
            "schematic",
            "--format",
            "json",
            "schematic/tests/malformed/ragged_row.sch",
        ])
        .assert()
        .code(1)
        .stdout(contains("\"code\":\"E0502\""));
}

#[test]
fn errors_in_copied_expressions_point_into_the_schematic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.sch");
    std::fs::write(
        &path,
        "schematic Bad {\n    grid {\n        J1 K J2\n    }\n    inertia J1 (J = 1);\n    inertia J2 (J = 1);\n    spring K (c = 100);\n    action M on +J1 = torque * 2;\n}\n",
    )
    .unwrap();
    sitc()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains("bad.sch:8:23: error[E0101]"));
}

#[test]
fn a_sit_model_drives_a_schematic_as_a_submodel() {
    let trace = stdout(sitc().args([
        "run",
        "examples/schematics/axle_cruise.sit",
        "--dt",
        "1e-3",
        "--t-end",
        "20",
        "--every",
        "20000",
    ]));
    let last = trace.lines().last().unwrap();
    let cols: Vec<f64> = last.split(',').map(|c| c.parse().unwrap()).collect();
    // A proportional governor: the wheel settles a little below the target (7.5 rad/s)
    // where the pedal's engine torque balances the wheels' resistance.
    let (w, pedal) = (cols[1], cols[2]);
    let (u1, u2, eta) = (2.05, 9.4, 0.97);
    let needed = 2.0 * 21923.0 / (u2 * eta) / (u1 * eta);
    let w1 = w * u1 * u2;
    let engine = pedal * 4000.0 * (1.0 - (w1 / 250.0).powi(2));
    assert!(
        (engine - needed).abs() < 1e-3 * needed,
        "{engine} vs {needed}"
    );
    assert!((pedal - (0.5 + 2.0 * (7.5 - w))).abs() < 1e-9);
}

#[test]
fn the_build_script_front_end_compiles_a_schematic() {
    let dir = tempfile::tempdir().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let written = sit_build::Builder::new()
        .file(format!("{root}/{AXLE}"))
        .out_dir(dir.path())
        .cargo_directives(false)
        .compile()
        .expect("compiles");
    let code = std::fs::read_to_string(&written[0]).unwrap();
    assert!(code.contains("pub struct DriveAxle"));
    // Only files that exist are tracked for rebuilding (not the in-memory model).
    let generated = sit_build::compile_file(format!("{root}/{AXLE}")).unwrap();
    assert_eq!(generated.files.len(), 1);
    assert!(generated.files[0].ends_with("drive_axle.sch"));
}

#[test]
fn the_drawings_in_the_docs_are_current() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "drive_axle",
        "drive_axle_convoluted",
        "drivetrain",
        "clutch",
    ] {
        let svg = dir.path().join(format!("{name}.svg"));
        sitc()
            .args([
                "schematic",
                &format!("examples/schematics/{name}.sch"),
                "--svg",
            ])
            .arg(&svg)
            .assert()
            .success();
        let committed = std::fs::read_to_string(format!(
            "{}/../docs/img/schematic_{name}.svg",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&svg).unwrap(),
            committed,
            "docs/img/schematic_{name}.svg is stale: run `sitc schematic examples/schematics/{name}.sch --svg docs/img/schematic_{name}.svg`"
        );
    }
}
