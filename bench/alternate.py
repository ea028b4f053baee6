#!/usr/bin/env python3
"""Runs two or more builds of `benches/step.rs` in alternation and compares the interpreter.

On a shared machine a build measured after another sees a different load, so two builds
are compared round by round: each round runs every binary once (divan's median per
benchmark), and the table gives, per model and binary, the median over the rounds with
its smallest and largest value of the interpreted chain time (µs per 1 024 steps), the
generated chain time, and the ratios interpreted / generated in both shapes. Usage (from
the workspace root, with binaries copied from `target/release/deps/step-*` after each
build):

    python3 bench/alternate.py --rounds 5 BEFORE AFTER [-- DIVAN ARGS]

Standard library only.
"""

import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratios import parse  # noqa: E402


def cell(xs):
    """`median [min..max]` of `xs`."""
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}..{max(xs):.2f}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("bins", nargs="+", help="the bench executables")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    bins = args.bins
    divan = argv[cut + 1:] or ["--sample-count", "500", "--sample-size", "2"]
    runs = {b: [] for b in bins}
    for i in range(args.rounds):
        for b in bins:
            out = subprocess.run([b, "--bench", *divan], check=True, capture_output=True, text=True)
            runs[b].append(parse(out.stdout))
            print(f"round {i + 1}/{args.rounds}: {b}", file=sys.stderr)
    models = list(dict.fromkeys(m for (m, _) in runs[bins[0]][0]))  # divan's order
    print(f"medians over {args.rounds} rounds (min..max in brackets)")
    print("| model | binary | interpreted, µs (chain) | generated, µs (chain) "
          "| interpreted / generated (chain) | interpreted / generated (batch) |")
    print("|---|---|---|---|---|---|")
    for m in models:
        for b in bins:
            rs = runs[b]
            ic = [r[(m, "chain_interpreted")] * 1e6 for r in rs]
            gc = [r[(m, "chain_generated")] * 1e6 for r in rs]
            ch = [r[(m, "chain_interpreted")] / r[(m, "chain_generated")] for r in rs]
            bt = [r[(m, "batch_interpreted")] / r[(m, "batch_generated")] for r in rs]
            name = os.path.basename(b)
            print(f"| {m} | {name} | {cell(ic)} | {cell(gc)} | {cell(ch)} | {cell(bt)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
