//! "Did you mean" suggestions for misspelt names.

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let score = if c.to_lowercase() == lower {
            1.0
        } else {
            strsim::jaro_winkler(&lower, &c.to_lowercase())
        };
        let dist = strsim::levenshtein(&lower, &c.to_lowercase());
        let len = name.chars().count();
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
