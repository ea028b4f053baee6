//! Building an FMU: the generated crate, `cargo build --release --offline`, the `.fmu` zip.
//!
//! The FMU crate (in `build_dir/crates/IDENTIFIER/`) holds the model's generated Rust and
//! one [`export_fmu!`](crate::export_fmu) line; it depends on `sit-runtime` and `sit-fmi`
//! by path, in the Sit sources (`sit_dir`). All FMU crates share one target directory
//! (`build_dir/target`), so the Sit crates compile once.

use crate::describe::{self, Description, LOG_CATEGORIES};
use crate::instance::Access;
use sit_build::generated::{BuildError, Cargo, Generated, Kind};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `.sit` file.
    pub file: PathBuf,
    /// The model (default: the one model of the file no other model instantiates).
    pub model: Option<String>,
    /// The internal step (default: the `--dt` of the model's documented `sitc run`, else
    /// 0.01).
    pub dt: Option<f64>,
    /// The integration method of every model, overriding their `method` declarations
    /// (`None`: as declared).
    pub method: Option<sit_middle::ir::Method>,
    /// The params (or states, for their start values) whose forward sensitivities the
    /// FMU integrates, for `fmi2GetDirectionalDerivative` (`docs/fmi.md`); none: the FMU
    /// provides no directional derivatives.
    pub sensitivities: Vec<String>,
    /// The `.fmu` to write.
    pub out: PathBuf,
    /// Where the FMU crates and their shared target directory go.
    pub build_dir: PathBuf,
    /// The root of the Sit sources (holding `runtime/` and `fmi/`).
    pub sit_dir: PathBuf,
    /// The cargo program.
    pub cargo: OsString,
}

impl Options {
    /// Options with the defaults: build directory `$SIT_FMU_BUILD_DIR` or
    /// `TMPDIR/sit-fmu`, Sit sources `$SIT_SOURCE_DIR` or those `sit-fmi` was built from,
    /// cargo `$CARGO` or `cargo`.
    pub fn new(file: PathBuf, out: PathBuf) -> Options {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Options {
            file,
            model: None,
            dt: None,
            method: None,
            sensitivities: Vec::new(),
            out,
            build_dir: env("SIT_FMU_BUILD_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| std::env::temp_dir().join("sit-fmu")),
            sit_dir: env("SIT_SOURCE_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(default_sit_dir),
            cargo: env("CARGO").unwrap_or_else(|| "cargo".into()),
        }
    }
}

/// The Sit sources `sit-fmi` was compiled from.
pub fn default_sit_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// Why an FMU could not be built.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{0}")]
    Read(#[from] sit_middle::ReadError),
    /// The model has errors: the diagnostics with their sources, rendered by the
    /// front end (text for `sitc fmu`, JSON or re-located paths for others).
    #[error("{0}")]
    Model(sit_middle::Report),
    /// No such model, or no single root.
    #[error("{0}")]
    Root(String),
    /// [`Options::sensitivities`] names what is not a param or a real state.
    #[error("{0}")]
    Sensitivity(String),
    /// The model cannot be described (a bad step, an internal inconsistency).
    #[error("{0}")]
    Describe(String),
    /// The Sit sources are not where they should be.
    #[error(
        "the Sit sources are not in `{}` (no runtime/Cargo.toml and fmi/Cargo.toml there): \
         set SIT_SOURCE_DIR or --sit-source to a checkout of Sit",
        .0.display()
    )]
    NoSources(PathBuf),
    /// cargo could not be started.
    #[error(
        "cannot run `{}` ({source}): building an FMU needs the Rust toolchain (cargo), \
         see https://rustup.rs, or set CARGO to its path",
        cargo.to_string_lossy()
    )]
    NoCargo {
        /// The program tried.
        cargo: OsString,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// cargo failed.
    #[error("cargo could not build the FMU library (crate in `{}`):\n{stderr}", dir.display())]
    Cargo {
        /// The crate.
        dir: PathBuf,
        /// cargo's output.
        stderr: String,
    },
    /// No FMI platform name for this host.
    #[error(
        "FMI 2.0 defines no binaries folder for this platform ({0}); supported: x86_64 Linux, Windows and macOS, aarch64 macOS"
    )]
    Platform(String),
    /// A file could not be written or read.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The zip could not be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Zip {
        /// The file.
        path: PathBuf,
        /// The error.
        source: zip::result::ZipError,
    },
}

