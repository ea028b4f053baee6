//! Reading the external oracles' CSV files (a header line, then rows of reals).

use std::path::Path;

/// A CSV table of reals with named columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The column names, from the header line.
    pub columns: Vec<String>,
    /// The rows, each with one value per column.
    pub rows: Vec<Vec<f64>>,
}

impl Table {
    /// Parses CSV text: a header line of names, then lines of reals separated by commas.
    pub fn parse(text: &str) -> Result<Table, String> {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let header = lines.next().ok_or("empty CSV")?;
        let columns: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
        let mut rows = Vec::new();
        for (i, line) in lines.enumerate() {
            let row = line
                .split(',')
                .map(|s| s.trim().parse::<f64>())
                .collect::<Result<Vec<f64>, _>>()
                .map_err(|e| format!("row {}: {e}", i + 1))?;
            if row.len() != columns.len() {
                return Err(format!(
                    "row {}: {} values for {} columns",
                    i + 1,
                    row.len(),
                    columns.len()
                ));
            }
            rows.push(row);
        }
        Ok(Table { columns, rows })
    }

    /// Reads and parses the CSV file at `path`.
    pub fn read(path: &Path) -> Result<Table, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Table::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The index of the column called `name`.
    pub fn column(&self, name: &str) -> Result<usize, String> {
        self.columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("no column `{name}`"))
    }
}

/// The Reference FMUs' published result for `model` (e.g. `"Dahlquist"`),
/// from the copy kept in `tests/oracles/reference-fmus` (BSD-2, see its
/// LICENSE.txt).
pub fn reference_fmu(model: &str) -> Result<Table, String> {
    let dir = crate::repo_root().join("tests/oracles/reference-fmus");
    Table::read(&dir.join(format!("{model}_out.csv")))
}
