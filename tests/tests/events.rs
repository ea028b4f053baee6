//! The event log checked against the traces: on every library model and on random
//! models, every change of a logical variable between two steps appears once in the
//! log, at the time of that step, with a rule that can make it; the model built for
//! the log has the plain model's variables and values, bit for bit.

use sit_middle::ir::{ModelId, Program};
use sit_middle::lower::{Item, variables};
use sit_runtime::events::{Event, Table, WatchKind};
use sit_runtime::{Model, ValueType};
use sit_tests::logged;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn library(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            library(&p, out);
        } else if p.extension().is_some_and(|x| x == "sit") {
            out.push(p);
        }
    }
}

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The value of a watched variable as the log writes it.
fn shown(table: &Table, name: &str, v: f64) -> String {
    let w = table.watches.iter().find(|w| w.name == name).unwrap();
    match w.kind {
        WatchKind::Mode => w.states[v as usize].clone(),
        _ => format!("{v}"),
    }
}

/// Runs `root` plain and logged for `steps` of `dt`; returns the number of events.
fn check(label: &str, program: &Program, root: ModelId, dt: f64, steps: usize) -> usize {
    let mut plain = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(program, Default::default()).expect("lowers"),
        root,
    );
    let mut logged = sit_interp::Instance::with_events(
        &sit_middle::lower::Lowered::new(
            program,
            sit_middle::lower::Prepare {
                events: true,
                ..Default::default()
            },
        )
        .expect("lowers"),
        root,
    )
    .unwrap();
    assert_eq!(plain.var_count(), logged.var_count(), "{label}: variables");
    let modes: Vec<String> = (variables(program, root).unwrap().into_iter())
        .filter(|e| matches!(e.item, Item::Mode(_)))
        .map(|e| e.name)
        .collect();
    let mut watched = Vec::new();
    for i in 0..plain.var_count() {
        let info = plain.var_info(i).unwrap();
        assert_eq!(Some(info), logged.var_info(i), "{label}: variable #{i}");
        if info.ty == ValueType::Logical || modes.iter().any(|m| m == info.name) {
            watched.push(i);
            let kind = logged.table().watches.iter().find(|w| w.name == info.name);
            assert!(kind.is_some(), "{label}: `{}` not in the log", info.name);
        }
    }
    // The kind of each watched name, for the rule checks.
    let kinds: HashMap<String, WatchKind> = (logged.table().watches.iter())
        .map(|w| (w.name.clone(), w.kind))
        .collect();
    let mut total = 0;
    // The steps Newton's iterations needed: hidden reals that only a model built for
    // the log computes.
    let counts: Vec<(String, usize)> = (logged.table().watches.iter())
        .filter(|w| w.kind == WatchKind::Newton)
        .map(|w| (w.name.clone(), logged.hidden_index(&w.name).unwrap()))
        .collect();
    for k in 1..=steps {
        let before: Vec<f64> = (0..plain.var_count())
            .map(|i| plain.get_at(i).unwrap())
            .collect();
        let counted_before: Vec<f64> = (counts.iter())
            .map(|(_, i)| logged.get_at(*i).unwrap())
            .collect();
        // A fault of the model (a random model whose rates stay non-finite under an
        // adaptive method ends on its bound of internal steps) must stop both alike.
        let faults = (
            sit_runtime::catch_fault(|| plain.step(dt)).err(),
            sit_runtime::catch_fault(|| logged.step(dt)).err(),
        );
        if faults != (None, None) {
            assert_eq!(faults.0, faults.1, "{label}: the same fault at step {k}");
            return total;
        }
        for i in 0..plain.var_count() {
            let (a, b) = (plain.get_at(i).unwrap(), logged.get_at(i).unwrap());
            assert!(same(a, b), "{label}: variable #{i} differs at step {k}");
        }
        let events: Vec<Event> = logged.take_events();
        let table = logged.table();
        let mut expected: Vec<(String, String, String)> = (watched.iter())
            .filter(|&&i| !same(before[i], plain.get_at(i).unwrap()))
            .map(|&i| {
                let name = plain.var_info(i).unwrap().name;
                let (from, to) = (before[i], plain.get_at(i).unwrap());
                let (from, to) = (shown(table, name, from), shown(table, name, to));
                (name.to_string(), from, to)
            })
            .collect();
        for ((name, i), from) in counts.iter().zip(&counted_before) {
            let (from, to) = (*from, logged.get_at(*i).unwrap());
            if !same(from, to) {
                expected.push((name.clone(), format!("{from}"), format!("{to}")));
            }
        }
        let mut got: Vec<(String, String, String)> = (events.iter())
            .filter(|e| kinds[&e.name] != WatchKind::Reset)
            .map(|e| (e.name.clone(), e.from.clone(), e.to.clone()))
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{label}: the changes of step {k}");
        for e in &events {
            assert!(same(e.t, plain.time()), "{label}: time of {e:?}");
            rule_fits(label, table, &kinds, e);
        }
        total += events.len();
    }
    total
}

