#!/usr/bin/env bash
# Builds Sit in the browser into target/web/ (see docs/web.md): the crate sit-web for
# wasm32-unknown-unknown (release) beside its hand-written JavaScript side
# (web/site/sit_web.js: no glue generator to install), the page's bundle by esbuild from
# web/'s npm lockfile. Installs what is missing: the rustup target and the npm packages
# (`npm ci`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${SIT_WEB_OUT:-target/web}
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
if ! [ -x web/node_modules/.bin/esbuild ] || ! [ -d web/node_modules/playwright-core ] \
    || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund)
fi

# CARGO_TARGET_DIR may name another target directory (the browser test builds in its
# own while `cargo test` holds the workspace's).
cargo build -p sit-web --lib --release --locked --target wasm32-unknown-unknown
built=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/sit_web.wasm
rm -rf "$out"
mkdir -p "$out/pkg"
cp "$built" "$out/pkg/sit_web.wasm"
cp web/site/sit_web.js "$out/pkg/sit_web.js"
web/node_modules/.bin/esbuild web/site/app.js --bundle --format=esm --minify \
    --external:./pkg/sit_web.js --outfile="$out/app.js" --log-level=warning
cp web/site/index.html web/site/style.css web/site/worker.js "$out/"
gzip -9 -k -f "$out/pkg/sit_web.wasm"
wasm=$(stat -c %s "$out/pkg/sit_web.wasm")
gz=$(stat -c %s "$out/pkg/sit_web.wasm.gz")
rm "$out/pkg/sit_web.wasm.gz"
echo "built $root/$out: wasm $wasm bytes ($gz gzip -9), app.js $(stat -c %s "$out/app.js") bytes"
