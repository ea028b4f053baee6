//! The paper's worked example: the matrices of `examples/schematics/drive_axle.sch`
//! equal Tables 2–6, its equations are (1) in both torque forms, and the same
//! mechanism drawn differently gives the same matrices up to numbering.

use sit_schematic::{Analysis, Form, analyse_file};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

fn load(rel: &str) -> Analysis {
    let (a, report) = analyse_file(repo(rel)).expect("readable");
    assert!(!report.has_errors(), "{}", report.render());
    a.expect("checked")
}

fn table(a: &Analysis, key: &str) -> (Vec<String>, Vec<String>, Vec<Vec<i64>>) {
    let m = a.matrices();
    let m = m.get(key).expect("matrix").clone();
    (m.rows, m.cols, m.entries)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn drive_axle_matrices_equal_tables_2_to_6() {
    let a = load("examples/schematics/drive_axle.sch");
    let rows = names(&["J1", "J2", "J3"]);
    // Table 2: inertial elements.
    assert_eq!(
        table(&a, "inertial"),
        (
            rows.clone(),
            rows.clone(),
            vec![vec![-1, 0, 0], vec![0, -1, 0], vec![0, 0, -1]]
        )
    );
    // Table 3: external actions.
    assert_eq!(
        table(&a, "actions"),
        (
            rows.clone(),
            names(&["M1", "M2", "M3"]),
            vec![vec![1, 0, 0], vec![0, -1, 0], vec![0, 0, -1]]
        )
    );
    // Table 4: elastic elements (column c1).
    assert_eq!(
        table(&a, "elastic"),
        (
            rows.clone(),
            names(&["c:D1"]),
            vec![vec![-1], vec![1], vec![1]]
        )
    );
    // Table 5: dissipative elements (column μ1).
    assert_eq!(
        table(&a, "dissipative"),
        (
            rows.clone(),
            names(&["mu:D1"]),
            vec![vec![-1], vec![1], vec![1]]
        )
    );
    // Table 6: transformers between elastic/dissipative and inertial elements.
    assert_eq!(
        table(&a, "transformer"),
        (
            rows,
            names(&["c:D1", "mu:D1"]),
            vec![vec![1, 1], vec![1, 1], vec![1, 1]]
        )
    );
}

#[test]
fn drive_axle_search_records_the_routes_of_fig_4() {
    let a = load("examples/schematics/drive_axle.sch");
    let v = a.to_json();
    let paths = v["paths"].as_array().expect("paths");
    let route = |p: &serde_json::Value| {
        (
            p["pole"].as_u64().unwrap(),
            p["inertia"].as_str().unwrap().to_string(),
            p["sign"].as_i64().unwrap(),
            (p["gears"].as_array().unwrap().iter())
                .map(|g| {
                    format!(
                        "{} {}",
                        g["gear"].as_str().unwrap(),
                        g["direction"].as_str().unwrap()
                    )
                })
                .collect::<Vec<_>>(),
        )
    };
    let got: Vec<_> = paths.iter().map(route).collect();
    assert_eq!(
        got,
        vec![
            (1, "J1".into(), -1, vec!["T1 output_to_input".to_string()]),
            (2, "J2".into(), 1, vec!["T2 input_to_output".to_string()]),
            (3, "J3".into(), 1, vec!["T3 input_to_output".to_string()]),
        ]
    );
}

/// The rules of the generated model, without comments.
fn rules(a: &Analysis, form: Form) -> Vec<String> {
    a.to_sit(Some(form))
        .text
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
        .filter(|l| {
            l.contains(" = ")
                && !l.starts_with("param")
                && !l.starts_with("output")
                && !l.starts_with("input")
        })
        .collect()
}

#[test]
fn drive_axle_equations_are_the_papers_system_1() {
    let a = load("examples/schematics/drive_axle.sch");
    // dω1/dt = [M1 − (M_y1 + M_d1)/(u1·η1)]/J1 and so on, as printed.
    let printed = rules(&a, Form::Printed);
    for rule in [
        "w_J1 = integral((M1 - (My_D1 + Md0_D1) / u_T1 / eta_T1) / J1);",
        "w_J2 = integral((-M2 + u_T2 * eta_T2 * (My_D1 + Md0_D1)) / J2);",
        "w_J3 = integral((-M3 + u_T3 * eta_T3 * (My_D1 + Md0_D1)) / J3);",
        // M_d1 at the speeds the balances start from, computed above them (every
        // method's stages read it from theirs), and again from the new speeds.
        "Md0_D1 = mu_D1 * (2 * w_J1 / u_T1 - u_T2 * w_J2 - u_T3 * w_J3);",
        "r_D1 = 2 * w_J1 / u_T1 - u_T2 * w_J2 - u_T3 * w_J3;",
        "Md_D1 = mu_D1 * r_D1;",
        "My_D1 = integral(c_D1 * r_D1);",
    ] {
        assert!(
            printed.iter().any(|r| r == rule),
            "no `{rule}` in {printed:#?}"
        );
    }
    // The power-consistent form loads J1 with the case's weight 2.
    let consistent = rules(&a, Form::PowerConsistent);
    assert!(
        consistent
            .iter()
            .any(|r| r == "w_J1 = integral((M1 - 2 * (My_D1 + Md0_D1) / u_T1 / eta_T1) / J1);")
    );
    assert_eq!(a.form(), Form::PowerConsistent);
}

#[test]
fn generated_models_snapshot() {
    let a = load("examples/schematics/drive_axle.sch");
    let clean = |t: String| t.replace(&repo("").display().to_string(), "");
    insta::assert_snapshot!("drive_axle_power_consistent", clean(a.to_sit(None).text));
    insta::assert_snapshot!(
        "drive_axle_printed",
        clean(a.to_sit(Some(Form::Printed)).text)
    );
}

/// Every matrix entry by (matrix, row name, column name), names mapped by `rename`.
fn canonical(a: &Analysis, rename: &[(&str, &str)]) -> BTreeMap<(String, String, String), i64> {
    let map = |n: &str| -> String {
        let (prefix, base) = n.split_once(':').map_or(("", n), |(p, b)| (p, b));
        let base = rename
            .iter()
            .find(|(f, _)| *f == base)
            .map_or(base, |(_, t)| t);
        if prefix.is_empty() {
            base.to_string()
        } else {
            format!("{prefix}:{base}")
        }
    };
    let mut out = BTreeMap::new();
    for m in a.matrices().list {
        for (r, row) in m.rows.iter().zip(&m.entries) {
            for (c, v) in m.cols.iter().zip(row) {
                out.insert((m.key.to_string(), map(r), map(c)), *v);
            }
        }
    }
    out
}

#[test]
fn the_same_mechanism_drawn_differently_gives_the_same_matrices() {
    let plain = canonical(&load("examples/schematics/drive_axle.sch"), &[]);
    assert_eq!(
        canonical(&load("schematic/tests/layouts/mirrored.sch"), &[]),
        plain
    );
    assert_eq!(
        canonical(&load("schematic/tests/layouts/splitter.sch"), &[]),
        plain
    );
    let renamed = [
        ("Ja", "J1"),
        ("Jb", "J2"),
        ("Jc", "J3"),
        ("D", "D1"),
        ("Ma", "M1"),
        ("Mb", "M2"),
        ("Mc", "M3"),
    ];
    let convoluted = load("examples/schematics/drive_axle_convoluted.sch");
    // Numbered differently: Jc is row 1 there.
    assert_eq!(convoluted.matrices().get("inertial").unwrap().rows[0], "Jc");
    assert_eq!(canonical(&convoluted, &renamed), plain);
    // And the generated moment balances and deformation rate are the same up to the
    // names (the rate's terms in another order, as the poles are declared in another).
    let rename_text = |t: &str| {
        let mut t = t.to_string();
        for (from, to) in [
            ("_Ja", "_J1"),
            ("_Jb", "_J2"),
            ("_Jc", "_J3"),
            ("_D", "_D1"),
            ("Ja", "J1"),
            ("Jb", "J2"),
            ("Jc", "J3"),
            ("Ma", "M1"),
            ("Mb", "M2"),
            ("Mc", "M3"),
            ("_A", "_T1"),
            ("_B", "_T2"),
            ("_C", "_T3"),
        ] {
            t = t.replace(from, to);
        }
        t
    };
    let terms = |rule: &str| -> Vec<String> {
        let (target, value) = rule.split_once(" = ").expect("a rule");
        let mut v: Vec<String> = format!("{target} = + {value}")
            .replace(" - ", " + -")
            .split(" + ")
            .map(|t| t.trim_end_matches(';').trim().to_string())
            .collect();
        v.sort();
        v
    };
    let plain_rules = rules(
        &load("examples/schematics/drive_axle.sch"),
        Form::PowerConsistent,
    );
    let convoluted_rules: Vec<String> = (rules(&convoluted, Form::PowerConsistent).iter())
        .map(|r| rename_text(r))
        .collect();
    for prefix in ["w_J1 ", "w_J2 ", "w_J3 ", "Md_D1 ", "My_D1 ", "r_D1 "] {
        let find = |v: &[String]| {
            v.iter()
                .find(|r| r.starts_with(prefix))
                .cloned()
                .expect(prefix)
        };
        assert_eq!(
            terms(&find(&plain_rules)),
            terms(&find(&convoluted_rules)),
            "{prefix}"
        );
    }
}

/// The generated models carry units (kg·m², N·m/rad, N·m·s/rad, rad/s, N·m) and check
/// with no unit error, in both torque forms, for every schematic of the library; a
/// schematic that declares a wrong unit is rejected.
#[test]
fn generated_models_carry_units_and_check() {
    let dir = repo("examples/schematics");
    let mut files: Vec<PathBuf> = (std::fs::read_dir(&dir).expect("examples/schematics"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sch"))
        .collect();
    files.sort();
    assert!(files.len() >= 4);
    let units = |text: &str| {
        let out = sit_middle::check_source("generated.sit", text);
        assert!(!out.has_errors(), "{}", out.render());
        let sources = out.program.expect("checked").sources;
        let units = sit_middle::units::units_of_sources(&sources);
        let model = units.into_values().next().expect("one model");
        move |name: &str| model.vars.get(name).map(|u| u.1.clone())
    };
    for f in &files {
        let rel = f
            .strip_prefix(repo(""))
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let a = load(&rel);
        for form in [Form::PowerConsistent, Form::Printed] {
            let unit = units(&a.to_sit(Some(form)).text);
            let speeds = a.to_sit(Some(form)).text;
            // Every inertia's speed and every element moment has its unit.
            for line in speeds.lines().map(str::trim) {
                let named = |prefix: &str| {
                    line.strip_prefix(prefix)
                        .and_then(|r| r.split([' ', ',', ';']).next())
                        .map(str::to_string)
                };
                if let Some(w) = named("output real w_") {
                    assert_eq!(unit(&format!("w_{w}")).as_deref(), Some("rad/s"), "{rel}");
                }
                if let Some(j) = named("param c_") {
                    assert_eq!(unit(&format!("c_{j}")).as_deref(), Some("N*m/rad"), "{rel}");
                }
            }
        }
    }
    let a = load("examples/schematics/drive_axle.sch");
    let unit = units(&a.to_sit(None).text);
    assert_eq!(unit("J1").as_deref(), Some("kg*m^2"));
    assert_eq!(unit("mu_D1").as_deref(), Some("N*m*s/rad"));
    assert_eq!(unit("My_D1").as_deref(), Some("N*m"));
    assert_eq!(unit("M1").as_deref(), Some("N*m"));
    // A friction law whose coefficient is declared in N·m: k_air·w² is not a moment.
    let text = std::fs::read_to_string(repo("examples/schematics/drivetrain.sch")).unwrap();
    let wrong = text.replace("k_air [N*m*s^2/rad^2]", "k_air [N*m]");
    assert_ne!(wrong, text);
    let (a, report) =
        sit_schematic::analyse_source(repo("examples/schematics/drivetrain.sch"), &wrong);
    assert!(!report.has_errors(), "{}", report.render());
    let out = sit_middle::check_source("generated.sit", &a.expect("checked").to_sit(None).text);
    let codes: Vec<&str> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    assert_eq!(codes, ["E0481", "E0481"]);
}
