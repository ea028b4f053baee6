// Hand-written CUDA kernels of the same steps `sitc sweep --gpu` generates for
// examples/models/van_der_pol.sit and hoop.sit (euler), the reference of the benchmark in
// bench/gpu/run.sh: one thread per parameter set, state in registers, the same IEEE
// operations in the same order (compile with --fmad=false for the same bits), in double
// or, with `f32`, in float (as `sitc sweep --gpu --gpu-precision f32`: every value and
// literal in float).
//
//   nvcc -O3 -arch=sm_90 --fmad=false -o hand bench/gpu/hand.cu
//   ./hand vdp|hoop SETS STEPS [f32]   # prints ps per instance-step and the first/last finals
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

template <typename R>
__global__ void vdp(const R* mu, long long n, long long steps, R dt, R* out) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    R m = mu[i], x0 = R(2.0), x1 = R(0.0);
    for (long long k = 0; k < steps; k++) {
        R d0 = x1;
        R d1 = m * ((R(1.0) - x0 * x0) * x1) - x0;
        x0 = x0 + d0 * dt;
        x1 = x1 + d1 * dt;
    }
    out[2 * i] = x0;
    out[2 * i + 1] = x1;
}

template <typename T>
__global__ void hoop(const T* kp, long long n, long long steps, T dt, T* out) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T m = T(1.0), R = T(30.0), g = T(981.0), k_release = T(45000.0);
    T k_press = kp[i];
    T h = T(400.0), Vy = T(0.0), defl = T(0.0), Fy = T(0.0);
    for (long long k = 0; k < steps; k++) {
        bool contact = h < R, falling = Vy < T(0.0);
        T P = m * g;
        bool fired = false;
        if (contact && falling) { Fy = k_press * defl; fired = true; }
        if (contact && !falling) { Fy = k_release * defl; fired = true; }
        if (!fired) Fy = T(0.0);
        T F = Fy - P;
        T Ay = F / m;
        Vy = Vy + Ay * dt;
        h = h + Vy * dt;
        if (h < R) defl = R - h; else defl = T(0.0);
    }
    out[2 * i] = h;
    out[2 * i + 1] = Vy;
}

template <typename R>
int bench(const char* model, long long n, long long steps) {
    bool is_vdp = strcmp(model, "vdp") == 0;
    R dt = is_vdp ? R(0.01) : R(1e-4);
    // The axis as `sitc sweep --param NAME=LO..HI:N` spaces it (sit_runtime::sweep::linspace).
    double lo = is_vdp ? 0.5 : 50000.0, hi = is_vdp ? 2.0 : 70000.0;
    std::vector<R> p(n);
    for (long long k = 0; k < n; k++) {
        p[k] = R(n == 1 ? lo : (k == n - 1 ? hi : lo + (hi - lo) * (double)k / (double)(n - 1)));
    }
    R *dp, *dout;
    cudaMalloc(&dp, n * sizeof(R));
    cudaMalloc(&dout, 2 * n * sizeof(R));
    cudaMemcpy(dp, p.data(), n * sizeof(R), cudaMemcpyHostToDevice);
    int block = 128;
    long long blocks = (n + block - 1) / block;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    // One launch to warm up, then the timed one.
    for (int rep = 0; rep < 2; rep++) {
        cudaEventRecord(a);
        if (is_vdp) vdp<R><<<blocks, block>>>(dp, n, steps, dt, dout);
        else hoop<R><<<blocks, block>>>(dp, n, steps, dt, dout);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); return 1; }
    std::vector<R> out(2 * n);
    cudaMemcpy(out.data(), dout, 2 * n * sizeof(R), cudaMemcpyDeviceToHost);
    printf("hand %s %s sets=%lld steps=%lld kernel_ms=%.3f ps_per_instance_step=%.4f\n", model,
           sizeof(R) == 4 ? "f32" : "f64", n, steps, ms, ms * 1e9 / ((double)n * (double)steps));
    printf("first %.17g %.17g last %.17g %.17g\n", (double)out[0], (double)out[1],
           (double)out[2 * n - 2], (double)out[2 * n - 1]);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "f32") == 0)) {
        fprintf(stderr, "usage: hand vdp|hoop SETS STEPS [f32]\n");
        return 2;
    }
    long long n = atoll(argv[2]), steps = atoll(argv[3]);
    if (argc == 5) return bench<float>(argv[1], n, steps);
    return bench<double>(argv[1], n, steps);
}
