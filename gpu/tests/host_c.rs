//! The kernel's C text, compiled by the host C compiler, against the interpreter's sweep: every column of every set, bit for bit, on the library under every method.

mod common;

use common::{compare, library};
use sit_gpu::host::HostProgram;
use sit_middle::ir::Method;
use std::path::PathBuf;

/// A folder of its own for a test's programs.
fn work(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("host_c")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The host program of a kernel, run.
fn host(kernel: &sit_gpu::Kernel, launch: &sit_gpu::Launch<'_>, name: &str) -> sit_gpu::Rows {
    HostProgram::build(kernel, &work(name))
        .unwrap()
        .run(launch)
        .unwrap()
}

#[test]
fn the_library_runs_as_c_to_the_bit_under_its_declared_method() {
    let (mut sets, mut wrong) = (0, Vec::new());
    for f in library() {
        sets += compare(&f, None, 500, &host, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 20, "{sets}");
}

#[test]
fn the_library_runs_as_c_to_the_bit_under_rk4_and_dopri5() {
    let (mut sets, mut wrong) = (0, Vec::new());
    for f in library() {
        for m in ["rk4", "dopri5"] {
            sets += compare(&f, Method::from_name(m), 200, &host, &mut wrong);
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(sets > 20, "{sets}");
}
