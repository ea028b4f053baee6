//! Native tests of the API the page calls.

use crate::files::{Files, LIBRARY};
use crate::run::{Options, Run, StartError};
use serde_json::json;
use std::path::Path;

const UNKNOWN: &str = "/// A ball.\nmodel Ball {\n    param g = 9.81;\n    output real h = 10, v;\n    v = integral(-gg);\n    h = integral(v);\n}\n";

fn library(path: &str) -> &'static str {
    LIBRARY.iter().find(|(p, _)| *p == path).unwrap().1
}

/// The last CSV row of a run of the file on disk through `sit_interp::load_file_with`
/// and `sit_runtime::trace::run_trace` (as `sitc run` with its default columns).
fn native_last_row(path: &str, options: &Options) -> String {
    let csv = native_csv(path, options, 1);
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    format!("{header}\n{}\n", lines.last().unwrap())
}

/// The CSV of that run, a row every `every` steps.
fn native_csv(path: &str, options: &Options, every: u64) -> String {
    use sit_runtime::Model;
    let disk = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(path);
    let method = options
        .method
        .as_deref()
        .and_then(sit_middle::ir::Method::from_name);
    let mut m = sit_host::load_file_with(&disk, options.model.as_deref(), method)
        .unwrap()
        .instance;
    for (name, value) in &options.set {
        let i = m.var_index(name).unwrap();
        m.set_at(i, *value).unwrap();
    }
    m.reset();
    let outputs = m.root_outputs();
    let record = if outputs.is_empty() {
        (0..m.var_count()).collect()
    } else {
        outputs
    };
    let steps = sit_runtime::drive::steps(options.dt, options.t_end).unwrap();
    let mut csv = Vec::new();
    sit_runtime::trace::run_trace(&mut m, options.dt, steps, every, &record, &mut csv).unwrap();
    String::from_utf8(csv).unwrap()
}

#[test]
fn an_unknown_name_is_e0101_at_its_line_with_editor_offsets() {
    let out = crate::check("ball.sit", UNKNOWN, &Files::new());
    assert_eq!(out["ok"], false);
    let d = &out["diagnostics"][0];
    assert_eq!(d["code"], "E0101");
    assert_eq!(d["location"]["line"], 5);
    assert_eq!(d["location"]["file"], "ball.sit");
    let from = d["from"].as_u64().unwrap() as usize;
    let to = d["to"].as_u64().unwrap() as usize;
    assert_eq!(&UNKNOWN[from..to], "gg");
    assert!(d["help"].as_str().unwrap().contains("`g`"), "{d}");
    assert!(d["rendered"].as_str().unwrap().contains("error[E0101]"));
    let fixed = UNKNOWN.replace("-gg", "-g");
    assert_eq!(
        crate::check("ball.sit", &fixed, &Files::new()),
        json!({"ok": true, "diagnostics": []})
    );
}

#[test]
fn the_final_values_are_sitc_runs_last_row() {
    for path in [
        "models/bouncing_ball.sit",
        "models/traffic_light.sit",
        "models/van_der_pol.sit",
        "models/complex/coordinator.sit",
        "models/painleve/rod.sit",
        "schematics/clutch.sch",
        "schematics/axle_cruise.sit",
    ] {
        let text = library(path);
        let mut options = Options::from_run_line(text);
        options.t_end = options.t_end.min(2.0);
        options.t_end = (options.t_end / options.dt).round() * options.dt;
        options.every = 7;
        let mut run = Run::start(path, text, &Files::new(), &options)
            .unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let mut chunks = 0;
        while !run.advance(333) {
            chunks += 1;
        }
        assert!(chunks > 0 || run.steps() <= 333, "{path}");
        assert_eq!(run.finals(), native_last_row(path, &options), "{path}");
        assert_eq!(run.take_csv(), native_csv(path, &options, 7), "{path}");
        // A row at t = 0, every 7 steps, and at the end.
        let rows = run.steps().div_ceil(7) as usize + 1;
        assert_eq!(run.times().len(), rows, "{path}");
        assert_eq!(run.trace(0).len(), rows, "{path}");
    }
}

