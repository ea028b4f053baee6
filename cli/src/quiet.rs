//! `--allow CODE` and `-q`: which of a model's warnings a command shows.

use sit_middle::Report;

/// The options that silence warnings, shared by `check`, `run`, `sweep`, `emit` and `fmu`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Warnings {
    /// Do not show the warning with this code (repeatable: `--allow W0201 --allow
    /// W0204`); errors are always shown.
    #[arg(long = "allow", value_name = "CODE", value_parser = warning_code)]
    pub allow: Vec<String>,
    /// Show no warning at all (errors still are).
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,
}

impl Warnings {
    /// The part of `report` to show.
    pub fn filter(&self, report: &Report) -> Report {
        if self.quiet {
            report.errors_only()
        } else {
            report.allowing(&self.allow)
        }
    }

    /// Print the warnings of `report` that are shown, on stderr.
    pub fn print(&self, report: &Report) {
        let shown = self.filter(report);
        if !shown.is_empty() {
            eprint!("{shown}");
        }
    }
}

/// A warning code (`W0201`): errors cannot be allowed.
fn warning_code(code: &str) -> Result<String, String> {
    if sit_middle::allow::is_warning(code) {
        Ok(code.to_string())
    } else {
        Err(format!(
            "`{code}` is not a warning code (they are {})",
            sit_middle::allow::WARNINGS.join(", ")
        ))
    }
}