/// The rule an event names can make its change: a flag's σ action or a reset, a
/// mode's transition, a switch, an event's declaration.
fn rule_fits(label: &str, table: &Table, kinds: &HashMap<String, WatchKind>, e: &Event) {
    let last = e.name.rsplit('.').next().unwrap();
    let site = e.site.map(|s| &table.sites[s]);
    let text = site.map_or("", |s| s.text.as_str());
    let by_reset = text.starts_with("reset(") || text.starts_with("run(");
    match kinds[&e.name] {
        WatchKind::Flag => {
            // An input flag changes from outside (or by its binding): no rule. A cell
            // of a flag array (`af[1]`) is set by its loop's action, as written
            // (`af[i]`): the array's name.
            let array = |n: &str| n.split('[').next().unwrap_or(n).to_string();
            if let Some(s) = site {
                let action = s.text.trim_start_matches('!');
                assert!(
                    by_reset
                        || action == last
                        || (last.contains('[') && array(action) == array(last)),
                    "{label}: {e:?} by `{}`",
                    s.text
                );
            }
        }
        WatchKind::Mode => assert!(
            by_reset || text.starts_with(&format!("{last}:")),
            "{label}: {e:?} by `{text}`"
        ),
        WatchKind::On => {
            let sub = e.name.trim_end_matches(".on").rsplit('.').next().unwrap();
            assert!(
                by_reset || text.trim_start_matches('!') == format!("{sub}.on"),
                "{label}: {e:?} by `{text}`"
            );
        }
        WatchKind::Event => assert!(text.contains(last), "{label}: {e:?} by `{text}`"),
        WatchKind::Reset => assert!(text.starts_with("reset("), "{label}: {e:?}"),
        WatchKind::Cond => {}
        WatchKind::Newton => assert!(text.starts_with("equation"), "{label}: {e:?}"),
    }
}

#[test]
fn the_log_of_every_library_model_matches_its_trace() {
    let mut files = Vec::new();
    library(&sit_tests::repo_root().join("examples/models"), &mut files);
    files.sort();
    let mut logged = 0;
    for file in &files {
        let out = sit_driver::check_file(file).unwrap();
        let program = out.program.expect("the library checks");
        let root = sit_driver::select_root(&program, None).unwrap();
        let label = file.display().to_string();
        if check(&label, &program, root, 1e-3, 4000) > 0 {
            logged += 1;
        }
    }
    assert!(files.len() >= 15, "only {} library models", files.len());
    assert!(logged >= 8, "only {logged} library models log an event");
}

#[test]
fn the_log_of_random_models_matches_their_trace() {
    let mut logged = 0;
    for seed in 0..40 {
        let text = sit_synth::random_file(seed, sit_synth::Size::default());
        let out = sit_middle::check_source(format!("random_{seed}.sit"), &text);
        let program = out.program.expect("random models check");
        for root in program.roots() {
            let label = format!("random {seed} {}", program.models[root].name);
            if check(&label, &program, root, 0.01, 1500) > 0 {
                logged += 1;
            }
        }
    }
    assert!(logged >= 20, "only {logged} random models log an event");
}

fn log_of(src: &str, dt: f64, steps: usize) -> Vec<(String, String, String, String)> {
    let program = sit_middle::check_source("m.sit", src).program.unwrap();
    let root = sit_driver::select_root(&program, None).unwrap();
    let mut m = sit_interp::Instance::with_events(
        &sit_middle::lower::Lowered::new(
            &program,
            sit_middle::lower::Prepare {
                events: true,
                ..Default::default()
            },
        )
        .expect("lowers"),
        root,
    )
    .unwrap();
    for _ in 0..steps {
        m.step(dt);
    }
    let table = m.table().clone();
    (m.take_events().into_iter())
        .map(|e| {
            let rule = e.rule(&table).to_string();
            (
                format!("{}", e.t),
                e.name,
                format!("{}->{}", e.from, e.to),
                rule,
            )
        })
        .collect()
}

fn row(t: &str, name: &str, change: &str, rule: &str) -> (String, String, String, String) {
    (t.into(), name.into(), change.into(), rule.into())
}

