//! The build-script front end: `.sit` files to `OUT_DIR/NAME.rs`, rebuilt when they change.

use crate::{Error, FrontEnd, Options, compile_file_with};
use sit_driver::Error as Compile;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Compiles `.sit` files from a build script.
///
/// ```no_run
/// // In build.rs, inside `fn main()`:
/// sit_build::Builder::new().file("models/hoop.sit").run();
/// ```
///
/// Each file `DIR/NAME.sit` becomes `OUT_DIR/NAME.rs`, holding every model of the file
/// and of its imports; include it with
/// `include!(concat!(env!("OUT_DIR"), "/NAME.rs"));`. The file is written only when
/// its content changes, and `cargo:rerun-if-changed` is printed for every input and
/// import (also when the model has errors, so that fixing it reruns the build).
#[derive(Debug, Clone, Default)]
pub struct Builder {
    files: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    cargo: bool,
    batch: bool,
    method: Option<sit_middle::ir::Method>,
    allow: Vec<String>,
    events: bool,
    count_table_reach: bool,
    sensitivities: Vec<String>,
}

impl Builder {
    /// A builder with no files, writing to `$OUT_DIR` and printing cargo directives.
    pub fn new() -> Builder {
        Builder {
            files: Vec::new(),
            out_dir: None,
            cargo: true,
            batch: false,
            method: None,
            allow: Vec::new(),
            events: false,
            count_table_reach: false,
            sensitivities: Vec::new(),
        }
    }

