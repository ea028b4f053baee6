#!/usr/bin/env python3
"""Writes a model of N rules built from `limit`, `lag` and guarded `sin(time)` rules.

The second model of the pipeline measurement (docs/performance.md, "The spine"):
`python3 scripts/pipeline_models.py 10000 > lag_limit.sit`.
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
states = n
out = [f"/// {n} rules of `limit`, `lag` and guarded `sin(time)`.", f"model LagLimit{n} {{"]
out.append("    param k = 0.5, tau = 2.0;")
for i in range(states):
    out.append(f"    output real x{i} = {i % 7}.0;")
for r in range(n):
    i = r
    j = (r * 7 + 3) % states
    kind = r % 4
    if kind == 0:
        out.append(f"    x{i} = lag(x{j}, tau, 1);")
    elif kind == 1:
        out.append(f"    x{i} = limit(x{j} * k, -10, 10);")
    elif kind == 2:
        out.append(f"    x{i} = sin(time) + x{j} when x{j} > 0;")
        out.append(f"    x{i} = 0 otherwise;")
    else:
        out.append(f"    x{i} = integral(-k * x{j});")
out.append("}")
print("\n".join(out))
