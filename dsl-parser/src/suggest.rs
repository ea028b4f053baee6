//! "Did you mean" suggestions for misspelt names.

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Typos are short; comparing long names costs time quadratic in their
    // length and suggests nothing useful.
    const MAX: usize = 64;
    let len = name.chars().count();
    if len > MAX {
        return None;
    }
    let lower = name.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        if c == name || c.chars().count().abs_diff(len) > 3 {
            continue;
        }
        let score = if c.to_lowercase() == lower {
            1.0
        } else {
            strsim::jaro_winkler(&lower, &c.to_lowercase())
        };
        let dist = strsim::levenshtein(&lower, &c.to_lowercase());
        let close = (score >= 0.85 && len > 2) || (dist <= 2 && dist < len);
        if close && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn finds_typos_and_ignores_strangers() {
        assert_eq!(did_you_mean("hh", ["h", "Vy"]), Some("h"));
        assert_eq!(
            did_you_mean("kpress", ["k_press", "k_release"]),
            Some("k_press")
        );
        assert_eq!(did_you_mean("velocity", ["h", "Vy"]), None);
        assert_eq!(
            did_you_mean("торможенье", ["торможение", "отскок"]),
            Some("торможение")
        );
    }
}
