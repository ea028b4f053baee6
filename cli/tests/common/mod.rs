//! CSV helpers shared by the tests that compare traces with the Reference FMU results.

/// The header and the rows of numbers of a CSV trace.
pub fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    (header, rows)
}

/// Every column of `want` but the first (time) equals the same-named column of `got` to
/// relative `tol` (0: to the bit); the time column is skipped because the Reference FMUs
/// compute their clock as n·h.
pub fn assert_close(label: &str, got: &str, want: &str, tol: f64) {
    let (names, want) = parse_csv(want);
    let (header, got) = parse_csv(got);
    assert_eq!(got.len(), want.len(), "{label}: row count");
    for (i, name) in names.iter().enumerate().skip(1) {
        let col = header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{label}: no column {name}"));
        for (r, (g, w)) in got.iter().zip(&want).enumerate() {
            let (g, w) = (g[col], w[i]);
            assert!(
                g == w || (g - w).abs() <= tol * w.abs().max(1e-300),
                "{label}: {name} row {r}: {g} vs {w}"
            );
        }
    }
}
