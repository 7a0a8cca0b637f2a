#!/usr/bin/env bash
# Regenerates the bundled demo recording that `arbitre watch --demo` plays through the camera
# path: the game record data/demo/irma-demo.json rendered by scenegen as a webcam would film it
# (tools/scenegen/irma_sequence.h), into data/demo/recordings/irma/ (frames NNNN.jpg and
# truth.json). Renders are deterministic: the same seed gives the same bytes.
#   tools/make_demo_recordings.sh [BUILD_DIR]     (a few minutes on one core)
# Then check it: `arbitre watch --demo --game irma` ends with a demo-verdict "ok": true.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
seed=${ARBITRE_DEMO_SEED:-3}
out=data/demo/recordings/irma
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/scenegen" --irma-record data/demo/irma-demo.json --out "$tmp/irma" --seed "$seed" \
  --width 640 --height 480 --tiles --size-share 0.8 --noise 1.5 --fps 2 --quality 80 --threads 1
rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp/irma" "$out"
du -sh "$out"
