#!/usr/bin/env python3
"""`sitc run` end to end against the generated step over the same run: interpreted / generated.

The guard of issue 48 against a cost added to every step of the interpreter's runs (the
non-finite watch cost 2-2.8x for a week unnoticed). For each model it runs, alternating,
`sitc run MODEL --dt DT --t-end T --every STEPS` (start, parse, check, interpret with the
watch on, one CSV row at the end) for each `--sitc` binary given, and the generated step
over the same steps (`peer_timing`, in-process, median of 3), `--runs` times; it prints
the median wall time of each and the ratio interpreted / generated. Several `--sitc`
binaries (say one built from main and one from a branch) compare in one run on one
machine, which is the only comparison that holds on a shared machine. Usage (from the
workspace root, after `cargo build --release -p sitc` and
`cargo build --release -p sit-bench --features peers --example peer_timing`):

    python3 bench/end_to_end.py [--runs 5] [--sitc target/release/sitc ...]

Standard library only.
"""

import argparse
import json
import statistics
import subprocess
import time

# (file, peer_timing's name, dt, t_end): 2e7 steps each, as in docs/performance.md §6.
MODELS = [
    ("examples/models/hoop.sit", "hoop", 1e-4, 2000.0),
    ("examples/models/van_der_pol.sit", "van_der_pol", 1e-3, 20000.0),
]


def sitc_seconds(sitc, path, dt, t_end):
    steps = round(t_end / dt)
    cmd = [sitc, "run", path, "--dt", repr(dt), "--t-end", repr(t_end), "--every", str(steps)]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def generated_seconds(peer, name, dt, t_end):
    out = subprocess.run([peer, name, repr(dt), repr(t_end), "3"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sitc", action="append", help="a sitc binary (repeatable)")
    parser.add_argument("--peer", default="target/release/examples/peer_timing")
    args = parser.parse_args()
    binaries = args.sitc or ["target/release/sitc"]
    print("| model | generated s | " + " | ".join(f"`{b}` s | ratio" for b in binaries) + " |")
    print("|---" * (2 + 2 * len(binaries)) + "|")
    for path, name, dt, t_end in MODELS:
        gen, runs = [], {b: [] for b in binaries}
        for _ in range(args.runs):
            gen.append(generated_seconds(args.peer, name, dt, t_end))
            for b in binaries:
                runs[b].append(sitc_seconds(b, path, dt, t_end))
        g = statistics.median(gen)
        cells = []
        for b in binaries:
            s = statistics.median(runs[b])
            cells.append(f"{s:.3f} | **{s / g:.2f}**")
        print(f"| {name} | {g:.3f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
