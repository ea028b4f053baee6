//! Compiled sweeps: a parameter study run by the model's generated batch form, built once
//! with cargo into a cache and run as a subprocess, rows bit-identical to the
//! interpreter's sweep (`sitc sweep --compiled`, `sit.sweep(..., compiled=True)`).
//!
//! [`prepare`] generates the root model's Rust code with its batch form
//! (`sit_codegen::generate_with_batch`) and a runner around it (a small executable that
//! reads a study on stdin, runs blocks of [`LANES`] sets at once on every core and writes
//! the rows as `f64` bits, see [`wire`]); the code counts its table reads
//! (`sit_codegen::Options::count_table_reach`), so a compiled sweep reports the tables
//! read past their grids as the interpreter's does. [`Prepared::runner`] finds the runner in the
//! cache, or builds it there with `cargo build --release --offline` (against the Sit
//! sources, as `sitc fmu` builds its crate, with Sit's own `Cargo.lock`). [`Runner::run`]
//! runs a [`Study`](crate::study::Study).
//!
//! The cache is `$SIT_CACHE_DIR/sweep`, else the platform's cache folder (`~/.cache/sit/
//! sweep` on Linux, `~/Library/Caches/sit/sweep` on macOS, `%LOCALAPPDATA%\sit\sweep` on
//! Windows). An entry is `MODEL-KEY/COMPILER-KEY/`: the model key hashes the files of
//! the program, the generated code, the runner's source and the Sit version; the
//! compiler key hashes `rustc -vV`. Where rustc cannot be run, the newest entry of the
//! model key is used: a cache built on one machine runs on another of the same platform
//! without Rust (copy the folder and set `SIT_CACHE_DIR`).

mod lanes;
pub mod wire;

use crate::reports::{Concern, NON_FINITE_ROWS};
use sit_build::generated::{BuildError, Cargo, Generated, Kind};
use sit_middle::ir::Method;
use sit_runtime::sweep::Collect;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Sets stepped at once by one thread: the `N` of the batch form. 32 lanes ran Van der Pol
/// and the hoop fastest of 8, 16, 32 and 64, and keep the arrays of a model of a hundred
/// variables in the L1 cache (see `docs/performance.md`, "Compiled sweeps").
pub const LANES: usize = 32;

/// The runner's `main.rs`, the same for every model.
const RUNNER_MAIN: &str = include_str!("runner_main.rs");

/// Why a compiled sweep could not be built or run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model could not be loaded (its errors, or no such model).
    #[error("{0}")]
    Load(#[from] crate::LoadError),
    /// The code could not be generated.
    #[error("{0}")]
    Generate(String),
    /// The Sit sources are not where they should be.
    #[error(
        "the Sit sources are not in `{}` (no runtime/Cargo.toml there): set SIT_SOURCE_DIR \
         to a checkout of Sit",
        .0.display()
    )]
    NoSources(PathBuf),
    /// cargo could not be started (and no runner was in the cache).
    #[error(
        "cannot run `{}` ({source}): a compiled sweep is built by the Rust toolchain the \
         first time; install it (https://rustup.rs) or set CARGO to its path",
        cargo.to_string_lossy()
    )]
    NoCargo {
        /// The program tried.
        cargo: OsString,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// cargo failed.
    #[error("cargo could not build the compiled sweep (crate in `{}`):\n{stderr}", dir.display())]
    Cargo {
        /// The crate.
        dir: PathBuf,
        /// cargo's output.
        stderr: String,
    },
    /// A file of the cache could not be written or read.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The model stopped with a fault (a phase past its limit, ...): its message.
    #[error("{0}")]
    Fault(String),
    /// A value of the set with this index could not be set.
    #[error("parameter set #{0} could not be applied")]
    SetFailed(usize),
    /// The runner failed otherwise (a bug of Sit).
    #[error("internal error: the compiled sweep's runner `{}` failed: {message}", runner.display())]
    Runner {
        /// The runner.
        runner: PathBuf,
        /// What happened.
        message: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Where things are: the cache, the Sit sources, cargo and rustc.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The cache folder (`.../sweep`).
    pub cache: PathBuf,
    /// The root of the Sit sources (holding `runtime/`).
    pub sit_dir: PathBuf,
    /// The cargo program.
    pub cargo: OsString,
    /// The rustc program.
    pub rustc: OsString,
}

impl Tools {
    /// The defaults: cache `$SIT_CACHE_DIR/sweep` or the platform's, Sit sources
    /// `$SIT_SOURCE_DIR` or those `sit-host` was built from, `$CARGO` or `cargo`, `$RUSTC`
    /// or `rustc`.
    pub fn from_env() -> Tools {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Tools {
            cache: cache_root().join("sweep"),
            sit_dir: env("SIT_SOURCE_DIR").map(PathBuf::from).unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .parent()
                    .unwrap_or(Path::new("."))
                    .to_path_buf()
            }),
            cargo: env("CARGO").unwrap_or_else(|| "cargo".into()),
            rustc: env("RUSTC").unwrap_or_else(|| "rustc".into()),
        }
    }
}

