//! The model-specific part of a compiled sweep's runner: `lanes.rs`, naming the root's
//! scalar and batch types and reading one variable of every lane by its index.
//!
//! `column(batch, var, out)` is the batch form of the scalar model's `get_at`: an arm
//! that reads a field (`self.x0`, `self.p1.roll.x`) becomes a copy of the batch's lanes of
//! that field (`b.x0`, `b.p1.roll.x`), and one that reads a flag through
//! `::sit_runtime::logical` the same per lane, after checking in the batch structs that
//! the path exists and is public there; any other arm (a condition, a mode) goes through
//! the lane's scalar model (`lane(i)` and `get_at`), which is the same value, slower.

use std::fmt::Write as _;

/// The lines of `code` from the one that contains `start` up to the first line that is
/// exactly `end` after it (excluded); `None` if `start` is not there.
fn block<'a>(code: &'a str, start: &str, end: &str) -> Option<Vec<&'a str>> {
    let at = code.find(start)?;
    let lines = code[at..].lines().skip(1);
    Some(lines.take_while(|l| *l != end).collect())
}

/// The type of field `name` of the batch struct `batch` in `code`, if it is public.
fn field_type<'a>(code: &'a str, batch: &str, name: &str) -> Option<&'a str> {
    let body = block(code, &format!("pub struct {batch}<const N: usize> {{"), "}")?;
    let prefix = format!("pub {name}: ");
    body.iter().find_map(|l| {
        let ty = l.trim().strip_prefix(&prefix)?;
        Some(ty.strip_suffix(',').unwrap_or(ty))
    })
}

/// Whether `path` (`a.b.c`) names a public lane array of `elem` (`f64`, `bool`) in the
/// batch struct `batch`, through public submodel batches.
fn lane_path(code: &str, batch: &str, path: &str, elem: &str) -> bool {
    let mut current = batch.to_string();
    let segments: Vec<&str> = path.split('.').collect();
    for (k, seg) in segments.iter().enumerate() {
        let Some(ty) = field_type(code, &current, seg) else {
            return false;
        };
        if k + 1 == segments.len() {
            return ty == format!("[{elem}; N]");
        }
        match ty.strip_suffix("<N>") {
            Some(sub) if sub.contains("Batch") => current = sub.to_string(),
            _ => return false,
        }
    }
    false
}

/// A field path of `self` (`self.a.b`): `a.b`.
fn self_path(expr: &str) -> Option<&str> {
    let path = expr.strip_prefix("self.")?;
    let ok = path.split('.').all(|s| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '#')
    });
    ok.then_some(path)
}

/// The arms of the root's `get_at`: each index and its expression, a submodel's range
/// (`8..=15 => return ::sit_runtime::Model::get_at(&self.roll, index - 8)`: the generated
/// code hands it to the submodel's own `get_at`) replaced by the submodel's arms with
/// their indices moved and their fields reached through it (`self.roll.x`).
fn get_at_arms(code: &str, ty: &str) -> Option<Vec<(usize, String)>> {
    let mut out = Vec::new();
    for (k, e) in arms(code, ty, "fn get_at(", "_ => return None")? {
        match delegated(&e) {
            Some((field, base)) => {
                let sub_ty = field_type_of(code, ty, field)?;
                for (j, se) in get_at_arms(code, sub_ty)? {
                    let se = se.replace("self.", &format!("self.{field}."));
                    out.push((base + j, se));
                }
            }
            None => out.push((k, e)),
        }
    }
    Some(out)
}

/// `(field, first)` of an arm that hands `index - first` to the submodel in `field`.
fn delegated(expr: &str) -> Option<(&str, usize)> {
    let rest = expr.strip_prefix("return ::sit_runtime::Model::get_at(&self.")?;
    let (field, rest) = rest.split_once(", index - ")?;
    let base = rest.strip_suffix(')')?.trim().parse().ok()?;
    Some((field, base))
}

