#!/usr/bin/env python3
"""Runs `benches/step.rs` several times and prints the ratios of docs/performance.md.

Each run of the divan bench gives a median time per benchmark; for each run this
script forms the ratios hand / generated, interpreted / generated (chain and batch),
watched / generated (the interpreter with the hosts' non-finite watch after each
step, chain) and batch / chain (generated), then prints the median of each ratio over the runs,
with its smallest and largest value, and the median time per step of the generated
code. Usage (from the workspace root):

    python3 bench/ratios.py [--runs 5] [--bin PATH] [-- DIVAN ARGS]

Without --bin it runs `cargo bench -p sit-bench --bench step --` (building first).
Standard library only.
"""

import argparse
import re
import statistics
import subprocess
import sys

UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
STEPS = 1024  # steps per iteration, as in benches/step.rs
LINE = re.compile(r"^[│ ]*[├╰]─ (\S+)\s+(.*)$")
VALUE = re.compile(r"^\s*([0-9.]+)\s*(ps|ns|µs|us|ms|s)\s*$")


def parse(text):
    """{(model, bench): median seconds} from divan's table."""
    medians, group = {}, None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        name, rest = m.groups()
        cols = rest.split("│")
        if len(cols) < 3 or not cols[0].strip():
            group = name
            continue
        v = VALUE.match(cols[2])
        if v is None:
            raise ValueError(f"cannot read the median of: {line}")
        medians[(group, name)] = float(v.group(1)) * UNITS[v.group(2)]
    return medians


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bin", help="the built bench executable (skips cargo)")
    parser.add_argument("divan", nargs="*", help="arguments for divan")
    args = parser.parse_args()
    divan = args.divan or ["--sample-count", "200", "--sample-size", "20"]
    if args.bin:
        cmd = [args.bin, "--bench", *divan]
    else:
        cmd = ["cargo", "bench", "-q", "-p", "sit-bench", "--bench", "step", "--", *divan]
    runs = []
    for i in range(args.runs):
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        runs.append(parse(out))
        print(f"run {i + 1}/{args.runs}: {len(runs[-1])} benchmarks", file=sys.stderr)
    models = list(dict.fromkeys(m for (m, _) in runs[0]))  # divan's order
    ratios = [
        ("hand / generated (chain)", "chain_hand", "chain_generated"),
        ("hand / generated (batch)", "batch_hand", "batch_generated"),
        ("interpreted / generated (chain)", "chain_interpreted", "chain_generated"),
        ("interpreted / generated (batch)", "batch_interpreted", "batch_generated"),
        ("watched / generated (chain)", "chain_watched", "chain_generated"),
        ("batch / chain (generated)", "batch_generated", "chain_generated"),
    ]
    print(f"medians over {args.runs} runs (min..max in brackets)")
    print("| model | generated ns/step (chain) | " + " | ".join(r[0] for r in ratios) + " |")
    print("|---" * (len(ratios) + 2) + "|")
    for model in models:
        ns = statistics.median(r[(model, "chain_generated")] for r in runs) / STEPS * 1e9
        cells = []
        for _, num, den in ratios:
            xs = [r[(model, num)] / r[(model, den)] for r in runs]
            cells.append(f"{statistics.median(xs):.3f} [{min(xs):.2f}..{max(xs):.2f}]")
        print(f"| {model} | {ns:.1f} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
