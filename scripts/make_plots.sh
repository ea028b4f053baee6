#!/usr/bin/env bash
# Regenerates the SVG plots of docs/examples.md: runs every command of the
# form "    sitc run examples/models/... " found in that page with --plot.
set -euo pipefail
cd "$(dirname "$0")/.."
SITC=${SITC:-target/release/sitc}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p sitc
grep -E '^ +sitc run examples/models/' docs/examples.md | while read -r line; do
    args=${line#sitc run }
    file=$(echo "$args" | cut -d' ' -f1)
    name=$(basename "$file" .sit)
    # shellcheck disable=SC2086
    "$SITC" run $args --plot "docs/img/$name.svg" -o /dev/null
    echo "docs/img/$name.svg"
done