/// The type of the public field `name` of the scalar struct `ty` in `code`.
fn field_type_of<'a>(code: &'a str, ty: &str, name: &str) -> Option<&'a str> {
    let start = code.find(&format!("pub struct {ty} {{"))?;
    let body = &code[start..];
    let body = &body[..body.find("\n}")?];
    let decl = format!("pub {name}: ");
    let at = body.find(&decl)? + decl.len();
    Some(body[at..].split(',').next()?.trim())
}

/// The arms of the root's `set_at`: each index and its statement (`self.u = value`).
fn set_at_arms(code: &str, ty: &str) -> Option<Vec<(usize, String)>> {
    arms(code, ty, "fn set_at(", "_ => {")
}

/// The arms of the `match index` of method `method` (`fn get_at(`) of the root's
/// `Model` impl, up to the arm that starts with `last`: each index and its expression.
fn arms(code: &str, ty: &str, method: &str, last: &str) -> Option<Vec<(usize, String)>> {
    let model = code.find(&format!("impl ::sit_runtime::Model for {ty} {{"))?;
    let rest = &code[model..];
    let at = rest.find(method)?;
    let rest = &rest[at..];
    let body = &rest[rest.find("match index {")? + "match index {".len()..];
    let body = &body[..body.find(last)?];
    let mut arms: Vec<(usize, String)> = Vec::new();
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        // A submodel's range, `8..=15 => …`, is keyed by its first index.
        let start = line.split_once(" => ").and_then(|(k, e)| {
            let first = k.split_once("..=").map_or(k, |(a, _)| a);
            Some((first.parse::<usize>().ok()?, e))
        });
        match start {
            Some((k, e)) => arms.push((k, e.to_string())),
            None => arms.last_mut()?.1.push_str(line),
        }
    }
    for arm in &mut arms {
        let e = arm.1.trim_end().trim_end_matches(',').to_string();
        arm.1 = e;
    }
    Some(arms)
}

/// The source of `lanes.rs` for the root type `ty` and its batch struct `batch` of the
/// generated `code`, with `lanes` lanes per block.
pub(crate) fn lanes_rs(code: &str, ty: &str, batch: &str, lanes: usize) -> Result<String, String> {
    let arms = get_at_arms(code, ty)
        .ok_or_else(|| format!("internal error: no `get_at` of `{ty}` in the generated code"))?;
    let mut out = format!(
        "//! The model's types and its variables read lane by lane, @generated by Sit. Do not edit.\n\n\
         pub use crate::model::{ty} as Scalar;\n\n\
         /// Sets run at once.\npub const LANES: usize = {lanes};\n\n\
         /// The batch form, `LANES` lanes.\npub type Batch = crate::model::{batch}<LANES>;\n\n\
         /// Variable `var` (a `get_at` index) of lane `i`, through the lane's scalar model.\n\
         fn through_lane(b: &Batch, i: usize, var: usize) -> f64 {{\n    \
         b.lane(i).and_then(|m| ::sit_runtime::Model::get_at(&m, var)).unwrap_or(f64::NAN)\n}}\n\n\
         /// Variable `var` of every lane into `out`.\n\
         pub fn column(b: &Batch, var: usize, out: &mut [f64; LANES]) {{\n    match var {{\n"
    );
    for (k, expr) in &arms {
        let logical = expr
            .strip_prefix("::sit_runtime::logical(")
            .and_then(|e| e.strip_suffix(')'))
            .and_then(self_path);
        let line = match (self_path(expr), logical) {
            (Some(p), _) if lane_path(code, batch, p, "f64") => {
                format!("        {k} => out.copy_from_slice(&b.{p}),\n")
            }
            (_, Some(p)) if lane_path(code, batch, p, "bool") => format!(
                "        {k} => {{\n            for i in 0..LANES {{\n                \
                 out[i] = ::sit_runtime::logical(b.{p}[i]);\n            }}\n        }}\n"
            ),
            _ => format!(
                "        {k} => {{\n            for i in 0..LANES {{\n                \
                 out[i] = through_lane(b, i, {k});\n            }}\n        }}\n"
            ),
        };
        out.push_str(&line);
    }
    let _ = write!(out, "        _ => out.fill(f64::NAN),\n    }}\n}}\n");
    let arms = set_at_arms(code, ty)
        .ok_or_else(|| format!("internal error: no `set_at` of `{ty}` in the generated code"))?;
    out.push_str(
        "\n/// Variable `var` (a `set_at` index: a driven input) of every lane set to `values`:\n\
         /// the batch form of the scalar model's `set_at`, the rest through the lane's\n\
         /// scalar model.\n\
         pub fn set_column(b: &mut Batch, var: usize, values: &[f64; LANES]) {\n    match var {\n",
    );
    for (k, stmt) in &arms {
        let Some((place, value)) = stmt.split_once(" = ") else {
            continue;
        };
        let line = match (self_path(place), value) {
            (Some(p), "value") if lane_path(code, batch, p, "f64") => {
                format!("        {k} => b.{p}.copy_from_slice(values),\n")
            }
            (Some(p), "::sit_runtime::from_logical(index, value)?")
                if lane_path(code, batch, p, "bool") =>
            {
                format!(
                    "        {k} => {{\n            for i in 0..LANES {{\n                \
                     b.{p}[i] = values[i] != 0.0;\n            }}\n        }}\n"
                )
            }
            _ => continue,
        };
        out.push_str(&line);
    }
    out.push_str(
        "        _ => {\n            for i in 0..LANES {\n                \
         if let Some(mut m) = b.lane(i) {\n                    \
         let _ = ::sit_runtime::Model::set_at(&mut m, var, values[i]);\n                    \
         b.set_lane(i, &m);\n                }\n            }\n        }\n    }\n}\n",
    );
    Ok(out)
}

