/* The runtime procedures of sit-runtime in C, operation for operation, so that the step
 * of a model compiled from this text computes the values of the generated Rust code and
 * of the interpreter to the bit (every operation here is one IEEE operation of the Rust
 * source it follows, in the same order; compile without contraction of a*b+c into an
 * FMA: `-ffp-contract=off`, NVRTC `--fmad=false`). The functions of the C library (sin,
 * exp, ...) are the target's own: see docs/gpu.md for how far they may differ from the
 * `libm` crate that sit-runtime calls; pow, which the adaptive methods' step control
 * calls, is the libm crate's own algorithm, ported below. */

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

/* sit_runtime::math::pow in double: the `libm` crate's pow (0.2, src/math/pow.rs, from
 * FreeBSD's e_pow.c), operation for operation, so that `^` and the adaptive methods' step
 * control (err^(-1/q)) give the interpreter's bits here too; the C library's pow differs
 * from it in the last bit for about one argument in ten. Under SIT_F32 the C library's
 * powf is used (the f32 form is not bit-identical by design).
 *
 * ====================================================
 * Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
 *
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 */
#ifndef SIT_F32
SIT_DEVICE unsigned long long sit_bits(double x) {
    union { double d; unsigned long long u; } v;
    v.d = x;
    return v.u;
}
SIT_DEVICE unsigned int sit_high_word(double x) { return (unsigned int)(sit_bits(x) >> 32); }
SIT_DEVICE double sit_with_high_word(double x, unsigned int hi) {
    return sit_from_bits((sit_bits(x) & 0xffffffffULL) | ((unsigned long long)hi << 32));
}
SIT_DEVICE double sit_with_low_word(double x, unsigned int lo) {
    return sit_from_bits((sit_bits(x) & 0xffffffff00000000ULL) | (unsigned long long)lo);
}

