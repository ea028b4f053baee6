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

/* The precision of the model's values: double (f64, the default: the interpreter's bits),
 * or float under SIT_F32 (f32 on request: every value, literal and function of the math
 * library in single precision; rows converted to double at the end). SIT_R(1e-1) is a
 * literal of that precision, SIT_F(sin) the function of that precision (sin or sinf). */
#ifdef SIT_F32
typedef float sit_real;
typedef unsigned int sit_real_bits;
#define SIT_R(x) x##f
#define SIT_F(name) name##f
/* 2^24: every whole number up to it is exact in float. */
#define SIT_EXACT 16777216.0f
#else
typedef double sit_real;
typedef unsigned long long sit_real_bits;
#define SIT_R(x) x
#define SIT_F(name) name
/* 2^53: every whole number up to it is exact in double. */
#define SIT_EXACT 9007199254740992.0
#endif

/* A double from its bits: the literals that C cannot write (infinities, NaN). */
SIT_DEVICE double sit_from_bits(unsigned long long bits) {
    union { unsigned long long u; double d; } x;
    x.u = bits;
    return x.d;
}

/* NaN in the study's precision. */
#define SIT_NAN ((sit_real)sit_from_bits(0x7ff8000000000000ULL))

SIT_DEVICE int sit_is_nan(sit_real x) { return x != x; }

/* sit_runtime::math */
SIT_DEVICE sit_real sit_abs(sit_real x) { return SIT_F(fabs)(x); }
SIT_DEVICE sit_real sit_sign(sit_real x) {
    if (x > SIT_R(0.0)) return SIT_R(1.0);
    if (x < SIT_R(0.0)) return -SIT_R(1.0);
    if (x == SIT_R(0.0)) return SIT_R(0.0);
    return x;
}
SIT_DEVICE sit_real sit_sqrt(sit_real x) { return SIT_F(sqrt)(x); }
SIT_DEVICE sit_real sit_exp(sit_real x) { return SIT_F(exp)(x); }
SIT_DEVICE sit_real sit_ln(sit_real x) { return SIT_F(log)(x); }
SIT_DEVICE sit_real sit_log10(sit_real x) { return SIT_F(log10)(x); }
SIT_DEVICE sit_real sit_sin(sit_real x) { return SIT_F(sin)(x); }
SIT_DEVICE sit_real sit_cos(sit_real x) { return SIT_F(cos)(x); }
SIT_DEVICE sit_real sit_tan(sit_real x) { return SIT_F(tan)(x); }
SIT_DEVICE sit_real sit_asin(sit_real x) { return SIT_F(asin)(x); }
SIT_DEVICE sit_real sit_acos(sit_real x) { return SIT_F(acos)(x); }
SIT_DEVICE sit_real sit_atan(sit_real x) { return SIT_F(atan)(x); }
SIT_DEVICE sit_real sit_atan2(sit_real y, sit_real x) { return SIT_F(atan2)(y, x); }
SIT_DEVICE sit_real sit_sinh(sit_real x) { return SIT_F(sinh)(x); }
SIT_DEVICE sit_real sit_cosh(sit_real x) { return SIT_F(cosh)(x); }
SIT_DEVICE sit_real sit_tanh(sit_real x) { return SIT_F(tanh)(x); }
/* libm's fmin and fmax (generic/fmin.rs, fmax.rs): the NaN rule is theirs, not C's. */
SIT_DEVICE sit_real sit_min(sit_real x, sit_real y) { return (sit_is_nan(y) || x < y) ? x : y; }
SIT_DEVICE sit_real sit_max(sit_real x, sit_real y) { return (sit_is_nan(x) || x < y) ? y : x; }
SIT_DEVICE sit_real sit_pow(sit_real x, sit_real y) { return SIT_F(pow)(x, y); }
SIT_DEVICE sit_real sit_hypot(sit_real x, sit_real y) { return SIT_F(hypot)(x, y); }
SIT_DEVICE sit_real sit_floor(sit_real x) { return SIT_F(floor)(x); }
SIT_DEVICE sit_real sit_ceil(sit_real x) { return SIT_F(ceil)(x); }
SIT_DEVICE sit_real sit_round(sit_real x) { return SIT_F(round)(x); }

