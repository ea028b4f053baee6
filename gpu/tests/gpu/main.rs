//! The tests of sit-gpu, in one binary (one link instead of five): the C form against the interpreter on the host (`host_c`), the kernels compiled by NVRTC (`nvrtc`), the math functions' bounds (`functions`), the constructs covered (`coverage`), and with a GPU (`SIT_GPU=1`) the kernels launched (`device`).

mod common;
mod coverage;
mod device;
mod functions;
mod host_c;
mod nvrtc;