SIT_DEVICE double sit_pow_libm(double x, double y) {
    const double bp[2] = {1.0, 1.5};
    const double dp_h[2] = {0.0, 5.84962487220764160156e-01};
    const double dp_l[2] = {0.0, 1.35003920212974897128e-08};
    const double two53 = 9007199254740992.0;
    const double huge = 1.0e300;
    const double tiny = 1.0e-300;
    const double L1 = 5.99999999999994648725e-01;
    const double L2 = 4.28571428578550184252e-01;
    const double L3 = 3.33333329818377432918e-01;
    const double L4 = 2.72728123808534006489e-01;
    const double L5 = 2.30660745775561754067e-01;
    const double L6 = 2.06975017800338417784e-01;
    const double P1 = 1.66666666666666019037e-01;
    const double P2 = -2.77777777770155933842e-03;
    const double P3 = 6.61375632143793436117e-05;
    const double P4 = -1.65339022054652515390e-06;
    const double P5 = 4.13813679705723846039e-08;
    const double lg2 = 6.93147180559945286227e-01;
    const double lg2_h = 6.93147182464599609375e-01;
    const double lg2_l = -1.90465429995776804525e-09;
    const double ovt = 8.0085662595372944372e-017;
    const double cp = 9.61796693925975554329e-01;
    const double cp_h = 9.61796700954437255859e-01;
    const double cp_l = -7.02846165095275826516e-09;
    const double ivln2 = 1.44269504088896338700e+00;
    const double ivln2_h = 1.44269502162933349609e+00;
    const double ivln2_l = 1.92596299112661746887e-08;

    double t1, t2;
    int hx = (int)(sit_bits(x) >> 32);
    unsigned int lx = (unsigned int)sit_bits(x);
    int hy = (int)(sit_bits(y) >> 32);
    unsigned int ly = (unsigned int)sit_bits(y);
    int ix = hx & 0x7fffffff;
    int iy = hy & 0x7fffffff;

    if (((unsigned int)iy | ly) == 0) return 1.0;           /* x**0 = 1, even if x is NaN */
    if (hx == 0x3ff00000 && lx == 0) return 1.0;            /* 1**y = 1, even if y is NaN */
    if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 ||
        (iy == 0x7ff00000 && ly != 0))
        return x + y;                                        /* NaN if either is NaN */

    /* yisint: 0 not an integer, 1 odd, 2 even (only when x < 0) */
    int yisint = 0;
    int k, j;
    if (hx < 0) {
        if (iy >= 0x43400000) {
            yisint = 2;
        } else if (iy >= 0x3ff00000) {
            k = (iy >> 20) - 0x3ff;
            if (k > 20) {
                j = (int)(ly >> (52 - k));
                if (((unsigned int)j << (52 - k)) == ly) yisint = 2 - (j & 1);
            } else if (ly == 0) {
                j = iy >> (20 - k);
                if (((unsigned int)j << (20 - k)) == (unsigned int)iy) yisint = 2 - (j & 1);
            }
        }
    }

    if (ly == 0) {
        if (iy == 0x7ff00000) {                              /* y is +-inf */
            if (((ix - 0x3ff00000) | (int)lx) == 0) return 1.0;
            if (ix >= 0x3ff00000) return hy >= 0 ? y : 0.0;
            return hy >= 0 ? 0.0 : -y;
        }
        if (iy == 0x3ff00000) return hy >= 0 ? x : 1.0 / x;  /* y is +-1 */
        if (hy == 0x40000000) return x * x;                  /* y is 2 */
        if (hy == 0x3fe00000 && hx >= 0) return sqrt(x);     /* y is 0.5, x >= +0 */
    }

    double ax = fabs(x);
    if (lx == 0) {
        if (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000) { /* x is +-0, +-inf, +-1 */
            double z = ax;
            if (hy < 0) z = 1.0 / z;
            if (hx < 0) {
                if (((ix - 0x3ff00000) | yisint) == 0) {
                    z = (z - z) / (z - z);
                } else if (yisint == 1) {
                    z = -z;
                }
            }
            return z;
        }
    }

    double s = 1.0;
    if (hx < 0) {
        if (yisint == 0) return (x - x) / (x - x);
        if (yisint == 1) s = -1.0;
    }

    if (iy > 0x41e00000) {                                   /* |y| > 2**31 */
        if (iy > 0x43f00000) {                               /* |y| > 2**64 */
            if (ix <= 0x3fefffff) return hy < 0 ? huge * huge : tiny * tiny;
            if (ix >= 0x3ff00000) return hy > 0 ? huge * huge : tiny * tiny;
        }
        if (ix < 0x3fefffff) return hy < 0 ? s * huge * huge : s * tiny * tiny;
        if (ix > 0x3ff00000) return hy > 0 ? s * huge * huge : s * tiny * tiny;
        double t = ax - 1.0;
        double w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        double u = ivln2_h * t;
        double v = t * ivln2_l - w * ivln2;
        t1 = sit_with_low_word(u + v, 0);
        t2 = v - (t1 - u);
    } else {
        int n = 0;
        if (ix < 0x00100000) {                               /* subnormal x */
            ax *= two53;
            n -= 53;
            ix = (int)sit_high_word(ax);
        }
        n += (ix >> 20) - 0x3ff;
        j = ix & 0x000fffff;
        int kk;
        ix = j | 0x3ff00000;
        if (j <= 0x3988E) {
            kk = 0;
        } else if (j < 0xBB67A) {
            kk = 1;
        } else {
            kk = 0;
            n += 1;
            ix -= 0x00100000;
        }
        ax = sit_with_high_word(ax, (unsigned int)ix);

        double u = ax - bp[kk];
        double v = 1.0 / (ax + bp[kk]);
        double ss = u * v;
        double s_h = sit_with_low_word(ss, 0);
        double t_h = sit_with_high_word(
            0.0, (((unsigned int)ix >> 1) | 0x20000000u) + 0x00080000u + ((unsigned int)kk << 18));
        double t_l = ax - (t_h - bp[kk]);
        double s_l = v * ((u - s_h * t_h) - s_h * t_l);

        double s2 = ss * ss;
        double r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        t_h = sit_with_low_word(3.0 + s2 + r, 0);
        t_l = r - ((t_h - 3.0) - s2);

        u = s_h * t_h;
        v = s_l * t_h + t_l * ss;

        double p_h = sit_with_low_word(u + v, 0);
        double p_l = v - (p_h - u);
        double z_h = cp_h * p_h;
        double z_l = cp_l * p_h + p_l * cp + dp_l[kk];

        double t = (double)n;
        t1 = sit_with_low_word(((z_h + z_l) + dp_h[kk]) + t, 0);
        t2 = z_l - (((t1 - t) - dp_h[kk]) - z_h);
    }

    /* y = y1 + y2, (y1 + y2)*(t1 + t2) */
    double y1 = sit_with_low_word(y, 0);
    double p_l = (y - y1) * t1 + y * t2;
    double p_h = y1 * t1;
    double z = p_l + p_h;
    j = (int)(sit_bits(z) >> 32);
    int i = (int)(unsigned int)sit_bits(z);

    if (j >= 0x40900000) {                                   /* z >= 1024 */
        if (((j - 0x40900000) | i) != 0) return s * huge * huge;
        if (p_l + ovt > z - p_h) return s * huge * huge;
    } else if ((j & 0x7fffffff) >= 0x4090cc00) {             /* z <= -1075 */
        if ((((unsigned int)j - 0xc090cc00u) | (unsigned int)i) != 0) return s * tiny * tiny;
        if (p_l <= z - p_h) return s * tiny * tiny;
    }

    /* 2**(p_h + p_l) */
    i = j & 0x7fffffff;
    k = (i >> 20) - 0x3ff;
    int n = 0;
    if (i > 0x3fe00000) {                                    /* |z| > 0.5: n = [z + 0.5] */
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7fffffff) >> 20) - 0x3ff;
        double t = sit_with_high_word(0.0, (unsigned int)(n & ~(0x000fffff >> k)));
        n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
        if (j < 0) n = -n;
        p_h -= t;
    }
    double t = sit_with_low_word(p_l + p_h, 0);
    double u = t * lg2_h;
    double v = (p_l - (t - p_h)) * lg2 + t * lg2_l;
    z = u + v;
    double w = v - (z - u);
    t = z * z;
    t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    double r = (z * t1) / (t1 - 2.0) - (w + z * w);
    z = 1.0 - (r - z);
    j = (int)sit_high_word(z);
    j += (int)((unsigned int)n << 20);
    if ((j >> 20) <= 0) {
        z = scalbn(z, n);                                    /* subnormal output */
    } else {
        z = sit_with_high_word(z, (unsigned int)j);
    }
    return s * z;
}
#endif

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
#ifdef SIT_F32
SIT_DEVICE sit_real sit_pow(sit_real x, sit_real y) { return SIT_F(pow)(x, y); }
#else
SIT_DEVICE sit_real sit_pow(sit_real x, sit_real y) { return sit_pow_libm(x, y); }
#endif
SIT_DEVICE sit_real sit_hypot(sit_real x, sit_real y) { return SIT_F(hypot)(x, y); }
/* sit_runtime::math::inv_root (runtime/src/math/root.rs), operation for operation:
 * x^(-1/q) for the step-size control of tsit5, dop853, rodas4 and rodas5p (q = 4, 5, 8;
 * another q is pow's). Under SIT_F32 the C library's powf. */