    /// Adds a `.sit` file (relative to the crate's root in a build script).
    pub fn file(mut self, path: impl AsRef<Path>) -> Builder {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Writes into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Whether to build every model for the event log (see [`Options::events`](crate::Options::events)); off
    /// by default, and the code is then exactly that of a build without the log.
    pub fn events(mut self, on: bool) -> Builder {
        self.events = on;
        self
    }

    /// Whether the generated code counts each table read outside its grid, as the
    /// interpreter does (see
    /// [`Options::count_table_reach`](crate::Options::count_table_reach)): read the
    /// counts with `sit_runtime::Model::table_reach`. Off by default, and the code is
    /// then exactly that of a build without it.
    pub fn count_table_reach(mut self, on: bool) -> Builder {
        self.count_table_reach = on;
        self
    }

    /// Adds the forward sensitivities of each file's root model with respect to these
    /// free params (or states, for their initial values): variables `d(x)/d(k)` of the
    /// generated model, integrated with it (see
    /// [`Options::sensitivities`](crate::Options::sensitivities) and
    /// `docs/sensitivities.md`).
    pub fn sensitivities<S: Into<String>>(mut self, wrt: impl IntoIterator<Item = S>) -> Builder {
        self.sensitivities = wrt.into_iter().map(Into::into).collect();
        self
    }

    /// Whether to also generate the batch form of every model (see
    /// [`Options::batch`](crate::Options::batch)); off by default.
    pub fn batch(mut self, on: bool) -> Builder {
        self.batch = on;
        self
    }

    /// Integrates every model with `method`, overriding their `method` declarations
    /// (see [`Options::method`](crate::Options::method)). An rtol below the precision
    /// of `f64` is kept, with a `cargo:warning` (W0209, which [`Builder::allow`] takes).
    pub fn method(mut self, method: sit_middle::ir::Method) -> Builder {
        self.method = Some(method);
        self
    }

    /// Does not print the warnings with this code (call it once per code); errors are
    /// always reported. Prefer `#[allow(CODE, reason = "…")]` in the `.sit` file, which
    /// says why; this is for models the crate does not own. A code that is not a
    /// warning's is an error ([`sit_driver::Error::NotAWarning`]) when compiling.
    ///
    /// ```no_run
    /// // In build.rs, inside `fn main()`:
    /// sit_build::Builder::new()
    ///     .file("models/light.sit")
    ///     .allow("W0204")
    ///     .run();
    /// ```
    pub fn allow(mut self, code: impl Into<String>) -> Builder {
        self.allow.push(code.into());
        self
    }

    /// Whether to print `cargo:` directives (on by default; off outside build scripts).
    pub fn cargo_directives(mut self, on: bool) -> Builder {
        self.cargo = on;
        self
    }

    /// Generates every file; returns the paths written (or left unchanged). Prints
    /// `cargo:rerun-if-changed` for every `.sit` file read and `cargo:warning` for
    /// each line of the models' rendered warnings.
    pub fn compile(&self) -> Result<Vec<PathBuf>, Error> {
        self.compile_printing(&mut std::io::stdout().lock())
    }

    /// [`Builder::compile`], printing the `cargo:` directives (when they are on) to
    /// `out` rather than to standard output.
    fn compile_printing(&self, out: &mut dyn Write) -> Result<Vec<PathBuf>, Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| Error::Write {
                    path: PathBuf::from("$OUT_DIR"),
                    source: std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        "OUT_DIR is not set: call this from a build script or set out_dir()",
                    ),
                })?,
        };
        if let Some(code) = (self.allow.iter()).find(|c| !sit_middle::allow::is_warning(c)) {
            return Err(Compile::NotAWarning { code: code.clone() }.into());
        }
        // An rtol below f64's precision, as W0209 says of a declaration.
        let rtol = self.method.and_then(|m| m.tolerance()).map(|t| t.rtol);
        if let Some(message) = rtol.and_then(sit_middle::ir::Tolerance::below_precision)
            && self.cargo
            && !self.allow.iter().any(|c| c == "W0209")
        {
            let _ = writeln!(out, "cargo:warning=Builder::method: {message}");
        }
        let options = Options {
            front_end: FrontEnd::BuildScript,
            batch: self.batch,
            method: self.method,
            events: self.events,
            count_table_reach: self.count_table_reach,
            sensitivities: self.sensitivities.clone(),
            ..Options::default()
        };
        let mut outputs: HashMap<String, PathBuf> = HashMap::new();
        let mut written = Vec::new();
        for input in &self.files {
            let stem = input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".to_string());
            let output = format!("{stem}.rs");
            if let Some(first) = outputs.insert(output.clone(), input.clone()) {
                return Err(Error::SameOutput {
                    first,
                    second: input.clone(),
                    output,
                });
            }
            let generated = match compile_file_with(input, &options) {
                Ok(g) => g,
                Err(e) => {
                    self.rerun(out, &e.files());
                    return Err(e);
                }
            };
            self.rerun(out, &generated.files);
            if self.cargo {
                let warnings = generated.warnings.allowing(&self.allow).render();
                for line in warnings.lines().filter(|l| !l.trim().is_empty()) {
                    let _ = writeln!(out, "cargo:warning={line}");
                }
            }
            let path = out_dir.join(&output);
            write_if_changed(&path, &generated.code)?;
            written.push(path);
        }
        Ok(written)
    }

    /// [`Builder::compile`] for a build script: on error, prints the rendered
    /// diagnostics on stderr (cargo shows them under `--- stderr`, exactly as `sitc
    /// check` would) and exits with status 1, so the build fails with the model's own
    /// message instead of a panic's.
    pub fn run(&self) {
        if let Err(e) = self.compile() {
            eprint!("{}", run_message(&e));
            std::process::exit(1);
        }
    }

    fn rerun(&self, out: &mut dyn Write, files: &[PathBuf]) {
        if self.cargo {
            for f in files {
                let _ = writeln!(out, "cargo:rerun-if-changed={}", f.display());
            }
        }
    }
}

/// What [`Builder::run`] prints for an error: the rendered diagnostics as they are (they
/// end with their summary line), any other error as one `error: ` line.
fn run_message(e: &Error) -> String {
    match e {
        Error::Compile(Compile::Model(report)) => report.render(),
        other => format!("error: {other}\n"),
    }
}