/// The batch struct of the scalar type `ty` in `code` (`TyBatch`, with `_`s added where
/// that name was taken).
pub(crate) fn batch_of(code: &str, ty: &str) -> Option<String> {
    let base = ty.strip_prefix("r#").unwrap_or(ty);
    let mut name = format!("{base}Batch");
    while !code.contains(&format!("pub struct {name}<const N: usize>")) {
        name.push('_');
        if name.len() > base.len() + 16 {
            return None;
        }
    }
    // A later type may have taken `TyBatch` for itself; the batch of `ty` is documented
    // as its batch form.
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_copy_and_the_rest_go_through_the_lane() {
        // Positioning: fields of its own, of submodels (`roll.x`), flags, a mode.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/models/complex/positioning.sit"
        );
        let src = sit_driver::Source::path(path);
        let compiled = sit_driver::compile(&src, &Default::default()).expect("compiles");
        let code = sit_codegen::generate_with_batch(
            &compiled.lowered,
            &sit_codegen::Options {
                model: Some("Positioning".into()),
                ..Default::default()
            },
        )
        .expect("generates");
        let batch = batch_of(&code, "Positioning").expect("batch");
        let lanes = lanes_rs(&code, "Positioning", &batch, 8).expect("lanes");
        assert!(lanes.contains("=> out.copy_from_slice(&b.x)"), "{lanes}");
        assert!(
            lanes.contains("=> out.copy_from_slice(&b.roll.x)"),
            "{lanes}"
        );
        assert!(
            lanes.contains("::sit_runtime::logical(b.arrived[i])"),
            "{lanes}"
        );
        assert!(lanes.contains("through_lane(b, i, "), "{lanes}");
        // The input `target` is set lane by lane as a field; a flag as a bool per lane;
        // the rest through the lane's scalar model.
        assert!(
            lanes.contains("=> b.target.copy_from_slice(values)"),
            "{lanes}"
        );
        assert!(
            lanes.contains("b.arrived[i] = values[i] != 0.0;"),
            "{lanes}"
        );
        assert!(lanes.contains("b.set_lane(i, &m);"), "{lanes}");
    }
}