/// A built FMU.
#[derive(Debug)]
pub struct Built {
    /// Its description (what `modelDescription.xml` says).
    pub description: Description,
    /// The model's warnings (no diagnostics when none).
    pub warnings: sit_middle::Report,
    /// The shared library inside the build directory.
    pub library: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The FMI 2.0 name of the host's binaries folder.
pub fn platform() -> Result<&'static str, Error> {
    use std::env::consts::{ARCH, OS};
    match (OS, ARCH) {
        ("linux", "x86_64") => Ok("linux64"),
        ("windows", "x86_64") => Ok("win64"),
        ("macos", "x86_64" | "aarch64") => Ok("darwin64"),
        (os, arch) => Err(Error::Platform(format!("{arch} {os}"))),
    }
}

/// A checked and described model, ready to be built.
#[derive(Debug)]
pub struct Prepared {
    /// What `modelDescription.xml` says.
    pub description: Description,
    /// The generated Rust code of the model and its submodels.
    pub code: String,
    /// The model's warnings (no diagnostics when none).
    pub warnings: sit_middle::Report,
    /// The files read (the root and its imports), with the text the checker read: a
    /// schematic (`.sch`) is followed by the `.sit` model generated from it.
    pub files: Vec<(PathBuf, String)>,
}

impl Prepared {
    /// The `src/lib.rs` of the FMU crate: the model module and the `export_fmu!` line.
    pub fn lib_rs(&self) -> Result<String, Error> {
        lib_rs(&self.description, &self.code)
    }

    /// The `src/model.rs` of the FMU crate: the generated code, then a
    /// [`State`](crate::State) impl for each model struct, saving and loading every
    /// field in declaration order (in the same module, so private fields are included),
    /// and for each mode's enum (its state's index).
    pub fn model_rs(&self) -> Result<String, Error> {
        let file = syn::parse_file(&self.code)
            .map_err(|e| Error::Describe(format!("internal error: generated code: {e}")))?;
        let mut out = self.code.clone();
        out.push_str("\n// The `sit_fmi::State` impls below are @generated by sitc fmu.\n");
        for item in &file.items {
            if let syn::Item::Enum(e) = item {
                // A mode's states (unit variants in declaration order): saved as the
                // state's index, loaded back by position.
                let arms: String = (e.variants.iter().enumerate())
                    .map(|(k, v)| format!("            {k} => Self::{},\n", v.ident))
                    .collect();
                let _ = write!(
                    out,
                    "\nimpl ::sit_fmi::State for {name} {{\n\
                     \x20   fn save(&self, out: &mut Vec<u8>) {{\n\
                     \x20       ::sit_fmi::State::save(&(self.index() as f64), out);\n    }}\n\n\
                     \x20   fn load(\n        &mut self,\n        input: &mut ::sit_fmi::state::Reader<'_>,\n\
                     \x20   ) -> Result<(), String> {{\n\
                     \x20       let mut index = 0.0f64;\n\
                     \x20       ::sit_fmi::State::load(&mut index, input)?;\n\
                     \x20       *self = match index as usize {{\n{arms}\
                     \x20           _ => return Err(format!(\"no state {{index}} in {name}\")),\n\
                     \x20       }};\n        Ok(())\n    }}\n}}\n",
                    name = e.ident,
                );
                continue;
            }
            let syn::Item::Struct(s) = item else { continue };
            let fields: Vec<String> = s
                .fields
                .iter()
                .filter_map(|f| f.ident.as_ref().map(|i| i.to_string()))
                .collect();
            let save: String = fields
                .iter()
                .map(|f| format!("        ::sit_fmi::State::save(&self.{f}, out);\n"))
                .collect();
            let load: String = fields
                .iter()
                .map(|f| format!("        ::sit_fmi::State::load(&mut self.{f}, input)?;\n"))
                .collect();
            let _ = write!(
                out,
                "\nimpl ::sit_fmi::State for {name} {{\n\
                 \x20   fn save(&self, out: &mut Vec<u8>) {{\n{save}    }}\n\n\
                 \x20   fn load(\n        &mut self,\n        input: &mut ::sit_fmi::state::Reader<'_>,\n\
                 \x20   ) -> Result<(), String> {{\n{load}        Ok(())\n    }}\n}}\n",
                name = s.ident,
            );
        }
        Ok(out)
    }
}

/// Checks the model (`file`, `model`) and describes it with the internal step `dt`.
pub fn prepare(file: &Path, model: Option<&str>, dt: Option<f64>) -> Result<Prepared, Error> {
    prepare_with(file, model, dt, None)
}