/// `Builder::new()` with `files`, compiled into `$OUT_DIR` (see [`Builder::compile`]).
pub fn compile_to_out_dir(files: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, Error> {
    files
        .iter()
        .fold(Builder::new(), |b, f| b.file(f))
        .compile()
}

/// Writes `text` to `path` unless the file already holds exactly that text, so that an
/// unchanged model does not trigger a rebuild of the including crate (for build scripts
/// that write generated code themselves, as [`Builder`] does).
///
/// The text goes to a temporary file beside `path`, renamed over it: a reader never sees
/// half a file, and a `path` hard-linked elsewhere (a target directory copied with
/// `cp -al`) is replaced rather than written through.
pub fn write_if_changed(path: &Path, text: &str) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    let error = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(error)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        error(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a build script prints (stdout, then stderr as `Builder::run` writes it)
    /// for `files`, given as a build script gives them: relative to the crate.
    fn build_script_output(files: &[&str]) -> String {
        let dir = std::env::temp_dir().join(format!(
            "sit-build-build-{}-{}",
            std::process::id(),
            files.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let builder = files
            .iter()
            .fold(Builder::new().out_dir(&dir), |b, f| b.file(f));
        let mut stdout = Vec::new();
        let result = builder.compile_printing(&mut stdout);
        std::fs::remove_dir_all(&dir).unwrap();
        let stderr = result.err().map(|e| run_message(&e)).unwrap_or_default();
        format!(
            "--- stdout\n{}--- stderr\n{stderr}",
            String::from_utf8(stdout).unwrap()
        )
    }

    #[test]
    fn build_script_header_names_the_builder() {
        let dir = std::env::temp_dir().join(format!("sit-build-header-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let written = Builder::new()
            .cargo_directives(false)
            .out_dir(&dir)
            .file("tests/front_ends/warns.sit")
            .compile()
            .unwrap();
        let code = std::fs::read_to_string(&written[0]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let header = format!(
            "// This file is @generated by sit_build::Builder in a build script (Sit {}) from warns.sit. Do not edit.\n",
            crate::VERSION
        );
        assert!(code.starts_with(&header), "{}", &code[..200]);
    }

    #[test]
    fn build_script_prints_errors_and_warnings() {
        insta::assert_snapshot!(
            "model_errors",
            build_script_output(&["tests/front_ends/bad.sit"])
        );
        insta::assert_snapshot!(
            "model_warnings",
            build_script_output(&["tests/front_ends/warns.sit"])
        );
        insta::assert_snapshot!(
            "missing_file",
            build_script_output(&["tests/front_ends/missing.sit"])
        );
    }

    #[test]
    fn allowed_warnings_are_not_printed() {
        let dir = std::env::temp_dir().join(format!("sit-build-allow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let printed = |b: Builder| {
            let mut out = Vec::new();
            let r = b
                .out_dir(&dir)
                .file("tests/front_ends/warns.sit")
                .compile_printing(&mut out);
            (r.map(|_| ()), String::from_utf8(out).unwrap())
        };
        let (r, all) = printed(Builder::new());
        assert!(r.is_ok() && all.contains("cargo:warning=") && all.contains("W0201"));
        let (r, allowed) = printed(Builder::new().allow("W0201"));
        assert!(r.is_ok());
        assert!(!allowed.contains("cargo:warning="), "{allowed}");
        assert!(allowed.contains("cargo:rerun-if-changed="), "{allowed}");
        // An rtol below f64's precision given to `method` (W0209 of a declaration).
        let tiny = sit_middle::ir::Method::Tsit5(sit_middle::ir::Tolerance::new(1e-17, 1e-17));
        let (r, warned) = printed(Builder::new().allow("W0201").method(tiny));
        assert!(r.is_ok());
        assert!(
            warned.contains(
                "cargo:warning=Builder::method: rtol 1e-17 is below the precision of f64"
            ),
            "{warned}"
        );
        let (_, quiet) = printed(Builder::new().allow("W0201").allow("W0209").method(tiny));
        assert!(!quiet.contains("cargo:warning="), "{quiet}");
        let (r, _) = printed(Builder::new().allow("E0101"));
        assert!(matches!(r, Err(Error::Compile(Compile::NotAWarning { code })) if code == "E0101"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_file_is_tracked_for_rebuilds() {
        let printed = build_script_output(&["../examples/models/vehicle.sit"]);
        let reruns: Vec<&str> = printed
            .lines()
            .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
            .collect();
        assert_eq!(
            reruns,
            [
                "../examples/models/vehicle.sit",
                "../examples/models/engine_torque.csv"
            ],
            "{printed}"
        );
    }

    #[test]
    fn writes_only_on_change() {
        let dir = std::env::temp_dir().join(format!("sit-build-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.rs");
        write_if_changed(&path, "a").unwrap();
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_if_changed(&path, "a").unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            before
        );
        write_if_changed(&path, "b").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn batch_adds_the_batch_forms() {
        let dir = std::env::temp_dir().join(format!("sit-build-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("m.sit");
        std::fs::write(&input, "model M { real x = 1; x = integral(-x); }").unwrap();
        let build = |batch: bool| {
            let out = Builder::new()
                .file(&input)
                .out_dir(&dir)
                .cargo_directives(false)
                .batch(batch)
                .compile()
                .unwrap();
            std::fs::read_to_string(&out[0]).unwrap()
        };
        assert!(!build(false).contains("pub struct MBatch<const N: usize>"));
        assert!(build(true).contains("pub struct MBatch<const N: usize>"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
