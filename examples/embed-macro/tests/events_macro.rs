//! `include_model!(PATH, events)`: the traffic light built for the event log by the
//! macro logs what the interpreter logs, step by step, with the same table, and keeps
//! the values of the plain instance, bit for bit.

use embed_macro::traffic_light_log::TrafficLight;
use sit_runtime::Model;
use sit_runtime::events::{Event, Logged, Table};

/// `table` with each site's file named by its last component (the macro and the test
/// name the same file by different paths).
fn by_file_name(mut table: Table) -> Table {
    for s in &mut table.sites {
        let (file, line) = s.location.rsplit_once(':').unwrap();
        let file = file.rsplit('/').next().unwrap();
        s.location = format!("{file}:{line}");
    }
    table
}

#[test]
fn the_macro_builds_the_event_log() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/traffic_light.sit");
    let program = sit_middle::check_file(path).unwrap().program.unwrap();
    let root = program.model("TrafficLight").unwrap();
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
    let mut plain = sit_interp::Instance::new(
        &sit_middle::lower::Lowered::new(&program, Default::default()).expect("lowers"),
        root,
    );
    assert_eq!(
        by_file_name(TrafficLight::event_table()),
        by_file_name(interp.table().clone())
    );
    let mut light = Logged::new(TrafficLight::new(), TrafficLight::event_table()).unwrap();
    assert_eq!(light.var_count(), plain.var_count(), "the whys are hidden");
    let key = |e: &Event| {
        (
            e.t.to_bits(),
            e.name.clone(),
            e.from.clone(),
            e.to.clone(),
            e.site,
        )
    };
    let mut changes = Vec::new();
    for k in 1..=300 {
        light.step(0.5);
        interp.step(0.5);
        plain.step(0.5);
        let (compiled, interpreted) = (light.take_events(), interp.take_events());
        assert_eq!(
            compiled.iter().map(key).collect::<Vec<_>>(),
            interpreted.iter().map(key).collect::<Vec<_>>(),
            "step {k}"
        );
        for i in 0..plain.var_count() {
            let (a, b) = (light.get_at(i).unwrap(), plain.get_at(i).unwrap());
            assert_eq!(a.to_bits(), b.to_bits(), "step {k}, variable #{i}");
        }
        changes.extend(compiled);
    }
    // 150 s: red 30 s, green 25 s, yellow 5 s, a cycle of 60 s; green again at 150.
    let light_changes: Vec<(f64, &str)> = (changes.iter())
        .filter(|e| e.name == "light")
        .map(|e| (e.t, e.to.as_str()))
        .collect();
    assert_eq!(
        light_changes,
        [
            (30.0, "green"),
            (55.0, "yellow"),
            (60.0, "red"),
            (90.0, "green"),
            (115.0, "yellow"),
            (120.0, "red"),
            (150.0, "green")
        ]
    );
    let table = light.table();
    let first = &changes.iter().find(|e| e.name == "light").unwrap();
    assert!(
        first.rule(table).ends_with("traffic_light.sit:25"),
        "{}",
        first.rule(table)
    );
}