/// [`prepare`] with every model integrated by `method` when given (overriding their
/// `method` declarations).
pub fn prepare_with(
    file: &Path,
    model: Option<&str>,
    dt: Option<f64>,
    method: Option<sit_middle::ir::Method>,
) -> Result<Prepared, Error> {
    prepare_sensitive(file, model, dt, method, &[])
}

/// [`prepare_with`], the model compiled with the forward sensitivities to `sensitivities`
/// (params, or states for their start values) that `fmi2GetDirectionalDerivative` reads.
pub fn prepare_sensitive(
    file: &Path,
    model: Option<&str>,
    dt: Option<f64>,
    method: Option<sit_middle::ir::Method>,
    sensitivities: &[String],
) -> Result<Prepared, Error> {
    // `.sit` or `.sch`: the one driver every front end goes through.
    let source = sit_driver::Source::path(file);
    let files = match sit_driver::check(&source) {
        Ok(checked) => (checked.sources.files.iter())
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect(),
        Err(e) => return Err(e.into()),
    };
    let opts = sit_driver::Options {
        method,
        sensitivities: (!sensitivities.is_empty()).then(|| sit_driver::Sensitivities {
            model: model.map(str::to_string),
            wrt: sensitivities.to_vec(),
        }),
        ..Default::default()
    };
    let compiled = match sit_driver::compile(&source, &opts) {
        Ok(c) => c,
        Err(sit_driver::Error::Read(e)) => return Err(e.into()),
        Err(sit_driver::Error::Model(report)) => return Err(Error::Model(report)),
        Err(e @ sit_driver::Error::Sensitivity(_)) => {
            return Err(Error::Sensitivity(e.to_string()));
        }
        Err(e) => return Err(Error::Describe(e.to_string())),
    };
    let root = (compiled.root(model)).map_err(|e| Error::Root(e.to_string()))?;
    let report = compiled.warnings;
    // The description lists the variables of the code: those of the lowered models.
    let program = compiled.lowered.program();
    let name = program.models[root].name.clone();
    let code = sit_codegen::generate(
        &compiled.lowered,
        &sit_codegen::Options {
            model: Some(name),
            front_end: sit_codegen::FrontEnd::Fmu,
            // Each table read past its grid is logged at `fmi2Terminate`.
            count_table_reach: true,
            ..Default::default()
        },
    )
    .map_err(|e| Error::Describe(e.to_string()))?;
    let mut description =
        describe::describe(&compiled.lowered, root, dt, &code).map_err(Error::Describe)?;
    (description.set_sensitivities(sensitivities)).map_err(Error::Describe)?;
    Ok(Prepared {
        description,
        code,
        warnings: report,
        files,
    })
}

/// Checks the model, writes and builds its FMU crate, and writes the `.fmu`.
pub fn build(opts: &Options) -> Result<Built, Error> {
    let platform = platform()?;
    let prepared = prepare_sensitive(
        &opts.file,
        opts.model.as_deref(),
        opts.dt,
        opts.method,
        &opts.sensitivities,
    )?;
    let library = compile(opts, &prepared)?;
    write_fmu(
        opts,
        &prepared.description,
        platform,
        &library,
        &prepared.files,
    )?;
    Ok(Built {
        description: prepared.description,
        warnings: prepared.warnings,
        library,
    })
}

/// The Rust type name of the root model: the last `impl ::sit_runtime::Model for NAME`
/// of the generated code (the root is emitted after the models it instantiates).
fn rust_type(code: &str) -> Result<&str, Error> {
    const IMPL: &str = "impl ::sit_runtime::Model for ";
    let at = code.rfind(IMPL).ok_or_else(|| {
        Error::Describe("internal error: no Model impl in the generated code".into())
    })?;
    let rest = &code[at + IMPL.len()..];
    Ok(rest.split([' ', '{']).next().unwrap_or_default())
}

