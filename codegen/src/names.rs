//! Mapping of `.sit` names to Rust identifiers: keywords, collisions and naming lints.
//!
//! The rules (also in `docs/codegen.md`):
//!
//! - a name that is a valid Rust identifier is kept as written, non-ASCII included;
//! - a Rust keyword becomes a raw identifier (`type` → `r#type`), except `self`,
//!   `Self`, `super`, `crate` and `_`, which cannot be raw and get a suffix `_`;
//! - a part's variable, flattened into its holder under a dotted name (`r1.p.v`),
//!   has its dots made `_` (`r1_p_v`) and counts as changed;
//! - a model name that is a primitive type (`f64`, `bool`, ...) gets a suffix `_`, so
//!   that the generated `f64` fields still mean the primitive;
//! - names kept as written are allocated first; a name that was changed, or that
//!   collides with a generated item (`new`, `step`, `VARIABLES`, ...), or with an
//!   internal field (`time`, `s_on`, ...), gets more `_` until it is unique in its
//!   namespace.

use std::collections::HashSet;

/// Strict and reserved keywords of Rust 2024 that may be written as raw identifiers.
const RAW_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Keywords that cannot be raw identifiers.
const NO_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Primitive type names, which a model's struct must not shadow.
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16",
    "u32", "u64", "u128", "usize",
];

/// Method names generated on every model (inherent or through common traits).
pub(crate) const RESERVED_METHODS: &[&str] = &[
    "new",
    "step",
    "reset",
    "time",
    "default",
    "clone",
    "clone_from",
    "fmt",
    "var_count",
    "var_info",
    "get_at",
    "set_at",
    "var_index",
    "get",
    "set",
    "variables",
    "VARIABLES",
    "HIDDEN_VARIABLES",
];

/// The Rust spelling of `name`, before collision handling: raw identifier for keywords,
/// a suffix `_` for the keywords that cannot be raw, `_` for a character that no
/// identifier holds. Returns whether it was changed.
fn escape(name: &str, is_type: bool) -> (String, bool) {
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        // A name the lowering made (a sensitivity's `d(x)/d(k)`) or a part's
        // variable flattened into its holder (`r1.p.v`): its other characters as `_`.
        let ident: String = name
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        (ident, true)
    } else if NO_RAW.contains(&name) || (is_type && PRIMITIVES.contains(&name)) {
        (format!("{name}_"), true)
    } else if RAW_KEYWORDS.contains(&name) {
        (format!("r#{name}"), false)
    } else {
        (name.to_string(), false)
    }
}

/// One namespace of identifiers (a struct's fields, a type's methods, the module's
/// types), handing out unique spellings.
#[derive(Debug, Default)]
pub(crate) struct Namespace {
    used: HashSet<String>,
}

impl Namespace {
    /// A namespace in which `reserved` are already taken.
    pub(crate) fn with_reserved(reserved: &[&str]) -> Namespace {
        Namespace {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Allocates identifiers for user `names` in two passes: names usable as written
    /// first (so their spelling never depends on other names), then the escaped ones,
    /// suffixed with `_` until unique. Returns the spellings in the order of `names`.
    pub(crate) fn user_names(&mut self, names: &[&str], is_type: bool) -> Vec<String> {
        let escaped: Vec<(String, bool)> = names.iter().map(|n| escape(n, is_type)).collect();
        let mut out: Vec<Option<String>> = vec![None; names.len()];
        for (i, (ident, changed)) in escaped.iter().enumerate() {
            if !changed && !self.used.contains(ident) {
                self.used.insert(ident.clone());
                out[i] = Some(ident.clone());
            }
        }
        for (i, (ident, _)) in escaped.into_iter().enumerate() {
            if out[i].is_none() {
                out[i] = Some(self.fresh(ident));
            }
        }
        out.into_iter().flatten().collect()
    }

    /// A unique identifier based on `base` (already a valid identifier): `base`,
    /// `base_`, `base__`, ...
    pub(crate) fn fresh(&mut self, base: String) -> String {
        let mut ident = base;
        while self.used.contains(&ident) {
            ident.push('_');
        }
        self.used.insert(ident.clone());
        ident
    }

    /// A unique identifier for an internal item derived from a `.sit` name
    /// (`{name}_on`): escaped like a user name, then made unique.
    pub(crate) fn internal(&mut self, text: &str) -> String {
        let (ident, _) = escape(text, false);
        self.fresh(ident)
    }
}

/// The identifier text without a `r#` prefix.
fn bare(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// Whether rustc's `non_snake_case` lint accepts `ident` (same rules as rustc).
pub(crate) fn is_snake_case(ident: &str) -> bool {
    let ident = bare(ident).trim_matches('_');
    let mut allow_underscore = true;
    ident.chars().all(|c| {
        allow_underscore = match c {
            '_' if !allow_underscore => return false,
            '_' => false,
            c if !c.is_uppercase() => true,
            _ => return false,
        };
        true
    })
}

/// Whether rustc's `non_camel_case_types` lint accepts `ident` (same rules as rustc).
pub(crate) fn is_camel_case(ident: &str) -> bool {
    let name = bare(ident).trim_matches('_');
    let Some(first) = name.chars().next() else {
        return true;
    };
    let has_case = |c: char| c.is_uppercase() || c.is_lowercase();
    let chars: Vec<char> = name.chars().collect();
    !first.is_lowercase()
        && !name.contains("__")
        && !chars
            .windows(2)
            .any(|w| (has_case(w[0]) && w[1] == '_') || (has_case(w[1]) && w[0] == '_'))
}

/// A `proc_macro2` identifier from a spelling made by this module (`r#` prefix allowed).
pub(crate) fn ident(spelling: &str) -> proc_macro2::Ident {
    let span = proc_macro2::Span::call_site();
    match spelling.strip_prefix("r#") {
        Some(raw) => proc_macro2::Ident::new_raw(raw, span),
        None => proc_macro2::Ident::new(spelling, span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_collisions() {
        let mut ns = Namespace::with_reserved(RESERVED_METHODS);
        let got = ns.user_names(&["type", "self", "self_", "step", "α", "Vy", "_"], false);
        assert_eq!(got, ["r#type", "self__", "self_", "step_", "α", "Vy", "__"]);
        assert_eq!(ns.internal("Vy"), "Vy_");
        assert_eq!(ns.internal("fn"), "r#fn");
    }

    #[test]
    fn type_names() {
        let mut ns = Namespace::default();
        let got = ns.user_names(&["f64", "Self", "Hoop", "Self_"], true);
        assert_eq!(got, ["f64_", "Self__", "Hoop", "Self_"]);
    }

    #[test]
    fn lint_rules() {
        for ok in ["h", "k_press", "r#type", "_x", "x_", "α", "ящик"] {
            assert!(is_snake_case(ok), "{ok}");
        }
        for bad in ["R", "Vy", "a__b", "Ящик"] {
            assert!(!is_snake_case(bad), "{bad}");
        }
        for ok in ["Hoop", "HoopV2", "Ящик", "Self_", "日本"] {
            assert!(is_camel_case(ok), "{ok}");
        }
        for bad in ["hoop", "Hoop_v2", "A__B", "ящик"] {
            assert!(!is_camel_case(bad), "{bad}");
        }
    }
}
