//! `--method`, `--rtol` and `--atol`: the integration method of every model, read from the one list of methods (`sit_middle::ir::Method::ALL`).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sit_middle::ir::{Method, Tolerance};

/// The method options shared by `run`, `sweep`, `emit` and `fmu`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MethodArgs {
    /// The integration method of every model, overriding their `method` declarations
    /// (before the checks that depend on the method).
    #[arg(long, value_name = "METHOD", value_parser = method_parser())]
    pub method: Option<Method>,
    /// The relative tolerance of an adaptive method.
    #[arg(long, value_name = "RTOL", requires = "method", value_parser = positive,
          help = tolerance_help("relative", Tolerance::DEFAULT.rtol))]
    pub rtol: Option<f64>,
    /// The absolute tolerance of an adaptive method.
    #[arg(long, value_name = "ATOL", requires = "method", value_parser = positive,
          help = tolerance_help("absolute", Tolerance::DEFAULT.atol))]
    pub atol: Option<f64>,
}

/// The names of [`Method::ALL`], each with its summary in `--help`.
fn method_parser() -> impl TypedValueParser<Value = Method> {
    PossibleValuesParser::new(Method::ALL.map(|m| PossibleValue::new(m.name()).help(m.summary())))
        .try_map(|name| Method::from_name(&name).ok_or_else(|| format!("unknown method `{name}`")))
}

/// The help of `--rtol` or `--atol`: the adaptive methods it applies to, and its default.
fn tolerance_help(which: &str, default: f64) -> String {
    format!(
        "The {which} tolerance of {} (default {default:e})",
        adaptive_methods()
    )
}

/// "`--method dopri5`, `--method tsit5`, `--method dop853`, `--method rodas4`,
/// `--method rodas5p` or `--method radau5`": every adaptive method.
fn adaptive_methods() -> String {
    let names: Vec<String> = Method::ALL
        .iter()
        .filter(|m| m.tolerance().is_some())
        .map(|m| format!("`--method {}`", m.name()))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// A tolerance on the command line: a finite number > 0.
pub fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected a finite number > 0, not `{s}`")),
    }
}

impl MethodArgs {
    /// The method asked for, with the tolerances given, which only an adaptive method takes.
    /// An `--rtol` below the precision of f64 is kept, with a warning on stderr (the
    /// checker's W0209 for a declaration).
    pub fn method(&self) -> Result<Option<Method>, String> {
        let Some(method) = self.method else {
            return Ok(None);
        };
        if method.tolerance().is_none() && (self.rtol.is_some() || self.atol.is_some()) {
            return Err(format!(
                "--rtol and --atol are tolerances of an adaptive method ({}), not of `{}`",
                adaptive_methods(),
                method.name()
            ));
        }
        if let Some(message) = self.rtol.and_then(Tolerance::below_precision) {
            eprintln!("warning: --{message}; give --rtol 1e-15 or more");
        }
        Ok(Some(method.with_tolerance(self.rtol, self.atol)))
    }
}

#[cfg(test)]
mod tests {
    use super::MethodArgs;
    use clap::Parser;
    use sit_middle::ir::Method;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        method: MethodArgs,
    }

    fn parse(args: &[&str]) -> Result<Option<Method>, String> {
        let cli = Cli::try_parse_from(std::iter::once("sitc").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        cli.method.method()
    }

    #[test]
    fn every_method_is_named_on_the_command_line() {
        for m in Method::ALL {
            assert_eq!(parse(&["--method", m.name()]), Ok(Some(m)));
        }
        assert_eq!(parse(&[]), Ok(None));
        let e = parse(&["--method", "rk5"]).unwrap_err();
        assert!(
            e.contains(
                "[possible values: euler, rk4, dopri5, tsit5, dop853, rodas4, rodas5p, radau5]"
            ),
            "{e}"
        );
        let t = parse(&["--method", "dopri5", "--rtol", "1e-8"]).unwrap();
        assert_eq!(t.and_then(Method::tolerance).map(|t| t.rtol), Some(1e-8));
        let e = parse(&["--method", "rk4", "--atol", "1e-8"]).unwrap_err();
        assert_eq!(
            e,
            "--rtol and --atol are tolerances of an adaptive method (`--method dopri5`, \
             `--method tsit5`, `--method dop853`, `--method rodas4`, `--method rodas5p` or \
             `--method radau5`), not of `rk4`"
        );
    }

    #[test]
    fn the_help_lists_every_method_and_the_default_tolerances() {
        use clap::CommandFactory;
        let help = Cli::command().render_long_help().to_string();
        for m in Method::ALL {
            assert!(help.contains(&format!("- {}:", m.name())), "{help}");
            assert!(help.contains(m.summary()), "{help}");
        }
        assert!(help.contains("(default 1e-6)"), "{help}");
        assert!(help.contains("(default 1e-9)"), "{help}");
    }
}