/// Writes the crate (only the files that changed) and builds it; the library's path.
fn compile(opts: &Options, prepared: &Prepared) -> Result<PathBuf, Error> {
    let d = &prepared.description;
    // The library is `sit_fmu_IDENTIFIER` so that no model name can clash with a crate
    // (`core`, `std`, ...); it is renamed `IDENTIFIER` in the zip.
    let krate = Generated {
        dir: opts.build_dir.join("crates").join(&d.identifier),
        header: "# This file is @generated by sitc fmu. Do not edit.".into(),
        package: format!("sit-fmu-{}", d.identifier.to_lowercase().replace('_', "-")),
        kind: Kind::Cdylib {
            lib: format!("sit_fmu_{}", d.identifier),
        },
        sit_deps: vec![
            ("sit-runtime", "runtime", "default-features = false"),
            ("sit-fmi", "fmi", "default-features = false"),
        ],
        release: Vec::new(),
        files: vec![
            ("src/lib.rs".into(), prepared.lib_rs()?),
            ("src/model.rs".into(), prepared.model_rs()?),
        ],
    };
    let cargo = Cargo {
        program: opts.cargo.clone(),
        sit_dir: opts.sit_dir.clone(),
        target: opts.build_dir.join("target"),
    };
    krate.build(&cargo).map_err(|e| match e {
        BuildError::NoSources(dir) => Error::NoSources(dir),
        BuildError::NoCargo { cargo, source } => Error::NoCargo { cargo, source },
        BuildError::Cargo { dir, stderr } => Error::Cargo { dir, stderr },
        BuildError::Io { path, source } => Error::Io { path, source },
    })
}

/// Zips `modelDescription.xml`, the library and the `.sit` sources into `opts.out`.
fn write_fmu(
    opts: &Options,
    d: &Description,
    platform: &str,
    library: &Path,
    sources: &[(PathBuf, String)],
) -> Result<(), Error> {
    use zip::write::SimpleFileOptions;
    let zip_err = |source| Error::Zip {
        path: opts.out.clone(),
        source,
    };
    let binary = std::fs::read(library).map_err(io(library))?;
    let file = std::fs::File::create(&opts.out).map_err(io(&opts.out))?;
    let mut zip = zip::ZipWriter::new(file);
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut entries: Vec<(String, Vec<u8>)> = vec![
        ("modelDescription.xml".into(), d.xml().into_bytes()),
        (
            format!(
                "binaries/{platform}/{}{}",
                d.identifier,
                std::env::consts::DLL_SUFFIX
            ),
            binary,
        ),
    ];
    let mut names: Vec<String> = Vec::new();
    for (source, text) in sources {
        let base = source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model.sit".into());
        let mut name = base.clone();
        let mut k = 1;
        while names.contains(&name) {
            k += 1;
            name = format!("{k}_{base}");
        }
        names.push(name.clone());
        entries.push((format!("sources/{name}"), text.clone().into_bytes()));
    }
    for (name, bytes) in entries {
        zip.start_file(name, options).map_err(zip_err)?;
        zip.write_all(&bytes).map_err(io(&opts.out))?;
    }
    zip.finish().map_err(zip_err)?;
    Ok(())
}

/// The `src/lib.rs` of the FMU crate of `d` with the generated `code`.
fn lib_rs(d: &Description, code: &str) -> Result<String, Error> {
    let mut access = String::new();
    for v in &d.variables {
        let a = match v.access {
            Access::Fixed => "Fixed",
            Access::Tunable => "Tunable",
            Access::Input => "Input",
            Access::Start => "Start",
            Access::Computed => "Computed",
        };
        let _ = writeln!(
            access,
            "            sit_fmi::Access::{a}, // {}",
            v.name.replace('\n', " ")
        );
    }
    let categories: Vec<String> = LOG_CATEGORIES
        .iter()
        .map(|(n, _)| format!("{n:?}"))
        .collect();
    Ok(format!(
        "//! FMI 2.0 co-simulation FMU of `{name}`, @generated by sitc fmu. Do not edit.\n\n\
         #![allow(non_snake_case)]\n\nmod model;\n\n\
         sit_fmi::export_fmu!(\n    model::{ty},\n    sit_fmi::Fmu {{\n        guid: {guid:?},\n\
         \x20       dt: {dt:?},\n        access: &[\n{access}        ],\n\
         \x20       log_categories: &[{cats}],\n        model: {model:?},\n\
         \x20       allow_non_finite: {allow},\n\
         \x20       directional: &[{directional}],\n        sensitive: &[{sensitive}],\n    }}\n);\n",
        name = d.model_name.replace('`', "'"),
        model = d.model_name,
        ty = rust_type(code)?,
        guid = d.guid,
        dt = d.dt,
        cats = categories.join(", "),
        allow = d.allow_non_finite,
        directional = (d.directional.iter())
            .map(|(u, k, s)| format!("({u}, {k}, {s})"))
            .collect::<Vec<_>>()
            .join(", "),
        sensitive = (d.sensitive.iter())
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    ))
}
