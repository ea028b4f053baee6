//! `sitc info`: the text and JSON listings of library models (snapshots), every kind of
//! variable, and the error cases (exit codes 1 and 2, as for `sitc run`).

use assert_cmd::cargo::cargo_bin_cmd;

/// The workspace root.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// `sitc ARGS` run from the workspace root: the exit code, stdout and stderr.
fn sitc(args: &[&str]) -> (i32, String, String) {
    sitc_in(std::path::Path::new(ROOT), args)
}

/// `sitc ARGS` run from `dir`: the exit code, stdout and stderr.
fn sitc_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("sitc")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("sitc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The standard output of a successful `sitc ARGS` (nothing on stderr).
fn listing(args: &[&str]) -> String {
    let (code, out, err) = sitc(args);
    assert_eq!((code, err.as_str()), (0, ""), "sitc {args:?}");
    out
}

/// The standard output of a successful `sitc ARGS` run from `dir` (nothing on stderr).
fn listing_in(dir: &std::path::Path, args: &[&str]) -> String {
    let (code, out, err) = sitc_in(dir, args);
    assert_eq!((code, err.as_str()), (0, ""), "sitc {args:?}");
    out
}

/// The JSON of `sitc info FILE --format json`.
fn json(file: &str) -> serde_json::Value {
    serde_json::from_str(&listing(&["info", file, "--format", "json"])).expect("valid JSON")
}

/// `exit N`, stdout, then stderr.
fn failure(args: &[&str]) -> String {
    let (code, out, err) = sitc(args);
    format!("exit {code}\n--- stdout\n{out}--- stderr\n{err}")
}

const COORDINATOR: &str = "examples/models/complex/coordinator.sit";
const HOOP: &str = "examples/models/hoop.sit";

#[test]
fn text_listings() {
    insta::assert_snapshot!("coordinator_text", listing(&["info", COORDINATOR]));
    insta::assert_snapshot!("hoop_text", listing(&["info", HOOP]));
}

#[test]
fn json_listings() {
    insta::assert_snapshot!(
        "coordinator_json",
        listing(&["info", COORDINATOR, "--format", "json"])
    );
    insta::assert_snapshot!("hoop_json", listing(&["info", HOOP, "--format", "json"]));
}

#[test]
fn json_tree_follows_the_sources() {
    let c = json(COORDINATOR);
    assert_eq!(c["model"], "Coordinator");
    let p1 = &c["submodels"][0];
    assert_eq!(p1["name"], "p1");
    assert_eq!(p1["model"], "Positioning");
    assert_eq!(p1["initially_on"], true);
    assert_eq!(p1["bindings"]["tilt"], "tilt1");
    // Three levels: Coordinator > Positioning > Roll.
    let roll = &p1["submodels"][0];
    assert_eq!(roll["model"], "Roll");
    assert_eq!(roll["file"], "examples/models/complex/positioning.sit");
    let hold = (roll["variables"].as_array().unwrap().iter())
        .find(|v| v["name"] == "hold")
        .expect("Roll has `hold`");
    assert_eq!(hold["kind"], "input");
    assert_eq!(hold["type"], "flag");
    assert_eq!(hold["file"], "examples/models/complex/roll.sit");
}

/// Checks that every variable and instance of `tree` (recursively) is located at its
/// name, and that a written value is found in the source text after it.
fn located_at_names(tree: &serde_json::Value) {
    let at = |v: &serde_json::Value| -> String {
        let text = std::fs::read_to_string(
            std::path::Path::new(ROOT).join(v["file"].as_str().expect("file")),
        )
        .expect("readable");
        let line = (text.lines())
            .nth(v["line"].as_u64().expect("line") as usize - 1)
            .expect("line exists")
            .to_string();
        line.chars()
            .skip(v["column"].as_u64().expect("column") as usize - 1)
            .collect()
    };
    for v in tree["variables"].as_array().expect("variables") {
        let from_name = at(v);
        let name = v["name"].as_str().unwrap();
        if let Some((_, inside)) = name.split_once('.') {
            // A part's variable (`src.p.v`, flattened into its holder) is located at its
            // declaration in the component (`v`), or at the port's (`p`) for a
            // connector's variable; its value is the part's.
            assert!(
                inside.split('.').any(|seg| from_name.starts_with(seg)),
                "{v}"
            );
            continue;
        }
        if let Some((array, _)) = name.split_once('[') {
            // A cell of an array (`T[3]`) is located at the array's declaration, its
            // initial value the array's, as written.
            assert!(from_name.starts_with(&format!("{array}[")), "{v}");
            continue;
        }
        assert!(from_name.starts_with(name), "{v}");
        let init = v["init"].as_str().unwrap();
        let rest = from_name[v["name"].as_str().unwrap().len()..].trim_start();
        // A declared unit (`h [m] = 10`) stands between the name and the value.
        let rest = match rest.strip_prefix('[') {
            Some(unit) => unit.split_once(']').map_or(rest, |(_, r)| r.trim_start()),
            None => rest,
        };
        let one_line = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        if v["kind"] == "mode" {
            // A mode starts in its first state.
            assert_eq!(v["states"][0], v["init"], "{v}");
        } else if !rest.starts_with('=') {
            // No value written: the implicit one.
            assert!(["0", "false"].contains(&init), "{v}");
        } else if rest.contains(';') {
            // A value written on this line follows the name (one that goes on over several
            // lines is shown with its white space made single spaces).
            assert!(one_line.starts_with(&format!("= {init}")), "{v}");
        }
    }
    for s in tree["submodels"].as_array().expect("submodels") {
        assert!(at(s).starts_with(s["name"].as_str().unwrap()), "{s}");
        located_at_names(s);
    }
}

/// The names of `tree`'s `without_unit` lists, its submodels' first, by model.
fn without_unit(tree: &serde_json::Value, out: &mut Vec<String>) {
    for sub in tree["submodels"].as_array().into_iter().flatten() {
        without_unit(sub, out);
    }
    for name in tree["without_unit"].as_array().into_iter().flatten() {
        out.push(format!(
            "{}.{}",
            tree["model"].as_str().unwrap(),
            name.as_str().unwrap()
        ));
    }
}

/// Every library model is listed at its names, and carries units (issue 30): the
/// real variables without one are those of the models written without a time in
/// seconds (see docs/examples.md).
#[test]
fn every_library_model_is_listed_at_its_names() {
    let mut files = vec!["examples/schematics/axle_cruise.sit".to_string()];
    for dir in [
        "examples/models",
        "examples/models/complex",
        "examples/models/painleve",
    ] {
        for entry in std::fs::read_dir(std::path::Path::new(ROOT).join(dir)).expect("dir") {
            let name = entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("utf-8");
            if name.ends_with(".sit") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        // Files of the complex folder that are imported are not roots alone; they are
        // listed as their own root when given (the one model they define).
        let tree = json(file);
        // A schematic's generated model is located in its drawing, not at names.
        if !file.starts_with("examples/schematics/") {
            located_at_names(&tree);
        }
        let mut without = Vec::new();
        without_unit(&tree, &mut without);
        let dimensionless = [
            "van_der_pol.sit",
            "rod.sit",
            "fast_motion.sit",
            "fast_motion_relay.sit",
        ];
        if dimensionless
            .iter()
            .any(|f| file.ends_with(&format!("/{f}")))
        {
            assert!(!without.is_empty(), "{file}");
        } else {
            assert_eq!(without, Vec::<String>::new(), "{file}");
        }
    }
    // A model with units lists the real variables that stay without one.
    let dir = tempfile::tempdir().expect("temp dir");
    let model = "model M {\n    param k [1/s] = 1;\n    output real x = 1;\n    output real n;\n    \
                 x = integral(-k * x);\n    n = n + 1;\n}\n";
    std::fs::write(dir.path().join("m.sit"), model).unwrap();
    let text = listing_in(dir.path(), &["info", "m.sit"]);
    // `x = integral(-k * x)` holds in any unit of `x`: nothing tells which.
    assert!(text.ends_with("\n  without a unit: x, n\n"), "{text}");
    let tree: serde_json::Value = serde_json::from_str(&listing_in(
        dir.path(),
        &["info", "m.sit", "--format", "json"],
    ))
    .unwrap();
    assert_eq!(tree["without_unit"], serde_json::json!(["x", "n"]));
}

/// Every kind, the implicit values, a value over several lines, non-ASCII columns and
/// a submodel declared `off`.
const KINDS: &str = "
model Leaf {
    /// The gain.
    /// Second line.
    param k = 2;
    output real y;
    y = k;
}
model Kinds {
    param a = 1;
    param b = 2 *
        a;
    input real u;
    input flag go = true;
    /* é */ real x;
    output flag f;
    output pred high = x >= 1;
    output situation ready = f & go;
    output event rise = x > 0.5;
    sub leaf: Leaf(k = b) off;
    x = integral(u + leaf.y);
}
";

#[test]
fn every_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("kinds.sit");
    std::fs::write(&path, KINDS).expect("write");
    let (code, text, err) = sitc_in(dir.path(), &["info", "kinds.sit"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("kinds_text", text);
    let path = path.to_str().expect("utf-8 path");
    let j = json(path);
    let kinds: Vec<_> = (j["variables"].as_array().unwrap().iter())
        .map(|v| {
            format!(
                "{} {} {} {} {}",
                v["name"], v["kind"], v["type"], v["output"], v["init"]
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            r#""a" "param" "real" false "1""#,
            r#""b" "derived param" "real" false "2 * a""#,
            r#""u" "input" "real" false "0""#,
            r#""go" "input" "flag" false "true""#,
            r#""x" "state" "real" false "0""#,
            r#""f" "flag" "flag" true "false""#,
            r#""high" "pred" "flag" true "x >= 1""#,
            r#""ready" "situation" "flag" true "f & go""#,
            r#""rise" "event" "flag" true "x > 0.5""#,
        ]
    );
    // Columns count characters: `é` is one, though two bytes (19 in bytes).
    assert_eq!(j["variables"][4]["column"], 18);
    let leaf = &j["submodels"][0];
    assert_eq!(leaf["initially_on"], false);
    assert_eq!(leaf["variables"][0]["doc"], "The gain.\nSecond line.");
}

#[test]
fn errors_like_run() {
    let bad = "builder/tests/front_ends/bad.sit";
    let warns = "builder/tests/front_ends/warns.sit";
    insta::assert_snapshot!("model_errors", failure(&["info", bad]));
    insta::assert_snapshot!("model_warnings", failure(&["info", warns]));
    insta::assert_snapshot!("missing_file", failure(&["info", "no/such.sit"]));
    insta::assert_snapshot!(
        "unknown_model",
        failure(&["info", COORDINATOR, "--model", "Coordinatr"])
    );
    insta::assert_snapshot!(
        "unknown_model_no_suggestion",
        failure(&["info", HOOP, "--model", "Zzz"])
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("two.sit"),
        "model A { output real x = 1; }\nmodel B { output real y = 2; }\n",
    )
    .expect("write");
    let (code, out, err) = sitc_in(dir.path(), &["info", "two.sit"]);
    insta::assert_snapshot!(
        "ambiguous_root",
        format!("exit {code}\n--- stdout\n{out}--- stderr\n{err}")
    );
    assert!(listing_in(dir.path(), &["info", "two.sit", "--model", "B"]).starts_with("model B\n"));
    insta::assert_snapshot!("bad_format", failure(&["info", HOOP, "--format", "yaml"]));
    // The same exit codes as `sitc run`.
    for args in [
        [bad, "--model", "X"],
        [COORDINATOR, "--model", "Coordinatr"],
    ] {
        let info = sitc(&[&["info"], &args[..]].concat()).0;
        let run = sitc(&[&["run"], &args[..], &["--t-end", "0"]].concat()).0;
        assert_eq!(info, run, "{args:?}");
    }
}

#[test]
fn the_integration_method_is_shown_when_not_euler() {
    let dir = tempfile::tempdir().unwrap();
    let model = "model Decay { method rk4; output real x = 1; x = integral(-x); }";
    std::fs::write(dir.path().join("decay.sit"), model).unwrap();
    let text = listing_in(dir.path(), &["info", "decay.sit"]);
    assert!(text.starts_with("model Decay (method rk4)\n"), "{text}");
    let out = listing_in(dir.path(), &["info", "decay.sit", "--format", "json"]);
    let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(listed["method"], "rk4");
    // Under euler, the default, nothing is added.
    assert!(json("examples/models/pendulum.sit").get("method").is_none());
}

#[test]
fn a_method_adds_no_variable_to_the_listing() {
    // dopri5's memories are hidden states: the listing has the model's own variables.
    let dir = tempfile::tempdir().unwrap();
    let model = "model Decay { method dopri5; output real x = 1; x = integral(-x); }";
    std::fs::write(dir.path().join("decay.sit"), model).unwrap();
    let out = listing_in(dir.path(), &["info", "decay.sit", "--format", "json"]);
    let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = (listed["variables"].as_array().unwrap().iter())
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["x"]);
}

/// `--jacobian`: the pattern and tangent rules of a model with stage rules (the van der
/// Pol oscillator's `der_x1` reads both states), a table's slope (the vehicle), and the
/// pattern as JSON; a model without continuous states says it has no Jacobian.
#[test]
fn the_jacobian_is_listed() {
    insta::assert_snapshot!(
        "jacobian_van_der_pol",
        listing(&["info", "examples/models/van_der_pol.sit", "--jacobian"])
    );
    let vehicle = listing(&["info", "examples/models/vehicle.sit", "--jacobian"]);
    assert!(
        vehicle.contains("d M/d v = (slope_1(torque; w_engine, pedal) * d w_engine/d v)"),
        "{vehicle}"
    );
    let json: serde_json::Value = serde_json::from_str(&listing(&[
        "info",
        "examples/models/van_der_pol.sit",
        "--jacobian",
        "--format",
        "json",
    ]))
    .expect("valid JSON");
    assert_eq!(json["states"], serde_json::json!(["x0", "x1"]));
    assert_eq!(json["pattern"], serde_json::json!([[1], [0, 1]]));
    assert_eq!(json["nonzeros"], 3);
    let none = listing(&["info", "examples/models/traffic.sit", "--jacobian"]);
    assert!(none.contains("has no continuous states"), "{none}");
    // A rate reading a stage value before its rule: no stage pass, so no Jacobian.
    let dir = std::env::temp_dir().join(format!("sit_info_jacobian_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("late.sit"),
        "model Late {\n    real x = 1;\n    real a;\n    x = integral(a);\n    a = -x;\n}\n",
    )
    .unwrap();
    let (code, _, err) = sitc_in(&dir, &["info", "late.sit", "--jacobian"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[E0472]"), "{err}");
    // Worded for the Jacobian: the model's method is euler, no `method rk4` is involved.
    assert!(
        err.contains("the Jacobian differentiates, `a` is read before") && !err.contains("rk4"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 47: a variable assigned by an unguarded rule in every step is never `held`,
/// even when it reads a value of an earlier step (`earlier`); a recurrence on its own
/// previous value (`prev(e) + 1`) changes in every step.
#[test]
fn a_variable_assigned_in_every_step_is_not_held() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("rows.sit"),
        "model M {
    output real a, b, e, t_off;
    event go = b > 1;
    a = prev(b) + 1;
    b = 2 * time;
    e = prev(e) + 1;
    t_off = time when go;
}
",
    )
    .expect("write");
    let (code, out, err) = sitc_in(dir.path(), &["info", "rows.sit", "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let j: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let rows: Vec<String> = (j["variables"].as_array().unwrap().iter())
        .map(|v| {
            format!(
                "{}={}",
                v["name"].as_str().unwrap(),
                v["row"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        rows,
        ["a=earlier", "b=t-dt", "e=t", "t_off=held", "go=t-dt"]
    );
}

/// The blocks of a model's equations, in the order solved: an equation rearranged, a
/// linear loop by substitution, and a diode's loop by Newton's iteration on its tearing
/// unknown, with where the equations are (text and JSON).
#[test]
fn equation_blocks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "model Clip {\n    param Is = 1e-12, Vt = 0.025, R = 1000, g = 0.5;\n    \
                output real v, i, u, e, y;\n    u = 5 * sin(time);\n    \
                equation i = Is * (exp(v / Vt) - 1);\n    equation u - v = R * i;\n    \
                equation e = u - y;\n    equation y = g * e;\n}\n";
    std::fs::write(dir.path().join("clip.sit"), text).expect("written");
    let out = listing_in(dir.path(), &["info", "clip.sit"]);
    let blocks = out
        .split_once("  equations, in the order solved:\n")
        .expect("listed")
        .1;
    assert_eq!(
        blocks,
        "    i, v  loop of 2, Newton on v (12 steps, needed: v_newton_steps)  clip.sit:5,6\n    \
         e, y  loop of 2, substitution                                    clip.sit:7,8\n"
    );
    let json: serde_json::Value = serde_json::from_str(&listing_in(
        dir.path(),
        &["info", "clip.sit", "--format", "json"],
    ))
    .expect("valid JSON");
    assert_eq!(
        json["equations"],
        serde_json::json!([
            {"unknowns": ["i", "v"], "lines": [5, 6], "solved": "newton", "tearing": ["v"], "steps": 12, "count": "v_newton_steps"},
            {"unknowns": ["e", "y"], "lines": [7, 8], "solved": "substitution"},
        ])
    );
}
