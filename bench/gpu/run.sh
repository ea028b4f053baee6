#!/usr/bin/env bash
# The GPU benchmark of docs/performance.md ("Parameter studies on a GPU"), on a machine
# with an NVIDIA GPU and the CUDA toolkit (nvcc, NVRTC) but no Rust: `sitc` is built
# elsewhere (`cargo build --release -p sitc`) and copied with the repository.
#
#   bench/gpu/run.sh [SITC] [OUT]     # defaults: target/release/sitc, target/gpu-bench
#
# 1. the hand-written kernels of bench/gpu/hand.cu (Van der Pol, the hoop) and the kernels
#    `sitc sweep --gpu` generates for the same models, 2^16 ... 2^24 parameter sets x
#    10 000 steps: picoseconds per instance-step of each (CUDA events around the launch),
#    and their final values for the first and last set, which must agree; then both
#    again in f32 (`hand ... f32`, `--gpu-precision f32`) at 2^24 sets, whose finals
#    must agree with each other and, to f32's accuracy, with the f64 rows;
# 2. the interpreter's sweep on every core (`sitc sweep`, no --gpu) at 2^16 sets, and its
#    rows against the GPU's (`cmp`: to the bit);
# 3. with SIT_DEVICE_TEST naming the test binary of gpu/tests/gpu/ (built with
#    `cargo test --release -p sit-gpu --test gpu --no-run`), the library's kernels
#    against the interpreter on the GPU and the math functions' bounds there;
# 4. with SIT_CACHE_DIR holding the compiled sweeps of both models (built where Rust is,
#    with the commands of `sweep` below and --compiled), `sitc sweep --compiled` on every
#    core and on one, against the interpreter, at 2^16 sets.
# PARTS (default "kernels interp device compiled") chooses the parts to run.
set -uo pipefail
cd "$(dirname "$0")/../.."
SITC=${1:-target/release/sitc}
OUT=${2:-target/gpu-bench}
mkdir -p "$OUT"
TMP=$(mktemp -d)
log() { echo "$*" | tee -a "$OUT/summary.txt"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
log "cores: $(nproc)"
# NVRTC for `sitc sweep --gpu`, from the toolkit of nvcc.
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
export LD_LIBRARY_PATH="$CUDA_HOME/lib64:$CUDA_HOME/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}"
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O3 -arch="sm_$ARCH" --fmad=false -o "$TMP/hand" bench/gpu/hand.cu || exit 1

sweep() { # MODEL SETS [sitc options...]: the generated kernel's line on stderr
    local model=$1 n=$2
    shift 2
    case $model in
    vdp) "$SITC" sweep examples/models/van_der_pol.sit --param "mu=0.5..2:$n" \
        --dt 0.01 --t-end 100 --record x0,x1 "$@" ;;
    hoop) "$SITC" sweep examples/models/hoop.sit --param "k_press=50000..70000:$n" \
        --dt 1e-4 --t-end 1 --record h,Vy "$@" ;;
    esac
}

PARTS=${PARTS:-kernels interp device compiled}
part() { [[ " $PARTS " == *" $1 "* ]]; }

part kernels && for n in 65536 1048576 16777216; do
    for model in vdp hoop; do
        log "$("$TMP/hand" $model $n 10000 | tr '\n' ' ')"
        sweep $model $n --gpu -o "$TMP/$model.csv" 2>"$TMP/line.txt"
        log "generated $model sets=$n: $(grep '^gpu:' "$TMP/line.txt")"
        grep -v '^gpu:' "$TMP/line.txt" | head -5
        log "  first $(sed -n 2p "$TMP/$model.csv") last $(tail -1 "$TMP/$model.csv")"
    done
done
if part kernels; then
    sweep vdp 16777216 --gpu --gpu-fma -o /dev/null 2>"$TMP/line.txt"
    log "generated vdp with FMA: $(cat "$TMP/line.txt")"
    # f32: the hand-written kernel in float against the generated one in float.
    for model in vdp hoop; do
        log "$("$TMP/hand" $model 16777216 10000 f32 | tr '\n' ' ')"
        sweep $model 16777216 --gpu --gpu-precision f32 -o "$TMP/$model.f32.csv" 2>"$TMP/line.txt"
        log "generated $model f32 sets=16777216: $(grep '^gpu:' "$TMP/line.txt")"
        log "  first $(sed -n 2p "$TMP/$model.f32.csv") last $(tail -1 "$TMP/$model.f32.csv")"
    done
fi

timed() { # LABEL COMMAND...: runs it, logs its wall time and ps per instance-step
    local label=$1 start end
    shift
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    log "$label: $(awk "BEGIN { print $end - $start }") s ($(awk "BEGIN { print ($end - $start) * 1e12 / (65536 * 10000) }") ps per instance-step)"
}

# The interpreter on every core, against the GPU's rows.
part interp && for model in vdp hoop; do
    start=$(date +%s.%N)
    sweep $model 65536 -o "$TMP/$model.interp.csv" 2>/dev/null
    end=$(date +%s.%N)
    secs=$(awk "BEGIN { print $end - $start }")
    ps=$(awk "BEGIN { print ($end - $start) * 1e12 / (65536 * 10000) }")
    log "interpreter $model sets=65536 steps=10000 on $(nproc) cores: $secs s ($ps ps per instance-step)"
    sweep $model 65536 --gpu -o "$TMP/$model.gpu.csv" 2>"$TMP/line.txt"
    log "  gpu at the same size: $(grep '^gpu:' "$TMP/line.txt")"
    if cmp -s "$TMP/$model.interp.csv" "$TMP/$model.gpu.csv"; then
        log "  rows of the GPU and the interpreter: identical"
    else
        log "  rows of the GPU and the interpreter DIFFER:"
        diff "$TMP/$model.interp.csv" "$TMP/$model.gpu.csv" | head -6 | tee -a "$OUT/summary.txt"
    fi
done

if part compiled && [ -n "${SIT_CACHE_DIR:-}" ]; then
    for model in vdp hoop; do
        timed "interpreter $model sets=65536 on $(nproc) cores" \
            sweep $model 65536 -o "$TMP/$model.interp.csv"
        timed "compiled $model sets=65536 on $(nproc) cores" \
            sweep $model 65536 --compiled -o "$TMP/$model.compiled.csv"
        RAYON_NUM_THREADS=1 timed "compiled $model sets=65536 on 1 core" \
            sweep $model 65536 --compiled -o /dev/null
        if cmp -s "$TMP/$model.interp.csv" "$TMP/$model.compiled.csv"; then
            log "  rows of the compiled sweep and the interpreter: identical"
        else
            log "  rows of the compiled sweep and the interpreter DIFFER"
        fi
    done
fi

if part device && [ -n "${SIT_DEVICE_TEST:-}" ]; then
    SIT_GPU=1 SIT_REPO=$PWD timeout 200 "$SIT_DEVICE_TEST" --nocapture --test-threads 1 \
        device:: functions::cuda >"$OUT/device-test.txt" 2>&1
    log "device test: exit $? ($(grep 'test result' "$OUT/device-test.txt"))"
fi
rm -rf "$TMP"