#ifdef SIT_F32
SIT_DEVICE sit_real sit_inv_root(sit_real x, sit_real q) { return SIT_F(pow)(x, -1.0f / q); }
#else
SIT_DEVICE double sit_inv_root(double x, double q) {
    const double poly4[6] = {0.9999913275141249, -0.2496109283233552, 0.15196824022127461,
                             -0.09729472981922811, 0.046983949971249994, -0.011147660617600781};
    const double poly5[6] = {0.999993621700495, -0.19971402206608452, 0.11685557279580751,
                             -0.07341159539235523, 0.03511315882399643, -0.008290756832393277};
    const double poly8[6] = {0.9999965041036206, -0.12484339723886732, 0.06859287246441959,
                             -0.0418432236497106, 0.01972042957847278, -0.004621664880870638};
    const double two4[4] = {1.0, 0.8408964152537145, 0.7071067811865476, 0.5946035575013605};
    const double two5[5] = {1.0, 0.8705505632961241, 0.757858283255199, 0.6597539553864471,
                            0.5743491774985175};
    const double two8[8] = {1.0, 0.9170040432046712, 0.8408964152537145, 0.7711054127039704,
                            0.7071067811865476, 0.6484197773255048, 0.5946035575013605,
                            0.5452538663326288};
    const double *poly;
    const double *two;
    long long k;
    if (q == 4.0) { poly = poly4; two = two4; k = 4; }
    else if (q == 5.0) { poly = poly5; two = two5; k = 5; }
    else if (q == 8.0) { poly = poly8; two = two8; k = 8; }
    else return sit_pow_libm(x, -1.0 / q);
    if (!(x > 0.0)) return x == 0.0 ? sit_from_bits(0x7ff0000000000000ULL) : SIT_NAN;
    if (x == sit_from_bits(0x7ff0000000000000ULL)) return 0.0;
    long long shift = 0;
    if (x < 2.2250738585072014e-308) { x = x * 18446744073709551616.0; shift = 64; }
    unsigned long long bits = sit_bits(x);
    long long e = (long long)(bits >> 52) - 1023 - shift;
    double m = sit_from_bits((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    long long a = e / k, b = e % k;
    if (b < 0) { b += k; a -= 1; }
    double t = m - 1.0;
    double t2 = t * t;
    double r = (poly[0] + poly[1] * t) + t2 * ((poly[2] + poly[3] * t) + t2 * (poly[4] + poly[5] * t));
    double recip = 1.0 / q, next = q + 1.0;
    for (int i = 0; i < 2; i++) {
        double r2 = r * r;
        double r4 = r2 * r2;
        double rk = k == 4 ? r4 : (k == 5 ? r4 * r : r4 * r4);
        r = (r * recip) * (next - m * rk);
    }
    return r * two[b] * sit_from_bits((unsigned long long)(1023 - a) << 52);
}
#endif

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
    sit_real first, last, span;
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
    span = g[*i + 1] - g[*i];
    if (!sit_is_nan(span - span)) {
        *t = (x - g[*i]) / span;
    } else {
        /* A span past the largest number (a grid from -1e308 to 1e308): halved. */
        *t = (x * SIT_R(0.5) - g[*i] * SIT_R(0.5)) / (g[*i + 1] * SIT_R(0.5) - g[*i] * SIT_R(0.5));
    }
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