#[test]
fn a_pred_names_the_rule_that_changed_what_it_reads_last() {
    // `x` is assigned by two guarded rules (lines 4 and 5) and an `otherwise` (6);
    // `high` reads `x` and `y`; `y` changes only at its own line (7). A step reads
    // `s` before its integral advances it: `s` is 0.3 in the fourth step.
    let src = "model M {
    real x, y, s;
    pred high = x + y > 1.5;
    x = 2 when s > 0.25;
    x = 3 when s > 0.45;
    x = 0 otherwise;
    y = 0 - 2 when s > 0.65;
    s = integral(1);
}";
    let log = log_of(src, 0.1, 8);
    assert_eq!(
        log,
        vec![
            row("0.4", "high", "0->1", "m.sit:4"),
            row("0.8", "high", "1->0", "m.sit:7"),
        ]
    );
}

#[test]
fn flags_modes_switches_and_resets_name_their_actions() {
    let src = "model Counter { output real n; n = integral(1); }
model M {
    sub c: Counter;
    flag f;
    mode m { a, b }
    event e = c.n > 0.25;
    when e => f, reset(c), !c.on;
    m: a -> b when f;
}";
    let log = log_of(src, 0.1, 5);
    assert_eq!(
        log,
        vec![
            row("0.3", "f", "0->1", "m.sit:7"),
            row("0.3", "e", "0->1", "m.sit:6"),
            row("0.3", "m", "a->b", "m.sit:8"),
            row("0.3", "c.on", "1->0", "m.sit:7"),
            row("0.3", "c", "->reset", "m.sit:7"),
            row("0.4", "e", "1->0", "m.sit:6"),
        ]
    );
}

/// Under `dopri5` the model has the method's hidden states and the log's whys, both
/// after its variables: the log still names the rules, and the variables are the
/// model's own.
#[test]
fn the_log_names_rules_under_dopri5() {
    let src = "model M {
    method dopri5;
    real x;
    flag f;
    pred high = x > 0.25;
    x = integral(1);
    when high => f;
}";
    let log = log_of(src, 0.1, 4);
    assert_eq!(
        log,
        vec![
            row("0.3", "f", "0->1", "m.sit:7"),
            row("0.3", "high", "0->1", "m.sit:6"),
        ]
    );
    let program = sit_middle::check_source("m.sit", src).program.unwrap();
    let lowered = sit_middle::lower::Lowered::new(
        &program,
        sit_middle::lower::Prepare {
            events: true,
            ..Default::default()
        },
    )
    .expect("lowers");
    let m = sit_interp::Instance::with_events(&lowered, 0).unwrap();
    let names: Vec<&str> = (0..m.var_count())
        .map(|i| m.var_info(i).unwrap().name)
        .collect();
    assert_eq!(names, ["x", "f", "high"]);
    let n = m.inner().var_count();
    let hidden: Vec<&str> = (n..n + m.inner().hidden_count())
        .map(|i| m.inner().var_info(i).unwrap().name)
        .collect();
    for name in ["dopri5_h", "x_dopri5_k1", "x_why", "f_why"] {
        assert!(hidden.contains(&name), "no hidden {name} in {hidden:?}");
    }
}

/// The file of a compiled model's stem (as `tests/build.rs` found it).
fn source_of(stem: &str) -> PathBuf {
    if stem.starts_with("random_") {
        return PathBuf::from(env!("OUT_DIR")).join(format!("random/{stem}.sit"));
    }
    let mut files = Vec::new();
    library(&sit_tests::repo_root().join("examples/models"), &mut files);
    let name = format!("{stem}.sit");
    let mut found = files.into_iter().filter(|p| p.ends_with(&name));
    found.next().unwrap_or_else(|| panic!("no example {name}"))
}

/// `table` with each site's file named by its last component (the build script and the
/// test name the same file by different paths).
fn by_file_name(mut table: Table) -> Table {
    for s in &mut table.sites {
        let (file, line) = s.location.rsplit_once(':').unwrap();
        let file = file.rsplit('/').next().unwrap();
        s.location = format!("{file}:{line}");
    }
    table
}

