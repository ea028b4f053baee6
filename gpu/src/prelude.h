/* The runtime procedures of sit-runtime in C, operation for operation, so that the step
 * of a model compiled from this text computes the values of the generated Rust code and
 * of the interpreter to the bit (every operation here is one IEEE operation of the Rust
 * source it follows, in the same order; compile without contraction of a*b+c into an
 * FMA: `-ffp-contract=off`, NVRTC `--fmad=false`). The functions of the C library (sin,
 * exp, pow, ...) are the target's own: see docs/gpu.md for how far they may differ from
 * the `libm` crate that sit-runtime calls. */

#ifdef __CUDACC__
#define SIT_DEVICE __device__ static inline
#else
#include <math.h>
#define SIT_DEVICE static inline
#endif

/* A double from its bits: the literals that C cannot write (infinities, NaN). */
SIT_DEVICE double sit_from_bits(unsigned long long bits) {
    union { unsigned long long u; double d; } x;
    x.u = bits;
    return x.d;
}

SIT_DEVICE int sit_is_nan(double x) { return x != x; }

/* sit_runtime::math */
SIT_DEVICE double sit_abs(double x) { return fabs(x); }
SIT_DEVICE double sit_sign(double x) {
    if (x > 0.0) return 1.0;
    if (x < 0.0) return -1.0;
    if (x == 0.0) return 0.0;
    return x;
}
SIT_DEVICE double sit_sqrt(double x) { return sqrt(x); }
SIT_DEVICE double sit_exp(double x) { return exp(x); }
SIT_DEVICE double sit_ln(double x) { return log(x); }
SIT_DEVICE double sit_log10(double x) { return log10(x); }
SIT_DEVICE double sit_sin(double x) { return sin(x); }
SIT_DEVICE double sit_cos(double x) { return cos(x); }
SIT_DEVICE double sit_tan(double x) { return tan(x); }
SIT_DEVICE double sit_asin(double x) { return asin(x); }
SIT_DEVICE double sit_acos(double x) { return acos(x); }
SIT_DEVICE double sit_atan(double x) { return atan(x); }
SIT_DEVICE double sit_atan2(double y, double x) { return atan2(y, x); }
SIT_DEVICE double sit_sinh(double x) { return sinh(x); }
SIT_DEVICE double sit_cosh(double x) { return cosh(x); }
SIT_DEVICE double sit_tanh(double x) { return tanh(x); }
/* libm's fmin and fmax (generic/fmin.rs, fmax.rs): the NaN rule is theirs, not C's. */
SIT_DEVICE double sit_min(double x, double y) { return (sit_is_nan(y) || x < y) ? x : y; }
SIT_DEVICE double sit_max(double x, double y) { return (sit_is_nan(x) || x < y) ? y : x; }
SIT_DEVICE double sit_pow(double x, double y) { return pow(x, y); }
SIT_DEVICE double sit_hypot(double x, double y) { return hypot(x, y); }
SIT_DEVICE double sit_floor(double x) { return floor(x); }
SIT_DEVICE double sit_ceil(double x) { return ceil(x); }
SIT_DEVICE double sit_round(double x) { return round(x); }

/* sit_runtime::procedures */
SIT_DEVICE double sit_relay(double x, double a) {
    if (x > 0.0) return a;
    if (x < 0.0) return -a;
    if (x == 0.0) return 0.0;
    return x;
}
SIT_DEVICE double sit_limit(double x, double lo, double hi) {
    double m = x > hi ? hi : x;
    return m < lo ? lo : m;
}
SIT_DEVICE double sit_deadzone(double x, double w) {
    if (x > w) return x - w;
    if (sit_abs(x) <= w) return 0.0;
    return x + w;
}
SIT_DEVICE double sit_integral(double y, double x, double dt) { return y + x * dt; }
SIT_DEVICE double sit_integral_limited(double y, double x, double lo, double hi, double dt) {
    return sit_limit(y + x * dt, lo, hi);
}
SIT_DEVICE double sit_lag(double y, double x, double t, double k, double dt) {
    double target = k * x;
    double a;
    if (t == 0.0) return target;
    a = -expm1(-dt / t);
    if (a == 1.0) return target;
    return y + (target - y) * a;
}
SIT_DEVICE double sit_hysteresis(double y, double x, double lo, double hi, double a) {
    if (x >= hi) return a;
    if (x <= lo) return -a;
    return y;
}
SIT_DEVICE int sit_rising(int cond, int* prev) {
    int edge = cond && !*prev;
    *prev = cond;
    return edge;
}

/* sit_runtime::Deriv */
typedef struct { int has; double prev; } sit_deriv;
SIT_DEVICE void sit_deriv_reset(sit_deriv* d) { d->has = 0; d->prev = 0.0; }
SIT_DEVICE double sit_deriv_next(sit_deriv* d, double x, double dt) {
    double out = d->has ? (x - d->prev) / dt : 0.0;
    d->has = 1;
    d->prev = x;
    return out;
}

