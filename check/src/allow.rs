//! Warnings under control: `#[allow(CODE, reason = "…")]` in `.sit` files, and the list of warning codes.
//!
//! An `allow` attribute stands before a model, a declaration or a rule (σ
//! rules and `when` blocks included) and silences the warnings with the
//! given codes whose primary location lies inside what it stands before. A
//! reason is required (E0440), and each code must be a warning's (E0441):
//! errors cannot be allowed. Front ends add their own switches on top
//! (`sitc --allow CODE`, `-q`, `Builder::allow`) through
//! [`crate::Report::allowing`].

use crate::ast;
use crate::diag::{Diagnostic, Severity};
use crate::source::{FileId, Span};
use std::collections::HashMap;

pub use sit_parser::diag::{WARNINGS, is_warning};

/// Remove from `diags` the warnings that an `allow` attribute of `files`
/// covers. Linear in the number of attributes and diagnostics (each looks
/// its location up among the merged scopes of its code, by bisection).
pub fn apply(files: &[(FileId, ast::File)], diags: &mut Vec<Diagnostic>) {
    let mut scopes: HashMap<(FileId, &str), Vec<(usize, usize)>> = HashMap::new();
    for (_, f) in files {
        for a in &f.allows {
            for code in &a.codes {
                scopes
                    .entry((a.scope.file, code.text.as_str()))
                    .or_default()
                    .push((a.scope.start, a.scope.end));
            }
        }
    }
    if scopes.is_empty() {
        return;
    }
    for list in scopes.values_mut() {
        list.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(list.len());
        for &(s, e) in list.iter() {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        *list = merged;
    }
    diags.retain(|d| {
        if d.severity != Severity::Warning {
            return true;
        }
        !scopes
            .get(&(d.span.file, d.code))
            .is_some_and(|list| covers(list, d.span))
    });
}

/// The name an `allow` attribute takes for "non-finite values are intended", in place
/// of a warning code: `#[allow(non_finite, reason = "…")]`.
pub const NON_FINITE: &str = "non_finite";

/// Marks the models of `program` that an `#[allow(non_finite, …)]` of `files` stands
/// before (its scope holds the model's name) or inside (the last model whose name comes
/// before it in its file): [`crate::ir::Model::allow_non_finite`].
pub fn mark_non_finite(files: &[(FileId, ast::File)], program: &mut crate::ir::Program) {
    for (_, f) in files {
        for a in f
            .allows
            .iter()
            .filter(|a| a.codes.iter().any(|c| c.text == NON_FINITE))
        {
            let scope = a.scope;
            let same_file = |m: &&mut crate::ir::Model| m.span.file == scope.file;
            let before = (program.models.iter_mut())
                .filter(same_file)
                .find(|m| scope.start <= m.span.start && m.span.end <= scope.end);
            if let Some(m) = before {
                m.allow_non_finite = true;
                continue;
            }
            let inside = (program.models.iter_mut())
                .filter(same_file)
                .filter(|m| m.span.start < scope.start)
                .max_by_key(|m| m.span.start);
            if let Some(m) = inside {
                m.allow_non_finite = true;
            }
        }
    }
}

/// Whether one of the disjoint, sorted `scopes` holds `span`.
fn covers(scopes: &[(usize, usize)], span: Span) -> bool {
    let i = scopes.partition_point(|&(s, _)| s <= span.start);
    i > 0 && span.end <= scopes[i - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(src: &str) -> Vec<String> {
        let out = crate::check_source("m.sit", src);
        assert!(!out.has_errors(), "{}", out.render());
        out.diagnostics
            .iter()
            .map(|d| format!("{} {}", d.code, out.sources.text(d.span)))
            .collect()
    }

    fn errors(src: &str) -> Vec<(&'static str, String)> {
        let out = crate::check_source("m.sit", src);
        out.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.code, out.sources.text(d.span).to_string()))
            .collect()
    }

    const TWO: &str = "
    output real x = 1;
    real a, b;
    a = 1;
    b = 2;
    x = integral(-x);
}";

    #[test]
    fn a_model_attribute_covers_the_model_only() {
        let src = format!(
            "#[allow(W0201, reason = \"kept for the plots\")]\nmodel M {{{TWO}\nmodel N {{{TWO}"
        );
        assert_eq!(warnings(&src), ["W0201 a", "W0201 b"]);
        // Doc comments before or after the attribute.
        let src = format!("/// M.\n#[allow(W0201, reason = \"r\")]\n/// More.\nmodel M {{{TWO}");
        assert!(warnings(&src).is_empty());
        let out = crate::check_source("m.sit", &src);
        let program = out.program.expect("valid");
        assert_eq!(program.models[0].doc, ["M.", "More."]);
    }

    #[test]
    fn a_declaration_or_rule_attribute_covers_it_only() {
        let decl = TWO.replace(
            "real a, b;",
            "#[allow(W0201, reason = \"r\")] real a;\n    real b;",
        );
        assert_eq!(warnings(&format!("model M {{{decl}")), ["W0201 b"]);
        let rules = "model M {
    output real x = 1, y;
    input real u;
    y = 1 when u > 0;
    #[allow(W0202, reason = \"the later value wins on purpose\")]
    y = 2 when u > 1;
    y = 3 when u > 2;
    y = 0 otherwise;
    when u > 5 {
        #[allow(W0202, W0203, reason = \"r\")]
        x = 4 when u > 6;
    }
    x = integral(-x) otherwise;
}";
        assert_eq!(warnings(rules), ["W0202 y = 3 when u > 2;"]);
    }

    #[test]
    fn a_reason_and_warning_codes_are_required() {
        let e = errors("#[allow(W0201)]\nmodel M { real a; }");
        assert_eq!(e, [("E0440", "#[allow(W0201)]".to_string())]);
        let e = errors("#[allow(W0201, reason = \"\")]\nmodel M { real a; }");
        assert_eq!(e[0].0, "E0440");
        let e = errors("#[allow(E0101, W0299, reason = \"r\")]\nmodel M { }");
        assert_eq!(
            e,
            [
                ("E0441", "E0101".to_string()),
                ("E0441", format!("W{}", "0299"))
            ]
        );
        let e = errors("model M { real a; #[allow(W0201, reason = \"r\")] }");
        assert_eq!(e[0].0, "E0001");
        let e = errors("#[deny(W0201, reason = \"r\")]\nmodel M { }");
        assert_eq!(e[0].0, "E0001");
        let e = errors("#[allow(reason = \"r\")]\nmodel M { }");
        assert_eq!(e[0], ("E0001", "r".to_string()));
    }

    /// Every warning code the front end emits (read from its source) is
    /// listed in [`WARNINGS`], so that it can be allowed.
    #[test]
    fn every_warning_code_is_listed() {
        let mut todo = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
        let mut found = std::collections::BTreeSet::new();
        while let Some(dir) = todo.pop() {
            for e in std::fs::read_dir(&dir).expect("source folder") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).expect("source");
                    let b = text.as_bytes();
                    for i in 0..b.len().saturating_sub(6) {
                        if b[i] == b'"'
                            && b[i + 1] == b'W'
                            && b[i + 2..i + 6].iter().all(u8::is_ascii_digit)
                            && b[i + 6] == b'"'
                        {
                            found.insert(text[i + 1..i + 6].to_string());
                        }
                    }
                }
            }
        }
        let listed: std::collections::BTreeSet<String> =
            WARNINGS.iter().map(|s| s.to_string()).collect();
        assert_eq!(found, listed);
    }
}