#[test]
fn set_values_and_methods_run_as_sitc_run() {
    let path = "models/bouncing_ball.sit";
    let text = library(path);
    let base = Options::from_run_line(text);
    let options = Options::from_json(
        r#"{"set": {"e": 0.5}, "method": "rk4", "t_end": 1.5}"#,
        base.clone(),
    )
    .unwrap();
    assert_eq!(options.set, vec![("e".to_string(), 0.5)]);
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    assert!(run.advance(u64::MAX));
    assert_eq!(run.finals(), native_last_row(path, &options));
    let plain = Run::start(path, text, &Files::new(), &base).map(|mut r| {
        r.advance(u64::MAX);
        r.finals()
    });
    assert_ne!(plain.unwrap(), run.finals());
}

#[test]
fn the_event_log_changes_nothing_and_names_the_rules() {
    let path = "models/traffic_light.sit";
    let text = library(path);
    let plain = Options::from_run_line(text);
    let logged = Options {
        events: true,
        ..plain.clone()
    };
    let mut a = Run::start(path, text, &Files::new(), &plain).unwrap();
    let mut b = Run::start(path, text, &Files::new(), &logged).unwrap();
    a.advance(u64::MAX);
    b.advance(u64::MAX);
    assert_eq!(a.finals(), b.finals());
    assert_eq!(a.times(), b.times());
    assert_eq!(a.events(), json!([]));
    let events = b.events();
    let first = &events[0];
    // Its time as `sitc run --events` writes it, and the log in pieces is the log.
    assert_eq!(
        first["time"].as_str().unwrap(),
        sit_runtime::number::shortest(first["t"].as_f64().unwrap()).to_string()
    );
    let n = b.event_count();
    let pieces: Vec<serde_json::Value> = (0..n)
        .step_by(2)
        .flat_map(|k| b.events_since(k, 2).as_array().unwrap().clone())
        .collect();
    assert_eq!(serde_json::Value::Array(pieces), events);
    assert!(
        first["rule"]
            .as_str()
            .unwrap()
            .starts_with("models/traffic_light.sit:"),
        "{first}"
    );
    assert!(events.as_array().unwrap().len() > 3);
}

