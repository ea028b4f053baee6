//! `--param NAME=LO..HI:N` and `NAME=V1,V2,...`: the values of a sweep axis, printed as written.
//!
//! Listed values keep the user's text. Range points are the decimal points
//! `LO + (HI − LO)·k/(N − 1)` computed exactly from the decimal texts of LO and HI, then
//! rounded once to the nearest `f64`, so `0.1..0.2:3` gives 0.15 (not
//! 0.15000000000000002, the result of rounding each operation); points that are not
//! finite decimals (`0..1:4` has 1/3) are computed in `f64`, the last one exactly HI.

use sit_runtime::sweep::linspace;

/// One axis: the variable's name, its values and their labels for the output.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The variable's dotted name.
    pub name: String,
    /// The values, in order.
    pub values: Vec<f64>,
    /// How each value is printed: the text given, or the shortest decimal of the value.
    pub labels: Vec<String>,
}

/// Parses `NAME=LO..HI:N` or `NAME=V1,V2,...`.
pub fn parse_axis(arg: &str) -> Result<Axis, String> {
    let Some((name, values)) = arg.split_once('=') else {
        return Err(format!(
            "--param `{arg}`: expected NAME=LO..HI:N or NAME=V1,V2,..."
        ));
    };
    let (name, values) = (name.trim(), values.trim());
    if name.is_empty() {
        return Err(format!("--param `{arg}`: the name is missing"));
    }
    let axis = |values: Vec<f64>, labels: Vec<String>| Axis {
        name: name.to_string(),
        values,
        labels,
    };
    if let Some((lo_text, rest)) = values.split_once("..") {
        let bad = || format!("--param {name}: `{values}` is not LO..HI:N (e.g. 0..1:11)");
        let (hi_text, n) = rest.split_once(':').ok_or_else(bad)?;
        let (lo_text, hi_text) = (lo_text.trim(), hi_text.trim());
        let lo: f64 = lo_text.parse().map_err(|_| bad())?;
        let hi: f64 = hi_text.parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(format!(
                "--param {name}: the ends of `{values}` must be finite"
            ));
        }
        if n == 0 {
            return Err(format!(
                "--param {name}: `{values}` has N = 0 values; N must be at least 1"
            ));
        }
        let points = range(lo_text, hi_text, n).unwrap_or_else(|| linspace(lo, hi, n));
        let labels = (points.iter())
            .map(|&v| sit_runtime::number::shortest(v).to_string())
            .collect();
        return Ok(axis(points, labels));
    }
    let (mut list, mut labels) = (Vec::new(), Vec::new());
    for text in values.split(',').map(str::trim) {
        let value = match text {
            "true" => 1.0,
            "false" => 0.0,
            _ => text
                .parse()
                .map_err(|_| format!("--param {name}: `{text}` is not a number"))?,
        };
        list.push(value);
        labels.push(text.to_string());
    }
    Ok(axis(list, labels))
}

/// The points of `lo..hi:n` from the decimal texts, each the nearest `f64` to the exact
/// decimal point where that is a finite decimal, else [`linspace`]'s. `None` if a text
/// is not a plain decimal or the arithmetic would overflow `i128`.
fn range(lo: &str, hi: &str, n: usize) -> Option<Vec<f64>> {
    let (lo_m, lo_e) = decimal(lo)?;
    let (hi_m, hi_e) = decimal(hi)?;
    let e = lo_e.min(hi_e);
    let scale = |m: i128, from: i32| m.checked_mul(10i128.checked_pow((from - e) as u32)?);
    let (l, h) = (scale(lo_m, lo_e)?, scale(hi_m, hi_e)?);
    let fallback = linspace(lo.parse().ok()?, hi.parse().ok()?, n);
    if n == 1 {
        return Some(fallback);
    }
    let den = i128::try_from(n - 1).ok()?;
    (0..n)
        .map(|k| {
            let k = i128::try_from(k).ok()?;
            let mut num = l.checked_mul(den - k)?.checked_add(h.checked_mul(k)?)?;
            // num/den · 10^e is a finite decimal if num·10^j is a multiple of den for a
            // small j (den has no prime factor but 2 and 5, once reduced).
            let mut exp = e;
            for _ in 0..20 {
                if num % den == 0 {
                    return format!("{}e{exp}", num / den).parse().ok();
                }
                let Some(next) = num.checked_mul(10) else {
                    break;
                };
                (num, exp) = (next, exp - 1);
            }
            Some(fallback[usize::try_from(k).ok()?])
        })
        .collect()
}

