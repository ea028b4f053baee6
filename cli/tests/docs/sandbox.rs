//! A scratch copy of the repository for one page's blocks: `sitc` on the `PATH`, `cargo` behind a shim.
//!
//! The sandbox is a temporary folder holding `sit/`, whose entries link to the repository's
//! top-level entries (so the repository's files are reachable and new files land in the
//! sandbox), and `bin/` with `sitc` (the binary under test) and a `cargo` shim: `cargo run
//! --release -p sitc -- ARGS` runs `sitc ARGS`, `cargo test --workspace` is the suite that
//! runs this test, `cargo install --path cli` is the `sitc` on the `PATH`, and `cargo new|init|add|build|run` go to the real cargo, offline, with
//! their own target folder. Blocks run from `sit/` (the repository root); a `cd` in an `sh`
//! block carries over to the blocks after it, up to the next heading.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Seconds an `sh` block may run before it is stopped.
const TIMEOUT_S: u32 = 300;

/// One page's sandbox.
pub struct Sandbox {
    dir: tempfile::TempDir,
    cwd: PathBuf,
}

impl Sandbox {
    /// A sandbox mirroring the repository at `repo`, with `sitc` at `sitc`.
    pub fn new(repo: &Path, sitc: &Path) -> Sandbox {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let sit = dir.path().join("sit");
        let bin = dir.path().join("bin");
        for d in [&sit, &bin, &dir.path().join("blocks")] {
            std::fs::create_dir(d).unwrap();
        }
        for entry in std::fs::read_dir(repo).unwrap().flatten() {
            let name = entry.file_name();
            if name != "target" && name != ".git" {
                std::os::unix::fs::symlink(entry.path(), sit.join(&name)).unwrap();
            }
        }
        std::os::unix::fs::symlink(sitc, bin.join("sitc")).unwrap();
        // Linked, not written: a script written by this process and run at once fails
        // now and then with ETXTBSY ("Text file busy"), when another test thread forks
        // while the file is open for writing and the child holds the descriptor.
        let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/docs/cargo-shim");
        std::os::unix::fs::symlink(shim, bin.join("cargo")).unwrap();
        Sandbox { dir, cwd: sit }
    }

    /// The folder the next block runs in.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Runs the next blocks from the repository root again (after a heading).
    pub fn home(&mut self) {
        self.cwd = self.dir.path().join("sit");
    }

    /// A path for a block's own file (`blocks/NAME`), outside the mirror.
    pub fn scratch(&self, name: &str) -> PathBuf {
        self.dir.path().join("blocks").join(name)
    }

    /// Writes `text` to `path`, relative to the current folder.
    pub fn write(&self, path: &str, text: &str) -> PathBuf {
        let path = self.cwd.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A command run in the current folder with the sandbox's `PATH` and environment.
    pub fn command(&self, program: &str) -> Command {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![self.dir.path().join("bin")];
        paths.extend(std::env::split_paths(&path));
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.cwd)
            .env("PATH", std::env::join_paths(paths).unwrap())
            .env(
                "SIT_DOCS_REAL_CARGO",
                std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
            )
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TARGET_DIR", repo.join("target/docs-sandbox"))
            // `sitc fmu` builds in the FMU tests' folder, so the Sit crates compile once.
            .env("SIT_FMU_BUILD_DIR", repo.join("target/fmu-build"))
            .env("CARGO_TERM_COLOR", "never")
            // Debug info only slows the build of the crates the docs make.
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env_remove("RUSTFLAGS");
        cmd
    }

    /// Runs an `sh` block with `bash -e` (stopped after [`TIMEOUT_S`]), then moves to the
    /// folder it ended in (if it ended well).
    pub fn sh(&mut self, code: &str) -> Output {
        let script = self.dir.path().join("block.sh");
        let cwd_file = self.dir.path().join("cwd");
        std::fs::write(
            &script,
            format!("set -e\n{code}\npwd > '{}'\n", cwd_file.display()),
        )
        .unwrap();
        let _ = std::fs::remove_file(&cwd_file);
        let out = self
            .command("timeout")
            .arg(TIMEOUT_S.to_string())
            .arg("bash")
            .arg(&script)
            .output()
            .expect("bash and timeout run");
        if let Ok(cwd) = std::fs::read_to_string(&cwd_file) {
            self.cwd = PathBuf::from(cwd.trim_end());
        }
        out
    }
}
