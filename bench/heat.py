#!/usr/bin/env python3
"""Writes the heat equation by the method of lines as a `.sit` model (issue 49's
benchmarks; the same text as `sit_synth::heat` and `sit_synth::heat2`).

    python3 bench/heat.py N [--2d] [--method rodas5p] [--rtol 1e-6] [--atol 1e-8] > heat.sit

1-D: N nodes on (0, 1), T = 0 at both ends, T_i' = k·(T_(i-1) − 2·T_i + T_(i+1)),
k = 1/dx², dx = 1/(N + 1), starting in the slowest sine mode, which decays as
exp(−λ·t), λ = 4·k·sin²(π·dx/2). 2-D (--2d): N × N nodes of the 5-point stencil on
the unit square, the mode sin(πx)·sin(πy), decaying at 2·λ.
"""
import argparse
import math


def fmt(x):
    """A float as Rust's `{:?}` writes it (shortest round trip)."""
    r = repr(float(x))
    if "e" in r:
        m, e = r.split("e")
        if "." not in m:
            m += ".0"
        return f"{m}e{int(e)}"
    return r


def sci(x):
    """A float as Rust's `{:e}` writes it."""
    m, e = f"{x:e}".split("e")
    m = m.rstrip("0").rstrip(".")
    return f"{m}e{int(e)}"


def heat(n, method, rtol, atol):
    dx = 1.0 / (n + 1)
    out = [f"/// The heat equation by the method of lines, {n} nodes.",
           "model Heat {",
           f"    method {method} rtol {sci(rtol)} atol {sci(atol)};",
           f"    param k = {fmt(1.0 / (dx * dx))};"]
    for i in range(1, n + 1):
        out.append(f"    output real T{i} = {fmt(math.sin(math.pi * i * dx))};")
    for i in range(1, n + 1):
        left = "0" if i == 1 else f"T{i - 1}"
        right = "0" if i == n else f"T{i + 1}"
        out.append(f"    T{i} = integral(k * ({left} - 2 * T{i} + {right}));")
    out.append("}")
    return "\n".join(out) + "\n"


def heat2(side, method, rtol, atol):
    dx = 1.0 / (side + 1)
    out = [f"/// The 2-D heat equation by the method of lines, {side} × {side} nodes.",
           "model Heat {",
           f"    method {method} rtol {sci(rtol)} atol {sci(atol)};",
           f"    param k = {fmt(1.0 / (dx * dx))};"]
    for x in range(1, side + 1):
        for y in range(1, side + 1):
            v = math.sin(math.pi * x * dx) * math.sin(math.pi * y * dx)
            out.append(f"    output real T{x}_{y} = {fmt(v)};")

    def at(x, y):
        return "0" if x == 0 or y == 0 or x > side or y > side else f"T{x}_{y}"
    for x in range(1, side + 1):
        for y in range(1, side + 1):
            out.append(f"    T{x}_{y} = integral(k * ({at(x - 1, y)} + {at(x + 1, y)} + "
                       f"{at(x, y - 1)} + {at(x, y + 1)} - 4 * T{x}_{y}));")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("n", type=int)
    p.add_argument("--2d", dest="two", action="store_true")
    p.add_argument("--method", default="rodas5p")
    p.add_argument("--rtol", type=float, default=1e-6)
    p.add_argument("--atol", type=float, default=1e-8)
    a = p.parse_args()
    print((heat2 if a.two else heat)(a.n, a.method, a.rtol, a.atol), end="")
