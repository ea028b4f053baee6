//! What a checked model declares, for hovers and sliders: each model's names with kind, type and doc.

use serde_json::{Value, json};
use sit_middle::ir::Program;
use sit_middle::{SourceMap, Span};
use sit_runtime::Variables;

/// Every model of `program`, each with its declarations (name, kind, type, output,
/// doc, file, line, column, and for a mode its states), its submodels and its
/// `method`; `root` names the root model; `variables` lists the root instance's
/// variables by dotted path with their kind, whether they can be set and their value
/// at t = 0 (the page's sliders).
pub fn describe(program: &Program, root: Option<&str>) -> Value {
    let models: Vec<Value> = program
        .models
        .iter()
        .map(|m| {
            let mut decls = Vec::new();
            let item =
                |name: &str, kind: &str, ty: &str, output: bool, doc: &[String], span: Span| {
                    let mut d = located(&program.sources, span);
                    d["name"] = json!(name);
                    d["kind"] = json!(kind);
                    d["type"] = json!(ty);
                    d["output"] = json!(output);
                    d["doc"] = json!(doc.join("\n"));
                    d
                };
            let mut push = |d: Value| decls.push(d);
            for v in &m.vars {
                push(item(
                    &v.name,
                    v.kind_name(),
                    v.ty.name(),
                    v.output,
                    &v.doc,
                    v.span,
                ));
            }
            for c in &m.conds {
                push(item(
                    &c.name,
                    c.kind.name(),
                    "flag",
                    c.output,
                    &c.doc,
                    c.span,
                ));
            }
            for e in &m.events {
                push(item(&e.name, "event", "flag", e.output, &e.doc, e.span));
            }
            for md in &m.modes {
                let mut d = item(&md.name, "mode", "mode", md.output, &md.doc, md.span);
                d["states"] = json!(md.states);
                push(d);
            }
            for s in &m.subs {
                let model = &program.models[s.model].name;
                push(item(&s.name, "submodel", model, false, &s.doc, s.span));
            }
            let mut model = located(&program.sources, m.span);
            model["name"] = json!(m.name);
            model["doc"] = json!(m.doc.join("\n"));
            model["method"] = json!(m.method.name());
            model["declarations"] = Value::Array(decls);
            model
        })
        .collect();
    json!({ "root": root, "models": models })
}

/// The root instance's variables: dotted name, kind, type, whether settable, value at t = 0.
pub fn variables(instance: &sit_interp::Instance) -> Value {
    use sit_runtime::Model;
    Value::Array(
        Variables::new(instance)
            .enumerate()
            .map(|(i, v)| {
                json!({
                    "name": v.name,
                    "kind": v.kind.name(),
                    "logical": v.ty == sit_runtime::ValueType::Logical,
                    "settable": v.settable,
                    "output": v.output,
                    "value": instance.get_at(i),
                })
            })
            .collect(),
    )
}

/// `real` or `flag`.
/// `{file, line, column}` of the start of `span`.
fn located(sources: &SourceMap, span: Span) -> Value {
    let f = sources.file(span.file);
    let (line, column) = f.line_col(span.start);
    json!({ "file": f.display_name(), "line": line, "column": column })
}
