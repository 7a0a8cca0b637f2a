#!/usr/bin/env bash
# Reproduces vision/models/pion_cells.yml: renders the training scenes (seeds distinct from the
# test and benchmark sets) and trains the pion cell classifier on them.
#   tools/train_pions.sh [BUILD_DIR]        (about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=$(mktemp -d)
"$build/tools/scenegen" --out "$out/a" --seed 1000 --first 0 --count 120 --jpeg &
"$build/tools/scenegen" --out "$out/b" --seed 1000 --first 120 --count 120 --jpeg &
wait
# First a model trained on the cells the fixed colour rule examines, then the final one on the
# cells that first model leads the reader to examine (the cells it will meet in use).
"$build/tools/train_pions" --out "$out/first.yml" "$out/a" "$out/b"
"$build/tools/train_pions" --out vision/models/pion_cells.yml --examine-with "$out/first.yml" "$out/a" "$out/b"
rm -rf "$out"