/// `$SIT_CACHE_DIR`, else the platform's cache folder's `sit`, else the temporary folder's.
fn cache_root() -> PathBuf {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env("SIT_CACHE_DIR") {
        return dir;
    }
    let platform = if cfg!(windows) {
        env("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library").join("Caches"))
    } else {
        env("XDG_CACHE_HOME").or_else(|| env("HOME").map(|h| h.join(".cache")))
    };
    platform.unwrap_or_else(std::env::temp_dir).join("sit")
}

/// A model ready to be built as a compiled sweep.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The root model's name.
    pub name: String,
    /// The generated code (scalar and batch forms).
    code: String,
    /// The runner's `lanes.rs`.
    lanes: String,
    /// The model key (hex).
    key: String,
}

/// A 64-bit FNV-1a hash, twice with different offsets: a stable key of any bytes.
fn key_of(parts: &[&[u8]]) -> String {
    let mut h = [0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142_u64];
    for part in parts {
        for h in &mut h {
            for &b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
                *h ^= u64::from(b);
                *h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    format!("{:016x}{:016x}", h[0], h[1])
}

/// Checks the model of `source` (`model`, every model integrated by `method` when
/// given) and generates its compiled sweep's sources.
pub fn prepare(
    source: &sit_driver::Source<'_>,
    model: Option<&str>,
    method: Option<Method>,
) -> Result<Prepared, Error> {
    prepare_with(source, model, method, &[])
}

/// [`prepare`], the model lowered with the summaries `probes` kept between the rows
/// (`crate::between`), so that its hidden states hold them as the interpreter's do.
pub fn prepare_with(
    source: &sit_driver::Source<'_>,
    model: Option<&str>,
    method: Option<Method>,
    probes: &[sit_middle::lower::Probe],
) -> Result<Prepared, Error> {
    let opts = sit_driver::Options {
        method,
        probes: probes.to_vec(),
        ..Default::default()
    };
    let compiled = sit_driver::compile(source, &opts).map_err(crate::LoadError::from)?;
    let root = compiled.root(model).map_err(crate::LoadError::from)?;
    let name = compiled.lowered.program().models[root].name.clone();
    let code = sit_codegen::generate_with_batch(
        &compiled.lowered,
        &sit_codegen::Options {
            model: Some(name.clone()),
            count_table_reach: true,
            ..Default::default()
        },
    )
    .map_err(|e| Error::Generate(e.to_string()))?;
    let ty = rust_type(&code)
        .ok_or_else(|| {
            Error::Generate("internal error: no Model impl in the generated code".into())
        })?
        .to_string();
    let batch = lanes::batch_of(&code, &ty)
        .ok_or_else(|| Error::Generate(format!("internal error: no batch form of `{ty}`")))?;
    let lanes = lanes::lanes_rs(&code, &ty, &batch, LANES).map_err(Error::Generate)?;
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for file in compiled.files() {
        texts.push(file.to_string_lossy().into_owned().into_bytes());
        texts.push(std::fs::read(&file).unwrap_or_default());
    }
    let method_name = format!("{method:?}");
    let mut parts: Vec<&[u8]> = vec![
        env!("CARGO_PKG_VERSION").as_bytes(),
        method_name.as_bytes(),
        code.as_bytes(),
        lanes.as_bytes(),
        RUNNER_MAIN.as_bytes(),
    ];
    parts.extend(texts.iter().map(Vec::as_slice));
    let key = key_of(&parts);
    Ok(Prepared {
        name,
        code,
        lanes,
        key,
    })
}

/// The Rust type name of the root model: the last `impl ::sit_runtime::Model for NAME`
/// of the generated code (the root is emitted after the models it instantiates).
fn rust_type(code: &str) -> Option<&str> {
    const IMPL: &str = "impl ::sit_runtime::Model for ";
    let at = code.rfind(IMPL)?;
    code[at + IMPL.len()..].split([' ', '{']).next()
}

/// What [`Prepared::runner`] tells its caller while it works.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A build starts; about how long the last one took, or a guess.
    Building {
        /// The model's name.
        model: String,
        /// The expected time.
        expected: Duration,
    },
    /// The build is done.
    Built(Duration),
}

/// A built runner.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The executable.
    pub path: PathBuf,
}

/// The runner's file name.
fn exe_name() -> String {
    format!("runner{}", std::env::consts::EXE_SUFFIX)
}

