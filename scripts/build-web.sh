#!/usr/bin/env bash
# Builds Sit in the browser into target/web/ (see docs/web.md): the crate sit-web for
# wasm32-unknown-unknown (release), its JavaScript glue by wasm-bindgen-cli at the exact
# version of the crate's wasm-bindgen, the page's bundle by esbuild from web/'s npm
# lockfile. Installs what is missing: the rustup target, wasm-bindgen-cli (into
# $SIT_WEB_TOOLS or target/web-tools/, from crates.io) and the npm packages (`npm ci`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${SIT_WEB_OUT:-target/web}
# wasm-bindgen-cli goes to $SIT_WEB_TOOLS (default target/web-tools; .ci/run keeps it
# outside the clone, so that a machine that ran CI before does not build it again).
tools=${SIT_WEB_TOOLS:-target/web-tools}

# The version of wasm-bindgen in Cargo.lock, which the crate pins with `=`.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "error: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
bindgen=$tools/bin/wasm-bindgen
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version)" != "wasm-bindgen $version" ]; then
    # --locked first; when the registry lacks a version its lockfile names (webpki-roots
    # 1.0.11 for 0.2.130 in this workplace's mirror), the newest that its Cargo.toml allows.
    cargo install wasm-bindgen-cli --version "$version" --locked --root "$tools" \
        || cargo install wasm-bindgen-cli --version "$version" --root "$tools"
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
"$bindgen" --target web --no-typescript --out-dir "$out/pkg" \
    "$built"
web/node_modules/.bin/esbuild web/site/app.js --bundle --format=esm --minify \
    --external:./pkg/sit_web.js --outfile="$out/app.js" --log-level=warning
cp web/site/index.html web/site/style.css web/site/worker.js "$out/"
gzip -9 -k -f "$out/pkg/sit_web_bg.wasm"
wasm=$(stat -c %s "$out/pkg/sit_web_bg.wasm")
gz=$(stat -c %s "$out/pkg/sit_web_bg.wasm.gz")
rm "$out/pkg/sit_web_bg.wasm.gz"
echo "built $root/$out: wasm $wasm bytes ($gz gzip -9), app.js $(stat -c %s "$out/app.js") bytes"