/* sit_runtime::Clock */
typedef struct { double start, steps, step, num, den; } sit_clock;
#define SIT_EXACT 9007199254740992.0
SIT_DEVICE void sit_clock_reset(sit_clock* c) {
    c->start = 0.0; c->steps = 0.0; c->step = 0.0; c->num = 0.0; c->den = 1.0;
}
SIT_DEVICE double sit_clock_time(const sit_clock* c) {
    double a, offset;
    if (c->steps == 0.0) return c->start;
    a = c->steps * c->num;
    offset = (c->den != 0.0 && fabs(a) <= SIT_EXACT) ? a / c->den : c->steps * c->step;
    return c->start + offset;
}
/* The shortest decimal m/10^k (k <= 22, |m| <= 2^53) whose nearest double is h. */
SIT_DEVICE void sit_decimal(double h, double* num, double* den) {
    double p = 1.0;
    int k;
    for (k = 0; k <= 22; k++) {
        double m = round(h * p);
        if (fabs(m) <= SIT_EXACT && m / p == h) { *num = m; *den = p; return; }
        p *= 10.0;
    }
    *num = 0.0; *den = 0.0;
}
SIT_DEVICE int sit_same_bits(double a, double b) {
    union { double d; unsigned long long u; } x, y;
    x.d = a; y.d = b;
    return x.u == y.u;
}
SIT_DEVICE double sit_clock_advance(sit_clock* c, double dt) {
    if (!sit_same_bits(dt, c->step)) {
        double start = sit_clock_time(c);
        c->start = start; c->steps = 0.0; c->step = dt;
        sit_decimal(dt, &c->num, &c->den);
    }
    c->steps += 1.0;
    return sit_clock_time(c);
}

/* sit_runtime::timer: k·dt after k steps of a constant dt, continued by adding dt
 * otherwise. */
SIT_DEVICE double sit_timer(double y, int c, double dt) {
    double n;
    sit_clock k;
    if (!c) return 0.0;
    if (sit_is_nan(dt) || dt <= 0.0) return y;
    n = round(y / dt);
    k.start = 0.0; k.steps = n; k.step = dt;
    sit_decimal(dt, &k.num, &k.den);
    if (fabs(y - sit_clock_time(&k)) <= 1e-9 * dt) {
        k.steps = n + 1.0;
        return sit_clock_time(&k);
    }
    return y + dt;
}

/* sit_runtime::table: linear on a grid, clamped or extrapolated beyond it. */
SIT_DEVICE int sit_locate(const double* g, int n, int extrapolate, double x, int* i, double* t) {
    double first, last;
    int lo, hi;
    if (n < 2 || sit_is_nan(x)) return 0;
    first = g[0]; last = g[n - 1];
    if (x < first) {
        if (!extrapolate) { *i = 0; *t = 0.0; return 1; }
        *i = 0;
    } else if (x >= last) {
        if (x == last || !extrapolate) { *i = n - 1; *t = 0.0; return 1; }
        *i = n - 2;
    } else {
        /* The last point at or below x (partition_point of g <= x, minus one). */
        lo = 0; hi = n;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (g[mid] <= x) lo = mid + 1; else hi = mid;
        }
        *i = lo - 1;
    }
    *t = (x - g[*i]) / (g[*i + 1] - g[*i]);
    return 1;
}
SIT_DEVICE double sit_blend(const double* v, int n, int i, double t) {
    double a;
    if (i >= n) return sit_from_bits(0x7ff8000000000000ULL);
    a = v[i];
    if (t == 0.0) return a;
    if (i + 1 >= n) return sit_from_bits(0x7ff8000000000000ULL);
    return a + t * (v[i + 1] - a);
}
SIT_DEVICE double sit_lookup1(const double* g, const double* v, int n, int extrapolate, double x) {
    int i; double t;
    if (!sit_locate(g, n, extrapolate, x, &i, &t)) return sit_from_bits(0x7ff8000000000000ULL);
    return sit_blend(v, n, i, t);
}
SIT_DEVICE double sit_lookup2(const double* g1, int n1, const double* g2, int n2,
                              const double* v, int extrapolate, double x, double y) {
    int i, j; double s, t, a, b;
    if (!sit_locate(g1, n1, extrapolate, x, &i, &s)) return sit_from_bits(0x7ff8000000000000ULL);
    if (!sit_locate(g2, n2, extrapolate, y, &j, &t)) return sit_from_bits(0x7ff8000000000000ULL);
    a = sit_blend(v + i * n2, n2, j, t);
    if (s == 0.0) return a;
    b = sit_blend(v + (i + 1) * n2, n2, j, t);
    return a + s * (b - a);
}

/* A fault stops the run of one parameter set: which one, at what time. The host reruns
 * that set on the interpreter to report it in sit-runtime's own words. */
typedef struct { int code; double time; } sit_fault;
#define SIT_FAULT_INTERNAL_STEPS 1
#define SIT_FAULT_EVENTS 2
#define SIT_FAULT_PHASE 3
#define SIT_FAULT_SUBSTEPS 4