impl Prepared {
    /// The runner of this model: from the cache, or built into it (calling `progress`
    /// before and after the build).
    pub fn runner(&self, tools: &Tools, progress: &dyn Fn(Progress)) -> Result<Runner, Error> {
        let entry = tools.cache.join(&self.key);
        let version = Command::new(&tools.rustc).arg("-vV").output();
        let compiler = match version {
            Ok(out) if out.status.success() => key_of(&[&out.stdout]),
            // No compiler here: the newest runner built for this model, from anywhere.
            _ => match newest_runner(&entry) {
                Some(path) => return Ok(Runner { path }),
                None => {
                    let source = match version {
                        Err(e) => e,
                        Ok(_) => std::io::Error::other("`rustc -vV` failed"),
                    };
                    // Reported as cargo's: what builds the runner, and what to install.
                    return Err(Error::NoCargo {
                        cargo: tools.cargo.clone(),
                        source,
                    });
                }
            },
        };
        let dir = entry.join(&compiler[..16]);
        let exe = dir.join(exe_name());
        if exe.is_file() {
            return Ok(Runner { path: exe });
        }
        if !tools.sit_dir.join("runtime").join("Cargo.toml").is_file() {
            return Err(Error::NoSources(tools.sit_dir.clone()));
        }
        let timing = tools.cache.join("last-build-seconds");
        let expected = std::fs::read_to_string(&timing)
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .map_or(Duration::from_secs(40), Duration::from_secs_f64);
        progress(Progress::Building {
            model: self.name.clone(),
            expected,
        });
        let start = Instant::now();
        let built = self.build(tools, &dir)?;
        let took = start.elapsed();
        let _ = std::fs::write(&timing, format!("{:.1}\n", took.as_secs_f64()));
        progress(Progress::Built(took));
        // Copied out of the shared target folder, then renamed: a runner in the cache is
        // always whole.
        let part = dir.join(format!("{}.part", exe_name()));
        std::fs::copy(&built, &part).map_err(io(&part))?;
        std::fs::rename(&part, &exe).map_err(io(&exe))?;
        Ok(Runner { path: exe })
    }

    /// Writes the runner's crate into `dir/crate` and builds it; the executable's path in
    /// the shared target folder.
    fn build(&self, tools: &Tools, dir: &Path) -> Result<PathBuf, Error> {
        let model = format!(
            "#![allow(dead_code, unused, non_snake_case, non_camel_case_types, clippy::all)]\n{}",
            self.code
        );
        let krate = Generated {
            dir: dir.join("crate"),
            header: format!(
                "# This file is @generated by Sit (a compiled sweep of `{}`). Do not edit.",
                self.name.replace('`', "'")
            ),
            package: format!("sit-sweep-{}", &self.key[..16]),
            kind: Kind::Bin,
            // `parallel`: the runner collects its summaries with `sit_runtime::sweep`'s.
            sit_deps: vec![("sit-runtime", "runtime", "features = [\"parallel\"]")],
            release: vec!["codegen-units = 1", "debug = false"],
            files: vec![
                ("src/main.rs".into(), RUNNER_MAIN.to_string()),
                ("src/lanes.rs".into(), self.lanes.clone()),
                ("src/model.rs".into(), model),
            ],
        };
        let cargo = Cargo {
            program: tools.cargo.clone(),
            sit_dir: tools.sit_dir.clone(),
            target: tools.cache.join("target"),
        };
        krate.build(&cargo).map_err(|e| match e {
            BuildError::NoSources(dir) => Error::NoSources(dir),
            BuildError::NoCargo { cargo, source } => Error::NoCargo { cargo, source },
            BuildError::Cargo { dir, stderr } => Error::Cargo { dir, stderr },
            BuildError::Io { path, source } => Error::Io { path, source },
        })
    }
}

/// The newest runner under `entry` (one folder per compiler).
fn newest_runner(entry: &Path) -> Option<PathBuf> {
    let dirs = std::fs::read_dir(entry).ok()?;
    dirs.filter_map(Result::ok)
        .map(|d| d.path().join(exe_name()))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
}

/// One row of a compiled sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The collected values, in the order of the study's columns after its axes.
    pub row: Vec<f64>,
    /// A variable (its index) that is not finite at the end of the run, its value and
    /// the time then: the first in the model's order.
    pub non_finite_at_end: Option<(usize, f64, f64)>,
    /// The run's reads of each table the model read, one per declaration.
    pub tables: Vec<wire::TableCount>,
    /// What the stiffness test of an adaptive explicit method found in the run.
    pub stiff: Vec<crate::reports::StiffRun>,
}