#[test]
fn generated_code_logs_what_the_interpreter_logs() {
    let (mut examples, mut random) = (0, 0);
    for (stem, name, (make, table)) in logged::all() {
        let out = sit_driver::check_file(source_of(stem)).unwrap();
        let program = out.program.expect("checked");
        let root = program.model(name).unwrap();
        let mut interp = sit_interp::Instance::with_events(
            &sit_middle::lower::Lowered::new(
                &program,
                sit_middle::lower::Prepare {
                    events: true,
                    ..Default::default()
                },
            )
            .expect("lowers"),
            root,
        )
        .unwrap();
        let table = table();
        assert_eq!(
            by_file_name(table.clone()),
            by_file_name(interp.table().clone()),
            "{stem}::{name}: the table"
        );
        let mut comp = make();
        let mut rec = sit_runtime::events::Recorder::new(table, &*comp).unwrap();
        let (dt, steps) = if stem.starts_with("random_") {
            (0.01, 1500)
        } else {
            (1e-3, 3000)
        };
        let mut events = 0;
        let mut finished = true;
        for k in 1..=steps {
            rec.start(&mut *comp).unwrap();
            // A model whose events chatter under its method (a random one may) stops
            // alike in both: not compared further, not counted.
            let step = |m: &mut dyn sit_runtime::Model| {
                sit_runtime::catch_fault(|| m.step(dt))
                    .err()
                    .map(|f| f.to_string())
            };
            let (a, b) = (step(&mut *comp), step(&mut interp));
            assert_eq!(a, b, "{stem}::{name}: step {k} stops differently");
            if a.is_some() {
                finished = false;
                break;
            }
            let mut compiled = Vec::new();
            rec.finish(&*comp, |e| compiled.push(e));
            let interpreted = interp.take_events();
            let key = |e: &Event| {
                (
                    e.t.to_bits(),
                    e.name.clone(),
                    e.from.clone(),
                    e.to.clone(),
                    e.site,
                )
            };
            assert_eq!(
                compiled.iter().map(key).collect::<Vec<_>>(),
                interpreted.iter().map(key).collect::<Vec<_>>(),
                "{stem}::{name}: step {k}"
            );
            events += compiled.len();
        }
        let _ = events;
        if finished && stem.starts_with("random_") {
            random += 1;
        } else if finished {
            examples += 1;
        }
    }
    assert!(examples >= 6, "only {examples} example models");
    assert!(random >= 10, "only {random} random models");
}

/// The whys are hidden states, after the variables: the logged model and the inner one
/// give every variable the same index, `set_at`'s errors name the index the caller
/// gave, and the hidden whys are reached by `hidden_index`, not by name.
#[test]
fn whys_are_hidden_states_after_the_variables() {
    use sit_runtime::{SetError, Var, VarKind};
    let src = "model Valve { input real p; output flag open; when p > 1 => open; }
        model Tank {
            output real level;
            flag full;
            pred high = level > 0.5;
            sub valve: Valve(p = level);
            level = integral(1);
            when high => full;
        }";
    let program = sit_middle::check_source("tank.sit", src).program.unwrap();
    let root = program.model("Tank").unwrap();
    let mut m = sit_interp::Instance::with_events(
        &sit_middle::lower::Lowered::new(
            &program,
            sit_middle::lower::Prepare {
                events: true,
                ..Default::default()
            },
        )
        .expect("lowers"),
        root,
    )
    .unwrap();
    let index = |m: &dyn Model, name: &str| {
        (0..m.var_count()).find(|&i| m.var_info(i).unwrap().name == name)
    };
    // Inner: level, full, high, valve.on, valve.p, valve.open, then the hidden
    // level_why, full_why, valve.open_why and valve.p_seen (the copy of what the
    // valve's guard read when its rule ran).
    assert_eq!(m.var_count(), m.inner().var_count());
    assert_eq!(m.hidden_count(), m.inner().hidden_count());
    let n = m.var_count();
    let hidden: Vec<&str> = (n..n + m.inner().hidden_count())
        .map(|i| m.inner().var_info(i).unwrap().name)
        .collect();
    assert_eq!(
        hidden,
        ["level_why", "full_why", "valve.open_why", "valve.p_seen"]
    );
    assert_eq!(index(m.inner(), "full_why"), None);
    assert_eq!(m.inner().var_index("full_why"), None);
    assert_eq!(m.inner().hidden_index("full_why"), Some(n + 1));
    for (name, kind) in [("high", VarKind::Predicate), ("valve.p", VarKind::Input)] {
        let outer = index(&m, name).unwrap();
        let inner = index(m.inner(), name).unwrap();
        assert_eq!(outer, inner, "`{name}`: no why comes before it");
        let e = m.set_at(outer, 1.0).unwrap_err();
        assert_eq!(e, SetError::not_settable(outer, kind));
        assert!(
            e.to_string().starts_with(&format!("variable #{outer} is ")),
            "{e}"
        );
    }
    let open = index(&m, "valve.open").unwrap();
    assert_eq!(open, index(m.inner(), "valve.open").unwrap());
    assert_eq!(
        m.set_at(open, 0.5).unwrap_err(),
        SetError::NotLogical {
            var: Var::Index(open),
            value: 0.5
        }
    );
    assert_eq!(m.set_at(open, 1.0), Ok(()));
    assert_eq!(m.get_at(open), Some(1.0));
}
