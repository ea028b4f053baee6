//! Sit in the browser: the checker, formatter, interpreter and schematics behind a JSON API.
//!
//! The same Rust that `sitc` runs, compiled to WebAssembly by `scripts/build-web.sh`
//! (see `docs/web.md`); the page's JavaScript only draws what these functions return.
//! Every function here is plain Rust, tested natively; [`bindings`] exports them to
//! JavaScript as `extern "C"` functions over the module's memory (strings of JSON, and
//! traces as `f64`s), which `web/site/sit_web.js` wraps.
//!
//! ```
//! let files = sit_web::files::Files::new();
//! let checked = sit_web::check("ball.sit", "model Ball { output real h = 1; h = integral(-g); }", &files);
//! assert_eq!(checked["diagnostics"][0]["code"], "E0101");
//! assert_eq!(checked["diagnostics"][0]["location"]["line"], 1);
//! ```

#[allow(unsafe_code)]
// The WebAssembly exports: pointers and lengths from the page. See `bindings`.
pub mod bindings;
pub mod diagnostics;
pub mod files;
pub mod front;
pub mod highlight;
pub mod info;
pub mod run;

use files::Files;
use serde_json::{Value, json};

/// Checks the model at `path` with text `text` (imports read from `files`):
/// `{"ok": no errors, "diagnostics": [...]}` (see [`diagnostics::to_json`]).
pub fn check(path: &str, text: &str, files: &Files) -> Value {
    let (program, report) = front::check(path, text, files);
    json!({
        "ok": program.is_some(),
        "diagnostics": diagnostics::to_json(&report, path),
    })
}

/// `sitc fmt` of `text`: `{"ok": true, "text": ...}`, or the syntax errors.
pub fn format(path: &str, text: &str) -> Value {
    match front::format(path, text) {
        Ok(text) => json!({ "ok": true, "text": text }),
        Err(report) => json!({ "ok": false, "diagnostics": diagnostics::to_json(&report, path) }),
    }
}

/// What the model declares ([`info::describe`]), its root instance's variables
/// ([`info::variables`]) and the run options of its `Run:` line (or `sitc run`'s
/// defaults), with its diagnostics; `model` chooses the root.
pub fn info(path: &str, text: &str, files: &Files, model: Option<&str>) -> Value {
    let options = run::Options::from_run_line(text);
    let (program, report) = front::check(path, text, files);
    let diagnostics = diagnostics::to_json(&report, path);
    let Some(program) = program else {
        return json!({ "ok": false, "diagnostics": diagnostics, "run": options.to_json() });
    };
    let model = model.or(options.model.as_deref());
    let root = front::root(&program, model);
    let (name, variables, message) = match root.and_then(|r| Ok((r, front::instance(&program, r)?)))
    {
        Ok((r, instance)) => (
            Some(program.models[r].name.as_str()),
            info::variables(&instance),
            None,
        ),
        Err(e) => (None, json!([]), Some(e)),
    };
    json!({
        "ok": true,
        "diagnostics": diagnostics,
        "info": info::describe(&program, name),
        "variables": variables,
        "message": message,
        "run": options.to_json(),
    })
}

/// A schematic (`.sch` text): its drawing (`svg`), its incidence matrices (`matrices`
/// as `sitc schematic` prints them, `json` as `--format json` does) and its generated
/// model (`sit`), or its diagnostics.
pub fn schematic(path: &str, text: &str) -> Value {
    let (analysis, report) = front::schematic(path, text);
    let diagnostics = diagnostics::to_json(&report, path);
    match analysis {
        Some(a) => json!({
            "ok": true,
            "diagnostics": diagnostics,
            "svg": sit_schematic::svg::draw(&a),
            "matrices": a.matrices().to_text(),
            "json": a.to_json(),
            "sit": a.to_sit(None).text,
        }),
        None => json!({ "ok": false, "diagnostics": diagnostics }),
    }
}

/// The names of the integration methods a run can take (`--method` of `sitc run`), in
/// the order of `sit_middle::ir::Method::ALL`: the page's list of methods.
pub fn methods() -> Value {
    Value::Array(
        (sit_middle::ir::Method::ALL.iter())
            .map(|m| json!(m.name()))
            .collect(),
    )
}

/// The library's models and schematics: path, the first line of its doc, and whether it
/// is a schematic.
pub fn library() -> Value {
    let entries: Vec<Value> = (files::LIBRARY.iter())
        .filter(|(p, _)| p.ends_with(".sit") || p.ends_with(".sch"))
        .map(|(path, text)| {
            let doc = (text.lines())
                .find_map(|l| l.trim().strip_prefix("///"))
                .map_or("", str::trim);
            json!({
                "path": path,
                "doc": doc,
                "schematic": path.ends_with(".sch"),
            })
        })
        .collect();
    Value::Array(entries)
}

#[cfg(test)]
mod tests;
