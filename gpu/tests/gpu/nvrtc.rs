//! The kernels of the library compiled by NVRTC, CUDA's run-time compiler, where it is found (in CI from the PyPI package that `.ci/run` installs): the text `--gpu` launches is CUDA that compiles.

use crate::common::{library, study};
use sit_driver::{Options, Source};
use sit_gpu::Precision;
use sit_gpu::cuda::{CudaOptions, compile};
use sit_interp::Instance;
use sit_middle::ir::Method;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set in the child process that has NVRTC on its library path.
const CHILD: &str = "SIT_NVRTC_CHILD";

/// The folder of `libnvrtc.so.12`: `$SIT_NVRTC_DIR`, or the PyPI package
/// `nvidia-cuda-nvrtc-cu12` in the CI venv.
fn nvrtc_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SIT_NVRTC_DIR") {
        return Some(dir.into());
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ci-venv/lib");
    std::fs::read_dir(venv).ok()?.flatten().find_map(|python| {
        let lib = python.path().join("site-packages/nvidia/cuda_nvrtc/lib");
        lib.join("libnvrtc.so.12").exists().then_some(lib)
    })
}

/// Every model of the library under its declared method, and the ones of a few states
/// under rk4 and dopri5 (the larger ones take NVRTC seconds each: the host C form checks
/// them all), compiled for the H100's architecture (`compute_90`); once with FMA
/// contraction allowed; the small ones in f32 too.
fn compile_all() {
    let mut kernels = 0;
    for path in library() {
        let small = crate::common::SMALL
            .iter()
            .any(|m| path.file_stem().is_some_and(|s| s == *m));
        let methods = match small {
            true => &[None, Method::from_name("rk4"), Method::from_name("dopri5")][..],
            false => &[None][..],
        };
        for &method in methods {
            let opts = Options {
                method,
                ..Options::default()
            };
            let Ok(compiled) = sit_driver::compile(&Source::path(&path), &opts) else {
                continue;
            };
            let root = compiled.root(None).unwrap();
            let model = Instance::new(&compiled.lowered, root);
            let kernel = match sit_gpu::kernel(&compiled.lowered, root, &study(&model).spec) {
                Ok(kernel) => kernel,
                // A method the C form does not write (`rodas4`), refused by name: the C
                // form's own tests check the refusal.
                Err(sit_gpu::SpecError::Unsupported(sit_gpu::Unsupported::Method(_))) => continue,
                Err(e) => panic!("{}: {e}", path.display()),
            };
            let fma = kernels == 0;
            let opts = CudaOptions {
                block: 128,
                fma,
                precision: Precision::F64,
            };
            let ptx = compile(&kernel, "compute_90", opts)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(ptx.contains(".entry sit_sweep"), "{}", path.display());
            kernels += 1;
            // The small ones under their own method in f32 too (`--gpu-precision f32`):
            // float arithmetic and the float functions of CUDA's library in the PTX.
            if small && method.is_none() {
                let f32 = CudaOptions {
                    precision: Precision::F32,
                    ..opts
                };
                let ptx = compile(&kernel, "compute_90", f32)
                    .unwrap_or_else(|e| panic!("{} (f32): {e}", path.display()));
                assert!(ptx.contains(".entry sit_sweep"), "{}", path.display());
                assert!(ptx.contains(".f32"), "{}", path.display());
                kernels += 1;
            }
        }
    }
    assert!(kernels > 20, "{kernels}");
}

#[test]
fn the_library_compiles_with_nvrtc() {
    if std::env::var_os(CHILD).is_some() {
        return compile_all();
    }
    let Some(dir) = nvrtc_dir() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no NVRTC: .ci/run installs nvidia-cuda-nvrtc-cu12 into target/ci-venv"
        );
        eprintln!("skipped: no NVRTC (pip install nvidia-cuda-nvrtc-cu12, or SIT_NVRTC_DIR)");
        return;
    };
    // The dynamic loader reads LD_LIBRARY_PATH when a process starts: a child with it.
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "nvrtc::the_library_compiles_with_nvrtc",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .env("LD_LIBRARY_PATH", dir)
        .status()
        .unwrap();
    assert!(status.success());
}
