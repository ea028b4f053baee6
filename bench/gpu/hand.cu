// Hand-written CUDA kernels of the same steps `sitc sweep --gpu` generates for
// examples/models/van_der_pol.sit and hoop.sit (euler), the reference of the benchmark in
// bench/gpu/run.sh: one thread per parameter set, state in registers, the same IEEE
// operations in the same order (compile with --fmad=false for the same bits).
//
//   nvcc -O3 -arch=sm_90 --fmad=false -o hand bench/gpu/hand.cu
//   ./hand vdp|hoop SETS STEPS   # prints ps per instance-step and the first/last finals
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void vdp(const double* mu, long long n, long long steps, double dt, double* out) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double m = mu[i], x0 = 2.0, x1 = 0.0;
    for (long long k = 0; k < steps; k++) {
        double d0 = x1;
        double d1 = m * ((1.0 - x0 * x0) * x1) - x0;
        x0 = x0 + d0 * dt;
        x1 = x1 + d1 * dt;
    }
    out[2 * i] = x0;
    out[2 * i + 1] = x1;
}

__global__ void hoop(const double* kp, long long n, long long steps, double dt, double* out) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double m = 1.0, R = 30.0, g = 981.0, k_release = 45000.0;
    double k_press = kp[i];
    double h = 400.0, Vy = 0.0, defl = 0.0, Fy = 0.0;
    for (long long k = 0; k < steps; k++) {
        bool contact = h < R, falling = Vy < 0.0;
        double P = m * g;
        bool fired = false;
        if (contact && falling) { Fy = k_press * defl; fired = true; }
        if (contact && !falling) { Fy = k_release * defl; fired = true; }
        if (!fired) Fy = 0.0;
        double F = Fy - P;
        double Ay = F / m;
        Vy = Vy + Ay * dt;
        h = h + Vy * dt;
        if (h < R) defl = R - h; else defl = 0.0;
    }
    out[2 * i] = h;
    out[2 * i + 1] = Vy;
}

int main(int argc, char** argv) {
    if (argc != 4) { fprintf(stderr, "usage: hand vdp|hoop SETS STEPS\n"); return 2; }
    bool is_vdp = strcmp(argv[1], "vdp") == 0;
    long long n = atoll(argv[2]), steps = atoll(argv[3]);
    double dt = is_vdp ? 0.01 : 1e-4;
    // The axis as `sitc sweep --param NAME=LO..HI:N` spaces it (sit_runtime::sweep::linspace).
    double lo = is_vdp ? 0.5 : 50000.0, hi = is_vdp ? 2.0 : 70000.0;
    std::vector<double> p(n);
    for (long long k = 0; k < n; k++) {
        p[k] = n == 1 ? lo : (k == n - 1 ? hi : lo + (hi - lo) * (double)k / (double)(n - 1));
    }
    double *dp, *dout;
    cudaMalloc(&dp, n * sizeof(double));
    cudaMalloc(&dout, 2 * n * sizeof(double));
    cudaMemcpy(dp, p.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    int block = 128;
    long long blocks = (n + block - 1) / block;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    // One launch to warm up, then the timed one.
    for (int rep = 0; rep < 2; rep++) {
        cudaEventRecord(a);
        if (is_vdp) vdp<<<blocks, block>>>(dp, n, steps, dt, dout);
        else hoop<<<blocks, block>>>(dp, n, steps, dt, dout);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); return 1; }
    std::vector<double> out(2 * n);
    cudaMemcpy(out.data(), dout, 2 * n * sizeof(double), cudaMemcpyDeviceToHost);
    printf("hand %s sets=%lld steps=%lld kernel_ms=%.3f ps_per_instance_step=%.4f\n", argv[1], n,
           steps, ms, ms * 1e9 / ((double)n * (double)steps));
    printf("first %.17g %.17g last %.17g %.17g\n", out[0], out[1], out[2 * n - 2], out[2 * n - 1]);
    return 0;
}