#[test]
fn run_lines_give_the_defaults() {
    let o = Options::from_run_line(library("models/complex/roll.sit"));
    assert_eq!(o.model.as_deref(), Some("Roll"));
    assert_eq!(o.set, vec![("angle".to_string(), 0.1)]);
    assert_eq!((o.dt, o.t_end), (0.01, 2.0));
    let o = Options::from_run_line(library("models/hoop.sit"));
    assert_eq!((o.dt, o.t_end, o.every), (1e-4, 10.0, 100));
    assert_eq!(Options::from_run_line("model M {}"), Options::default());
    let back = Options::from_json(&o.to_json().to_string(), Options::default()).unwrap();
    assert_eq!(back, o);
    assert!(Options::from_json(r#"{"dt": "x"}"#, Options::default()).is_err());
    assert!(Options::from_json(r#"{"every": 0.5}"#, Options::default()).is_err());
}

#[test]
fn bad_runs_say_why() {
    let start = |text: &str, json: &str| {
        let options = Options::from_json(json, Options::default()).unwrap();
        Run::start("m.sit", text, &Files::new(), &options)
            .err()
            .unwrap()
    };
    let StartError::Invalid(d) = start(UNKNOWN, "") else {
        panic!()
    };
    assert_eq!(d[0]["code"], "E0101");
    let ok = "model M { output real x = 1; }";
    assert_eq!(
        start(ok, r#"{"dt": 0}"#),
        StartError::Message("dt must be a finite number > 0, not 0".into())
    );
    assert_eq!(
        start(ok, r#"{"set": {"y": 1}}"#),
        StartError::Message("no variable named `y`".into())
    );
    assert_eq!(
        start(ok, r#"{"method": "rk9"}"#),
        StartError::Message("no integration method `rk9`".into())
    );
    assert!(
        matches!(start(ok, r#"{"model": "N"}"#), StartError::Message(m) if m.contains("no model named `N`"))
    );
}

#[test]
fn imports_come_from_the_page_files_then_the_library() {
    let main =
        "import \"lib/gain.sit\";\nmodel Top { output real y; sub g: Gain(k = 3); y = g.out; }\n";
    let gain = "model Gain { param k = 2; output real out; out = integral(k); }\n";
    let mut files = Files::new();
    assert_eq!(crate::check("top.sit", main, &files)["ok"], false);
    files.add("lib/gain.sit", gain);
    assert_eq!(
        crate::check("top.sit", main, &files)["diagnostics"],
        json!([])
    );
    let mut run = Run::start(
        "top.sit",
        main,
        &files,
        &Options {
            t_end: 1.0,
            ..Options::default()
        },
    )
    .unwrap();
    run.advance(u64::MAX);
    // The same files on disk, run by the interpreter as `sitc run` does.
    let dir = std::env::temp_dir().join(format!("sit-web-imports-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("top.sit"), main).unwrap();
    std::fs::write(dir.join("lib/gain.sit"), gain).unwrap();
    let mut m = sit_host::load_file(dir.join("top.sit"), None)
        .unwrap()
        .instance;
    let mut csv = Vec::new();
    let outputs = m.root_outputs();
    sit_runtime::trace::run_trace(&mut m, 0.01, 100, 100, &outputs, &mut csv).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        run.finals(),
        String::from_utf8(csv)
            .unwrap()
            .replace("t,y\n0,0\n", "t,y\n")
    );
    assert!(run.finals().starts_with("t,y\n1"), "{}", run.finals());
}

#[test]
fn format_info_schematic_and_library() {
    let f = crate::format("m.sit", "model M{output real x=1;}");
    assert_eq!(f["text"], "model M {\n    output real x = 1;\n}\n");
    assert_eq!(
        crate::format("m.sit", "model M {")["diagnostics"][0]["severity"],
        "error"
    );

    let info = crate::info(
        "models/hoop.sit",
        library("models/hoop.sit"),
        &Files::new(),
        None,
    );
    assert_eq!(info["info"]["root"], "Hoop");
    let decls = &info["info"]["models"][0]["declarations"];
    let h = decls
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "h")
        .unwrap();
    assert_eq!(
        (h["kind"].as_str(), h["output"].as_bool()),
        (Some("state"), Some(true))
    );
    let m = info["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "m")
        .unwrap();
    assert_eq!(m["value"], 1.0);
    assert_eq!(m["settable"], true);
    assert_eq!(info["run"]["dt"], 1e-4);

    let s = crate::schematic("clutch.sch", library("schematics/clutch.sch"));
    assert!(
        s["svg"].as_str().unwrap().starts_with("<svg"),
        "{}",
        s["svg"]
    );
    assert!(s["sit"].as_str().unwrap().contains("model ClutchDrive"));
    assert!(!s["matrices"].as_str().unwrap().is_empty());
    let bad = crate::schematic("bad.sch", "schematic S { grid { J } }");
    assert_eq!(bad["ok"], false);

    let lib = crate::library();
    let paths: Vec<&str> = lib
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"models/hoop.sit") && paths.contains(&"schematics/clutch.sch"));
    assert!(!paths.iter().any(|p| p.ends_with(".csv")));
}

/// The Values tab's last row is the CSV's (issue 51, item 8): the thermostat at dt 1,
/// t-end 20000, every 60 ends at 20000 as `sitc run` does; stopped after a chunk that
/// is not a multiple of 60 steps, the last row is the CSV's last (the steps after it
/// are not written), not the model's current state.
#[test]
fn the_last_row_is_the_csvs() {
    let path = "models/thermostat.sit";
    let text = library(path);
    let options = Options::from_json(
        r#"{"dt": 1, "t_end": 20000, "every": 60}"#,
        Options::default(),
    )
    .unwrap();
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    let mut csv = String::new();
    while !run.advance(1000) {
        csv += &run.take_csv();
    }
    csv += &run.take_csv();
    assert_eq!(csv, native_csv(path, &options, 60));
    let last = csv.lines().last().unwrap();
    assert!(last.starts_with("20000,"), "{last}");
    assert_eq!(run.finals().lines().nth(1), Some(last));
    assert_eq!(run.finals(), native_last_row(path, &options));
    // Stopped after 1000 steps: the last row is t = 960's.
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    run.advance(1000);
    let csv = run.take_csv();
    let last = csv.lines().last().unwrap();
    assert!(last.starts_with("960,"), "{last}");
    assert_eq!(run.finals().lines().nth(1), Some(last));
}

/// A long run keeps at most `MAX_ROWS` rows for the plot (issue 51, item 7), each the
/// lowest and highest values of the trace rows it stands for, and no CSV beyond what
/// was not yet taken.
#[test]
fn a_long_run_keeps_bounded_rows() {
    use crate::run::MAX_ROWS;
    let text = "model Saw { output real x, ramp; x = time - floor(time); ramp = integral(1); }
";
    let options = Options::from_json(r#"{"dt": 0.001, "t_end": 150}"#, Options::default()).unwrap();
    let mut run = Run::start("saw.sit", text, &Files::new(), &options).unwrap();
    let mut rows = 0;
    let mut largest = 0;
    while !run.advance(5000) {
        let csv = run.take_csv();
        largest = largest.max(csv.len());
        rows += csv.lines().count();
    }
    rows += run.take_csv().lines().count();
    assert_eq!(
        rows,
        1 + 150_001,
        "the header and every row, taken chunk by chunk"
    );
    assert!(
        largest < 5001 * 64,
        "no more CSV kept than a chunk's: {largest} bytes"
    );
    let kept = run.times().len();
    assert!(kept <= MAX_ROWS && kept > MAX_ROWS / 4, "{kept} rows kept");
    // 150001 trace rows: past 2^15 three times, so each kept row stands for 8.
    assert_eq!(run.stride(), 8);
    assert_eq!(kept, 150_001_usize.div_ceil(8));
    let vars: Vec<String> = (run.variables().as_array().unwrap().iter())
        .map(|v| v["name"].as_str().unwrap().to_string())
        .collect();
    let x = vars.iter().position(|v| v == "x").unwrap();
    let ramp = vars.iter().position(|v| v == "ramp").unwrap();
    let (times, lo, hi) = (run.times(), run.trace(x), run.trace_high(x));
    for i in 0..kept {
        assert!(lo[i] <= hi[i], "row {i}");
        // Each kept row starts at its first trace row's time, 8 steps apart.
        assert!(
            (times[i] - i as f64 * 0.008).abs() < 1e-9,
            "row {i}: {}",
            times[i]
        );
    }
    // The saw's lowest and highest values over the whole run stay in the kept rows.
    let lowest = lo.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = hi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(lowest < 0.001 && highest > 0.998, "{lowest} {highest}");
    // The ramp's kept row k spans rows 8k .. 8k + 7: its lowest the first, highest the last.
    let (rlo, rhi) = (run.trace(ramp), run.trace_high(ramp));
    assert!(
        (rhi[10] - rlo[10] - 0.007).abs() < 1e-9,
        "{} {}",
        rlo[10],
        rhi[10]
    );
}

/// The methods the page offers are every method of `sitc run --method`.
#[test]
fn the_methods_are_every_method() {
    let names: Vec<String> = (crate::methods().as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"radau5".to_string()), "{names:?}");
    assert_eq!(names.len(), sit_middle::ir::Method::ALL.len());
    for name in &names {
        assert!(sit_middle::ir::Method::from_name(name).is_some(), "{name}");
    }
}

/// An explicit method on a stiff model: the run's notes carry `sitc run`'s stiffness
/// warning as soon as the test finds it, before the run ends (issue 51, item 8).
#[test]
fn a_stiff_model_under_an_explicit_method_says_so() {
    let path = "models/robertson.sit";
    let text = library(path);
    let options = Options::from_json(
        r#"{"dt": 1, "t_end": 8, "method": "dopri5"}"#,
        Options::from_run_line(text),
    )
    .unwrap();
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    assert!(run.notes().is_empty());
    // Found at t = 5.86: in the notes after the sixth step, before the run's end.
    run.advance(5);
    assert!(run.notes().is_empty());
    run.advance(1);
    assert_eq!(run.notes().len(), 1);
    assert!(run.advance(u64::MAX));
    let notes = run.notes();
    // What `sitc run` prints for the same run.
    let disk = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(path);
    let mut m = sit_host::load_file_with(&disk, None, sit_middle::ir::Method::from_name("dopri5"))
        .unwrap()
        .instance;
    sit_runtime::Model::reset(&mut m);
    for _ in 0..8 {
        sit_runtime::Model::step(&mut m, 1.0);
    }
    let want: Vec<String> = sit_runtime::stiffness(&m, m.model_name())
        .map(|s| format!("warning: {s}"))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(notes, want);
    assert!(notes[0].contains("rodas5p"), "{notes:?}");
}

/// The interpreter's speed natively, for docs/web.md's ratio against the browser's
/// (`cargo test --release -p sit-web --lib -- --ignored --nocapture speed`): the hoop,
/// 500000 steps of 1e-4 s without the event log, best of 5.
#[test]
#[ignore = "a measurement, run by hand in release"]
fn speed() {
    let path = "models/hoop.sit";
    let options = Options {
        dt: 1e-4,
        t_end: 50.0,
        every: 100,
        ..Options::default()
    };
    let best = (0..5)
        .map(|_| {
            let mut run = Run::start(path, library(path), &Files::new(), &options).unwrap();
            let t = std::time::Instant::now();
            run.advance(u64::MAX);
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min);
    eprintln!("hoop, 500000 steps natively: {best:.1} ms");
}

/// A tank that drains below zero: the step from t = 3.8 makes `sqrt(level)` NaN. The
/// page stops there as `sitc run` does, with its words, and keeps the steps before it;
/// with `allow_non_finite` it runs to the end (issue 47, item 3).
#[test]
fn a_non_finite_value_stops_the_run_with_the_rule() {
    let path = "tank.sit";
    let text = "model Tank {\n    param k = 0.5;\n    output real level = 1;\n    \
                level = integral(-k * sqrt(level));\n}\n";
    let options = Options::from_json(r#"{"dt": 0.1, "t_end": 6}"#, Options::default()).unwrap();
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    // Done early, in chunks as the worker runs it.
    while !run.advance(7) {}
    assert_eq!(run.done(), 38);
    assert_eq!(
        run.fault(),
        Some(
            "tank.sit:4: rule `level = integral(-k * sqrt(level))` made `level` = NaN at t = \
             3.8 (reading k = 0.5)"
        )
    );
    assert_eq!(run.times().len(), 39);
    assert_eq!(run.times().last(), Some(&3.8));
    let allowed = Options::from_json(r#"{"allow_non_finite": true}"#, options.clone()).unwrap();
    let mut run = Run::start(path, text, &Files::new(), &allowed).unwrap();
    assert!(run.advance(u64::MAX));
    assert_eq!((run.done(), run.fault()), (60, None));
    assert!(
        Options::from_run_line("/// Run: `sitc run t.sit --allow-non-finite`").allow_non_finite
    );
    // A model that says `#[allow(non_finite, …)]` runs to the end without the option.
    let text = format!("#[allow(non_finite, reason = \"drains below zero on purpose\")]\n{text}");
    let mut run = Run::start(path, &text, &Files::new(), &options).unwrap();
    assert!(run.advance(u64::MAX));
    assert_eq!((run.done(), run.fault()), (60, None));
}

/// A fast relaxation past Euler's stability limit: each step of 2.5e-3 multiplies `y` by
/// −1.5, and `rate = -k·y` passes 1e100 in the step from t = 1.3775. The page stops
/// before that row with the rule, as `sitc run` does (issue 47, item 2); before, it ran
/// on to 4.5e105 without a word. `allow_non_finite` runs to the end.
#[test]
fn a_value_past_1e100_stops_the_run_with_the_rule() {
    let path = "relax.sit";
    let text = "model Relax {\n    param k = 1000;\n    output real y = 1;\n    real rate;\n    \
                rate = -k * y;\n    y = integral(rate);\n}\n";
    let options = Options::from_json(r#"{"dt": 0.0025, "t_end": 2}"#, Options::default()).unwrap();
    let mut run = Run::start(path, text, &Files::new(), &options).unwrap();
    while !run.advance(100) {}
    assert_eq!(run.done(), 551);
    let fault = run.fault().unwrap();
    assert!(
        fault.starts_with(
            "probable instability: relax.sit:5: rule `rate = -k * y` made `rate` = \
             1.062389426448763e100 at t = 1.3775 (reading k = 1000, y = \
             -1.062389426448763e97); a value past 1e100"
        ),
        "{fault}"
    );
    assert_eq!(run.times().last(), Some(&1.3775));
    let allowed = Options::from_json(r#"{"allow_non_finite": true}"#, options.clone()).unwrap();
    let mut run = Run::start(path, text, &Files::new(), &allowed).unwrap();
    assert!(run.advance(u64::MAX));
    assert_eq!((run.done(), run.fault()), (800, None));
}

/// A fixed-step run whose error is large: once it has ended, the run's notes carry `sitc
/// run`'s estimate (`sit_runtime::accuracy`), in the page's words (issue 47, item 2):
/// explicit Euler on an oscillator, whose energy grows from 0.5 to 1.36 by t = 100.
#[test]
fn a_fixed_step_run_whose_error_is_large_says_so_when_it_ends() {
    let text = "model Oscillator {\n    output real x = 1;\n    output real v = 0;\n    \
                real a;\n    a = -x;\n    x = integral(v);\n    v = integral(a);\n}\n";
    let options = Options::from_json(r#"{"dt": 0.01, "t_end": 100}"#, Options::default()).unwrap();
    for events in [false, true] {
        let mut options = options.clone();
        options.events = events;
        let mut run = Run::start("osc.sit", text, &Files::new(), &options).unwrap();
        assert!(!run.advance(9_999));
        assert!(run.notes().is_empty(), "{:?}", run.notes());
        assert!(run.advance(1));
        // The same estimate as `cli/tests/snapshots/accuracy__euler_oscillator.snap`.
        assert_eq!(
            run.notes(),
            [
                "warning: the fixed steps of `euler` at dt 0.01 may be off by about 38% of `x`'s \
              magnitude by t = 100 (estimated from a run at 2·dt; this warning is for more \
              than 5.0%); for a smaller error: `method rk4;` or `method dopri5;` in the model \
              (or the method box), or a smaller dt"
            ]
        );
    }
    // Under rk4 (the method box) the run is accurate: nothing is said.
    let mut options = options.clone();
    options.method = Some("rk4".into());
    let mut run = Run::start("osc.sit", text, &Files::new(), &options).unwrap();
    assert!(run.advance(u64::MAX));
    assert!(run.notes().is_empty(), "{:?}", run.notes());
}