/// A decimal number as `mantissa · 10^exponent` (`-1.25e-3` is `(-125, -5)`); `None` for
/// other texts (`inf`, `nan`) and for more than 30 digits.
fn decimal(text: &str) -> Option<(i128, i32)> {
    let (body, exp) = match text.split_once(['e', 'E']) {
        Some((b, x)) => (b, x.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (negative, body) = match body.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, body.strip_prefix('+').unwrap_or(body)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let m: i128 = digits.parse().ok()?;
    let frac_len = i32::try_from(frac.len()).ok()?;
    Some((if negative { -m } else { m }, exp.checked_sub(frac_len)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(arg: &str) -> Vec<f64> {
        parse_axis(arg).unwrap().values
    }

    fn labels(arg: &str) -> Vec<String> {
        parse_axis(arg).unwrap().labels
    }

    #[test]
    fn ranges_are_the_decimal_points() {
        assert_eq!(values("mu=0..1:5"), [0.0, 0.25, 0.5, 0.75, 1.0]);
        // f64 arithmetic gives 0.1 + 0.05 = 0.15000000000000002 here.
        assert_eq!(values("k=0.1..0.2:3"), [0.1, 0.15, 0.2]);
        assert_eq!(labels("k=0.1..0.2:3"), ["0.1", "0.15", "0.2"]);
        assert_eq!(labels("k=0..0.3:4"), ["0", "0.1", "0.2", "0.3"]);
        assert_eq!(labels("k=1e-3..3e-3:3"), ["0.001", "0.002", "0.003"]);
        assert_eq!(
            labels("k=-0.5..0.5:5"),
            ["-0.5", "-0.25", "0", "0.25", "0.5"]
        );
        // 1/3 is no finite decimal: the f64 formula.
        assert_eq!(values("k=0..1:4")[1], 1.0 / 3.0);
        assert_eq!(values("k = -1..1:1"), [-1.0]);
        assert_eq!(values("k=0.1..0.7:7"), [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    }

    #[test]
    fn lists_keep_their_text() {
        let axis = parse_axis("q=true,false,2.50,1e3").unwrap();
        assert_eq!(axis.values, [1.0, 0.0, 2.5, 1000.0]);
        assert_eq!(axis.labels, ["true", "false", "2.50", "1e3"]);
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal("-1.25e-3"), Some((-125, -5)));
        assert_eq!(decimal("3"), Some((3, 0)));
        assert_eq!(decimal(".5"), Some((5, -1)));
        assert_eq!(decimal("inf"), None);
        assert_eq!(decimal("1e400"), Some((1, 400)));
    }

    #[test]
    fn bad_axes() {
        assert_eq!(
            parse_axis("mu=0..1:0").unwrap_err(),
            "--param mu: `0..1:0` has N = 0 values; N must be at least 1"
        );
        assert_eq!(
            parse_axis("mu=0..1").unwrap_err(),
            "--param mu: `0..1` is not LO..HI:N (e.g. 0..1:11)"
        );
        assert!(parse_axis("mu=0..x:3").is_err());
        assert!(parse_axis("mu=0..1:-2").is_err());
        assert!(parse_axis("mu=0..inf:2").is_err());
        assert!(parse_axis("mu=0..1e400:2").is_err());
        assert_eq!(
            parse_axis("mu=1,,2").unwrap_err(),
            "--param mu: `` is not a number"
        );
        assert!(parse_axis("mu").is_err());
        assert!(parse_axis("=1").is_err());
    }
}
