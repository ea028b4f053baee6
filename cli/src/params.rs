//! Values for `sitc run`: `--set NAME=VALUE` arguments and `--params FILE.toml` tables.

pub use sit_middle::load::io_reason;
use std::path::Path;

/// Parses `NAME=VALUE`; the value is a number (Rust's `f64` syntax: `1`, `-2.5e-3`,
/// `inf`) or `true`/`false` (1/0, for logical variables).
pub fn parse_set(arg: &str) -> Result<(String, f64), String> {
    let Some((name, value)) = arg.split_once('=') else {
        return Err(format!("--set `{arg}`: expected NAME=VALUE"));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("--set `{arg}`: the name is missing"));
    }
    let value = parse_value(value.trim())
        .ok_or_else(|| format!("--set {name}: `{}` is not a number", value.trim()))?;
    Ok((name.to_string(), value))
}

/// A number, or `true`/`false` as 1/0.
fn parse_value(text: &str) -> Option<f64> {
    match text {
        "true" => Some(1.0),
        "false" => Some(0.0),
        _ => text.parse().ok(),
    }
}

/// Reads a TOML file of values: `name = 1.5` at the top level, nested tables for
/// submodels (`[p1.roll]` then `x = 2` is `p1.roll.x = 2`), dotted keys alike. Numbers
/// (integers or floats) and booleans (1/0) are accepted; the order is the keys' (no two
/// keys of a TOML file name the same variable, so it does not matter).
pub fn read_params(path: &Path) -> Result<Vec<(String, f64)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read `{}`: {}", path.display(), io_reason(&e)))?;
    parse_params(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// [`read_params`] on text.
pub fn parse_params(text: &str) -> Result<Vec<(String, f64)>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e.span().map(|s| {
            let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: ")
        });
        format!("{}{}", at.unwrap_or_default(), e.message().trim())
    })?;
    let mut out = Vec::new();
    flatten("", &table, &mut out)?;
    Ok(out)
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, f64)>) -> Result<(), String> {
    for (key, value) in table {
        let name = format!("{prefix}{key}");
        match value {
            toml::Value::Integer(i) => out.push((name, *i as f64)),
            toml::Value::Float(x) => out.push((name, *x)),
            toml::Value::Boolean(b) => out.push((name, if *b { 1.0 } else { 0.0 })),
            toml::Value::Table(t) => flatten(&format!("{name}."), t, out)?,
            other => {
                return Err(format!(
                    "`{name}`: expected a number or a boolean, found {}",
                    other.type_str()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_arguments() {
        assert_eq!(parse_set("k=2.5"), Ok(("k".into(), 2.5)));
        assert_eq!(parse_set(" p1.x = -1e-3 "), Ok(("p1.x".into(), -1e-3)));
        assert_eq!(parse_set("q=true"), Ok(("q".into(), 1.0)));
        assert_eq!(
            parse_set("k=a=b").unwrap_err(),
            "--set k: `a=b` is not a number"
        );
        assert_eq!(
            parse_set("k").unwrap_err(),
            "--set `k`: expected NAME=VALUE"
        );
        assert!(parse_set("=1").is_err());
        assert!(parse_set("k=").is_err());
    }

    #[test]
    fn params_tables_flatten() {
        let text = "k = 2\nh = 1.5\nq = true\nroll.x = 3\n[p1.roll]\nv = -0.5\n";
        let mut got = parse_params(text).unwrap();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            got,
            [
                ("h".to_string(), 1.5),
                ("k".into(), 2.0),
                ("p1.roll.v".into(), -0.5),
                ("q".into(), 1.0),
                ("roll.x".into(), 3.0),
            ]
        );
        assert_eq!(
            parse_params("k = \"x\"").unwrap_err(),
            "`k`: expected a number or a boolean, found string"
        );
        let bad = parse_params("k = 1\nk = = 2\n").unwrap_err();
        assert!(bad.starts_with("line 2: "), "{bad}");
        assert!(!bad.contains('\n'), "{bad}");
    }
}
