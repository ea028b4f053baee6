//! The malformed-schematic corpus: every file of `tests/malformed/` names on its first
//! line the code it must produce (`// expect: E0503`); its rendered diagnostics are
//! snapshotted, and together the files cover every code of the schematic front end.

use std::collections::BTreeSet;
use std::path::PathBuf;

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/malformed exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sch"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_malformed_schematic_gets_its_diagnostic() {
    let mut covered = BTreeSet::new();
    for (name, text) in corpus() {
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{name}: no `// expect:` line"))
            .trim()
            .to_string();
        let path = format!("tests/malformed/{name}");
        let (found, report) = sit_schematic::analyse_source(&path, &text);
        assert!(found.is_none(), "{name}: accepted");
        let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code).collect();
        assert!(
            codes.contains(&expect.as_str()),
            "{name}: expected {expect}, got {codes:?}\n{}",
            report.render()
        );
        covered.insert(expect);
        insta::assert_snapshot!(name.trim_end_matches(".sch").to_string(), report.render());
    }
    let all: BTreeSet<String> = (500..=519).map(|n| format!("E0{n}")).collect();
    let missing: Vec<_> = all.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "codes without a corpus file: {missing:?}"
    );
}

#[test]
fn json_diagnostics_have_locations() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/malformed/gap_in_shaft.sch"),
    )
    .unwrap();
    let (_, report) = sit_schematic::analyse_source("gap.sch", &text);
    let json = report.to_json();
    assert_eq!(json[0]["code"], "E0503");
    assert_eq!(json[0]["location"]["line"], 4);
    assert_eq!(json[0]["location"]["column"], 14);
}