/* sit_runtime::procedures */
SIT_DEVICE sit_real sit_relay(sit_real x, sit_real a) {
    if (x > SIT_R(0.0)) return a;
    if (x < SIT_R(0.0)) return -a;
    if (x == SIT_R(0.0)) return SIT_R(0.0);
    return x;
}
SIT_DEVICE sit_real sit_limit(sit_real x, sit_real lo, sit_real hi) {
    sit_real m = x > hi ? hi : x;
    return m < lo ? lo : m;
}
SIT_DEVICE sit_real sit_deadzone(sit_real x, sit_real w) {
    if (x > w) return x - w;
    if (sit_abs(x) <= w) return SIT_R(0.0);
    return x + w;
}
SIT_DEVICE sit_real sit_integral(sit_real y, sit_real x, sit_real dt) { return y + x * dt; }
SIT_DEVICE sit_real sit_integral_limited(sit_real y, sit_real x, sit_real lo, sit_real hi, sit_real dt) {
    return sit_limit(y + x * dt, lo, hi);
}
SIT_DEVICE sit_real sit_lag(sit_real y, sit_real x, sit_real t, sit_real k, sit_real dt) {
    sit_real target = k * x;
    sit_real a;
    if (t == SIT_R(0.0)) return target;
    a = -SIT_F(expm1)(-dt / t);
    if (a == SIT_R(1.0)) return target;
    return y + (target - y) * a;
}
SIT_DEVICE sit_real sit_hysteresis(sit_real y, sit_real x, sit_real lo, sit_real hi, sit_real a) {
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
typedef struct { int has; sit_real prev; } sit_deriv;
SIT_DEVICE void sit_deriv_reset(sit_deriv* d) { d->has = 0; d->prev = SIT_R(0.0); }
SIT_DEVICE sit_real sit_deriv_next(sit_deriv* d, sit_real x, sit_real dt) {
    sit_real out = d->has ? (x - d->prev) / dt : SIT_R(0.0);
    d->has = 1;
    d->prev = x;
    return out;
}

/* sit_runtime::Clock */
typedef struct { sit_real start, steps, step, num, den; } sit_clock;
SIT_DEVICE void sit_clock_reset(sit_clock* c) {
    c->start = SIT_R(0.0); c->steps = SIT_R(0.0); c->step = SIT_R(0.0); c->num = SIT_R(0.0); c->den = SIT_R(1.0);
}
SIT_DEVICE sit_real sit_clock_time(const sit_clock* c) {
    sit_real a, offset;
    if (c->steps == SIT_R(0.0)) return c->start;
    a = c->steps * c->num;
    offset = (c->den != SIT_R(0.0) && SIT_F(fabs)(a) <= SIT_EXACT) ? a / c->den : c->steps * c->step;
    return c->start + offset;
}
/* The shortest decimal m/10^k (k <= 22, |m| <= 2^53) whose nearest sit_real is h. */
SIT_DEVICE void sit_decimal(sit_real h, sit_real* num, sit_real* den) {
    sit_real p = SIT_R(1.0);
    int k;
    for (k = 0; k <= 22; k++) {
        sit_real m = SIT_F(round)(h * p);
        if (SIT_F(fabs)(m) <= SIT_EXACT && m / p == h) { *num = m; *den = p; return; }
        p *= SIT_R(10.0);
    }
    *num = SIT_R(0.0); *den = SIT_R(0.0);
}
SIT_DEVICE int sit_same_bits(sit_real a, sit_real b) {
    union { sit_real d; sit_real_bits u; } x, y;
    x.d = a; y.d = b;
    return x.u == y.u;
}
SIT_DEVICE sit_real sit_clock_advance(sit_clock* c, sit_real dt) {
    if (!sit_same_bits(dt, c->step)) {
        sit_real start = sit_clock_time(c);
        c->start = start; c->steps = SIT_R(0.0); c->step = dt;
        sit_decimal(dt, &c->num, &c->den);
    }
    c->steps += SIT_R(1.0);
    return sit_clock_time(c);
}

/* sit_runtime::timer: k·dt after k steps of a constant dt, continued by adding dt
 * otherwise. */
SIT_DEVICE sit_real sit_timer(sit_real y, int c, sit_real dt) {
    sit_real n;
    sit_clock k;
    if (!c) return SIT_R(0.0);
    if (sit_is_nan(dt) || dt <= SIT_R(0.0)) return y;
    n = SIT_F(round)(y / dt);
    k.start = SIT_R(0.0); k.steps = n; k.step = dt;
    sit_decimal(dt, &k.num, &k.den);
    if (SIT_F(fabs)(y - sit_clock_time(&k)) <= SIT_R(1e-9) * dt) {
        k.steps = n + SIT_R(1.0);
        return sit_clock_time(&k);
    }
    return y + dt;
}

/* sit_runtime::table: linear on a grid, clamped or extrapolated beyond it. */
SIT_DEVICE int sit_locate(const sit_real* g, int n, int extrapolate, sit_real x, int* i, sit_real* t) {
    sit_real first, last;
    int lo, hi;
    if (n < 2 || sit_is_nan(x)) return 0;
    first = g[0]; last = g[n - 1];
    if (x < first) {
        if (!extrapolate) { *i = 0; *t = SIT_R(0.0); return 1; }
        *i = 0;
    } else if (x >= last) {
        if (x == last || !extrapolate) { *i = n - 1; *t = SIT_R(0.0); return 1; }
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
SIT_DEVICE sit_real sit_blend(const sit_real* v, int n, int i, sit_real t) {
    sit_real a;
    if (i >= n) return SIT_NAN;
    a = v[i];
    if (t == SIT_R(0.0)) return a;
    if (i + 1 >= n) return SIT_NAN;
    return a + t * (v[i + 1] - a);
}
SIT_DEVICE sit_real sit_lookup1(const sit_real* g, const sit_real* v, int n, int extrapolate, sit_real x) {
    int i; sit_real t;
    if (!sit_locate(g, n, extrapolate, x, &i, &t)) return SIT_NAN;
    return sit_blend(v, n, i, t);
}
SIT_DEVICE sit_real sit_lookup2(const sit_real* g1, int n1, const sit_real* g2, int n2,
                              const sit_real* v, int extrapolate, sit_real x, sit_real y) {
    int i, j; sit_real s, t, a, b;
    if (!sit_locate(g1, n1, extrapolate, x, &i, &s)) return SIT_NAN;
    if (!sit_locate(g2, n2, extrapolate, y, &j, &t)) return SIT_NAN;
    a = sit_blend(v + i * n2, n2, j, t);
    if (s == SIT_R(0.0)) return a;
    b = sit_blend(v + (i + 1) * n2, n2, j, t);
    return a + s * (b - a);
}

/* sit_runtime::signal and sit_runtime::drive: an input driven by a time series (its
 * times and values in double; compared and interpolated in the study's precision). */
/* The last row whose time is <= t (the partition point of times <= t, minus one; -1 if
 * none): the row sit_runtime::signal's cursor ends on. */
SIT_DEVICE long long sit_row_at(const double* times, long long n, sit_real t) {
    long long lo = 0, hi = n;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        if ((sit_real)times[mid] <= t) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
}
/* Signal::sample: linear between rows, held beyond the ends, right-continuous at a jump. */
SIT_DEVICE sit_real sit_sample(const double* times, const double* values, long long n, sit_real t) {
    long long i;
    sit_real t0, t1, v0, v1;
    if (sit_is_nan(t)) return SIT_NAN;
    if (t <= (sit_real)times[0])
        return (n > 1 && t == (sit_real)times[1]) ? (sit_real)values[1] : (sit_real)values[0];
    if (t >= (sit_real)times[n - 1]) return (sit_real)values[n - 1];
    i = sit_row_at(times, n, t);
    t0 = (sit_real)times[i]; t1 = (sit_real)times[i + 1];
    v0 = (sit_real)values[i]; v1 = (sit_real)values[i + 1];
    return v0 + (v1 - v0) * ((t - t0) / (t1 - t0));
}
/* Signal::sample_held: the value of the last row at or before t (the first row's before it). */
SIT_DEVICE sit_real sit_held(const double* times, const double* values, long long n, sit_real t) {
    if (sit_is_nan(t)) return SIT_NAN;
    if (t < (sit_real)times[0]) return (sit_real)values[0];
    return (sit_real)values[sit_row_at(times, n, t)];
}
/* drive::Input::true_within: a flag's series true at any time in [t0, t1) (a row within
 * 1e-9 of the interval before t1 counts as at t1). */
SIT_DEVICE int sit_true_within(const double* times, const double* values, long long n,
                               sit_real t0, sit_real t1) {
    sit_real end;
    long long k;
    if (sit_held(times, values, n, t0) != SIT_R(0.0)) return 1;
    end = t1 - SIT_R(1e-9) * (t1 - t0);
    for (k = sit_row_at(times, n, t0) + 1; k < n && (sit_real)times[k] < end; k++)
        if (values[k] != 0.0) return 1;
    return 0;
}

/* A fault stops the run of one parameter set: which one, at what time. The host reruns
 * that set on the interpreter to report it in sit-runtime's own words. */
typedef struct { int code; sit_real time; } sit_fault;
#define SIT_FAULT_INTERNAL_STEPS 1
#define SIT_FAULT_EVENTS 2
#define SIT_FAULT_PHASE 3
#define SIT_FAULT_SUBSTEPS 4
