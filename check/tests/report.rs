//! The report of diagnostics (`sit_parser::Report`) over checked files: rendering, relocation, allowing, JSON.

use sit_check::Report;
use std::path::{Path, PathBuf};

fn report() -> Report {
    let out = sit_check::check_source("/home/u/crate/models/m.sit", "model M { real x = ; }");
    Report::new(out.diagnostics, out.sources)
}

#[test]
fn renders_as_given_or_relocated() {
    let r = report();
    assert!(r.has_errors() && !r.is_empty());
    assert!(
        r.render()
            .starts_with("/home/u/crate/models/m.sit:1:20: error[E0001]")
    );
    assert_eq!(r.to_string(), r.render());
    let local = r.relative_to(Path::new("/home/u/crate"));
    assert!(
        local
            .render()
            .starts_with("models/m.sit:1:20: error[E0001]")
    );
    assert_eq!(local.files(), [PathBuf::from("models/m.sit")]);
    let elsewhere = r.relative_to(Path::new("/elsewhere"));
    assert_eq!(elsewhere.render(), r.render());
}

#[test]
fn allowing_and_errors_only_keep_the_errors() {
    let out = sit_check::check_source("m.sit", "model M { real a; real b = ; }");
    let r = Report::new(out.diagnostics, out.sources);
    let out = sit_check::check_source("w.sit", "model M { real a, b; }");
    let w = Report::new(out.diagnostics, out.sources);
    assert_eq!(w.diagnostics.len(), 2);
    assert!(w.allowing(&["W0201"]).is_empty());
    assert_eq!(w.allowing(&["W0202"]).diagnostics.len(), 2);
    assert!(w.errors_only().is_empty());
    assert!(r.has_errors());
    assert!(r.allowing(&["E0001"]).has_errors());
    assert!(r.errors_only().has_errors());
}

#[test]
fn json_has_one_object_per_diagnostic() {
    let r = report();
    let json = r.to_json();
    assert_eq!(json.len(), r.diagnostics.len());
    assert_eq!(json[0]["code"], "E0001");
    assert_eq!(json[0]["location"]["file"], "/home/u/crate/models/m.sit");
    assert_eq!(json[0]["location"]["line"], 1);
}
