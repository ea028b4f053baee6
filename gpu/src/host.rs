//! The kernel's C text compiled by the host's C compiler and run as a program: the GPU's step, checked on any machine.

use crate::kernel::Kernel;
use crate::{Launch, Rows};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why the host form did not run.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The C compiler could not be started.
    #[error("cannot run the C compiler `{cc}`: {error}")]
    NoCompiler {
        /// The compiler.
        cc: String,
        /// Why.
        error: std::io::Error,
    },
    /// The C compiler rejected the text (a bug of the generator).
    #[error("the C compiler rejected the generated text:\n{0}")]
    Compile(String),
    /// The program failed or wrote what it should not.
    #[error("the compiled study failed: {0}")]
    Run(String),
    /// A file of the work folder.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A compiled host program of a kernel's text, in `dir`.
#[derive(Debug)]
pub struct HostProgram {
    exe: PathBuf,
    columns: usize,
    axes: usize,
    inputs: usize,
}

/// The C compiler: `$CC`, else `cc`.
fn compiler() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

impl HostProgram {
    /// Compiles `kernel` in folder `dir` (created if needed) with the host C compiler
    /// (`$CC` or `cc`), optimised and without contraction into FMAs
    /// (`-O2 -ffp-contract=off`), as NVRTC compiles it with `--fmad=false`.
    pub fn build(kernel: &Kernel, dir: &Path) -> Result<HostProgram, HostError> {
        HostProgram::build_with(kernel, dir, "-O2")
    }

    /// [`HostProgram::build`] at optimisation level `opt` (`-O0`: ten times faster to
    /// compile a large model, the same values: without `-ffast-math` no level changes
    /// what an operation computes).
    pub fn build_with(kernel: &Kernel, dir: &Path, opt: &str) -> Result<HostProgram, HostError> {
        HostProgram::build_in(kernel, dir, opt, crate::Precision::F64)
    }

    /// [`HostProgram::build_with`] in `precision` (`F32`: compiled with `-DSIT_F32`, as
    /// NVRTC compiles the kernel of `--gpu-precision f32`).
    pub fn build_in(
        kernel: &Kernel,
        dir: &Path,
        opt: &str,
        precision: crate::Precision,
    ) -> Result<HostProgram, HostError> {
        std::fs::create_dir_all(dir)?;
        let src = dir.join("study.c");
        let exe = dir.join("study");
        std::fs::write(&src, &kernel.source)?;
        let cc = compiler();
        let define = precision.define().map(|d| format!("-D{d}"));
        let out = Command::new(&cc)
            .args(["-std=c99", opt, "-ffp-contract=off", "-DSIT_HOST_MAIN"])
            .args(define)
            .arg("-o")
            .arg(&exe)
            .arg(&src)
            .arg("-lm")
            .output()
            .map_err(|error| HostError::NoCompiler {
                cc: cc.clone(),
                error,
            })?;
        if !out.status.success() {
            return Err(HostError::Compile(
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        Ok(HostProgram {
            exe,
            columns: kernel.columns,
            axes: kernel.axes,
            inputs: kernel.inputs,
        })
    }

    /// Runs every set of `launch`.
    pub fn run(&self, launch: &Launch<'_>) -> Result<Rows, HostError> {
        if launch.axes.len() != self.axes {
            return Err(HostError::Run(format!(
                "{} axes given to a study of {}",
                launch.axes.len(),
                self.axes
            )));
        }
        if launch.series.len() != self.inputs {
            return Err(HostError::Run(format!(
                "{} series given to a study of {} driven inputs",
                launch.series.len(),
                self.inputs
            )));
        }
        let sets = launch.sets();
        if launch.sets.end > Launch::grid(launch.axes) {
            return Err(HostError::Run(format!(
                "sets {}..{} of a grid of {}",
                launch.sets.start,
                launch.sets.end,
                Launch::grid(launch.axes)
            )));
        }
        let mut input = format!(
            "{} {sets} {} {:x}\n",
            launch.sets.start,
            launch.steps,
            launch.dt.to_bits()
        );
        for axis in launch.axes {
            let _ = write!(input, "{} ", axis.len());
        }
        input.push('\n');
        for v in launch.axes.iter().flatten() {
            let _ = write!(input, "{:x} ", v.to_bits());
        }
        input.push('\n');
        for (times, _) in launch.series {
            let _ = write!(input, "{} ", times.len());
        }
        input.push('\n');
        for (times, values) in launch.series {
            for v in times.iter().chain(values) {
                let _ = write!(input, "{:x} ", v.to_bits());
            }
        }
        input.push('\n');
        let mut child = Command::new(&self.exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output()?;
        writer
            .join()
            .map_err(|_| HostError::Run("the writer of the input panicked".into()))??;
        if !out.status.success() {
            return Err(HostError::Run(format!(
                "exit status {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let mut rows = Rows {
            columns: self.columns,
            values: Vec::with_capacity(sets * self.columns),
            faults: vec![0; sets],
            seen: vec![None; sets],
        };
        let bad = |line: &str| HostError::Run(format!("unexpected output line `{line}`"));
        for (set, line) in text.lines().enumerate() {
            let mut words = line.split_ascii_whitespace();
            let code: i32 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| bad(line))?;
            *rows.faults.get_mut(set).ok_or_else(|| bad(line))? = code;
            let mut watch = [0.0; 4];
            for w in &mut watch {
                let bits = words
                    .next()
                    .and_then(|w| u64::from_str_radix(w, 16).ok())
                    .ok_or_else(|| bad(line))?;
                *w = f64::from_bits(bits);
            }
            rows.seen[set] = crate::Seen::read(&watch);
            for _ in 0..self.columns {
                let bits = words
                    .next()
                    .and_then(|w| u64::from_str_radix(w, 16).ok())
                    .ok_or_else(|| bad(line))?;
                rows.values.push(f64::from_bits(bits));
            }
        }
        if rows.values.len() != sets * self.columns {
            return Err(HostError::Run(format!(
                "{} values for {sets} sets of {} columns",
                rows.values.len(),
                self.columns
            )));
        }
        Ok(rows)
    }
}