impl Runner {
    /// Runs `sets` (pairs of variable index and value, as [`Study::sets`]) of `model` (the
    /// interpreted prototype, whose variables' names and indices `sets` and `columns`
    /// use), collecting `columns`, with `steps` steps of `dt` each, `inputs` driven by
    /// their series as `sit_runtime::drive::Driven` drives them, on `threads` threads
    /// (0: every core): one row per set, in order.
    ///
    /// [`Study::sets`]: crate::study::Study::sets
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        model: &dyn sit_runtime::Model,
        columns: &[Collect],
        sets: &[Vec<(usize, f64)>],
        dt: f64,
        steps: u64,
        threads: usize,
        inputs: &[sit_runtime::drive::Input],
    ) -> Result<Vec<Row>, Error> {
        let input = wire::request(model, columns, sets, dt, steps, threads, inputs);
        let failed = |message: String| Error::Runner {
            runner: self.path.clone(),
            message,
        };
        let mut child = Command::new(&self.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| failed(e.to_string()))?;
        // The runner reads all of its input before it writes anything.
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(&input).map_err(|e| failed(e.to_string()))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| failed(e.to_string()))?;
        let stderr = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
        match out.status.code() {
            Some(0) => {}
            Some(3) => return Err(Error::Fault(stderr)),
            Some(4) => {
                let set = stderr.parse().map_err(|_| failed(stderr.clone()))?;
                return Err(Error::SetFailed(set));
            }
            _ => return Err(failed(format!("{}: {stderr}", out.status))),
        }
        wire::rows(&out.stdout, sets.len(), columns.len())
            .ok_or_else(|| failed("its output is not in the format expected".into()))
    }
}

/// The warnings after a compiled sweep of `model` (without `warning: `), in order: each
/// row (up to [`NON_FINITE_ROWS`]) with a variable that is not finite at the end of its
/// run (compiled code is not watched step by step), a count of the rest and of them all;
/// then each table read past its grid and each model found stiff, as
/// [`crate::reports::sweep_warnings`] says them. As
/// [`crate::reports::sweep_warnings`]: `rows` from row `offset` on, `axes[k]` the axis
/// names and printed values of `rows[k]`.
pub fn warnings(
    model: &sit_interp::Instance,
    offset: usize,
    axes: &[Vec<(&str, String)>],
    rows: &[Row],
) -> Vec<(Concern, String)> {
    use sit_runtime::Model;
    let mut lines = Vec::new();
    let bad: Vec<_> = (rows.iter().enumerate())
        .filter_map(|(k, r)| Some((k, r.non_finite_at_end?)))
        .collect();
    for &(k, (index, value, time)) in bad.iter().take(NON_FINITE_ROWS) {
        let set = (axes.get(k).into_iter().flatten())
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(", ");
        let name = model.var_info(index).map_or("?", |v| v.name);
        let line = format!(
            "row {} ({set}): `{name}` is {value} at the end of the run (t = {time})",
            offset + k + 1
        );
        lines.push((Concern::NonFinite, line));
    }
    if bad.len() > NON_FINITE_ROWS {
        let more = bad.len() - NON_FINITE_ROWS;
        lines.push((
            Concern::NonFinite,
            format!("{more} more rows end with a non-finite value"),
        ));
    }
    if !bad.is_empty() {
        let line = format!(
            "{} of {} rows end with a non-finite value; their values may be NaN or infinite",
            bad.len(),
            rows.len()
        );
        lines.push((Concern::NonFinite, line));
    }
    // Each run's reads in the interpreter's order of the tables, as its sweep reports
    // them.
    let templates = model.table_reads();
    let ends: Vec<Vec<sit_runtime::table::TableReach>> = (rows.iter())
        .map(|r| {
            (templates.iter())
                .map(|t| {
                    let mut none = *t.reach;
                    none.clear();
                    (r.tables.iter().find(|c| c.key == t.key)).map_or(none, |c| c.reach(&none))
                })
                .collect()
        })
        .collect();
    let ends: Vec<&[sit_runtime::table::TableReach]> = ends.iter().map(Vec::as_slice).collect();
    lines.extend(crate::reports::table_warnings(model, &ends));
    let stiff: Vec<&[crate::reports::StiffRun]> = rows.iter().map(|r| r.stiff.as_slice()).collect();
    lines.extend(crate::reports::stiffness_warnings(
        model.model_name(),
        offset,
        axes,
        &stiff,
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_and_tell_parts_apart() {
        assert_eq!(key_of(&[b"ab", b"c"]), key_of(&[b"ab", b"c"]));
        assert_ne!(key_of(&[b"ab", b"c"]), key_of(&[b"a", b"bc"]));
        assert_eq!(key_of(&[]).len(), 32);
    }
}
