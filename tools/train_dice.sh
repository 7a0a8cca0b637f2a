#!/usr/bin/env bash
# Reproduces vision/models/dice_digits.tar.xz byte for byte: renders the training scenes
# (scenegen --dice, seed 2000, scenes 0-89, and seed 2100, scenes 0-29, every one with cocked
# dice: distinct from the evaluation seed 3000, the development seed 2500 and the committed test
# scenes, seeds 5000 and 6000) and trains the dice model on them (tools/train_dice).
#   tools/train_dice.sh [BUILD_DIR]        (about 8 minutes of rendering on 2 cores, 3 of training)
# Then re-run cmake so that the build embeds the new model.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/tools/scenegen" --dice --out "$out/a" --seed 2000 --first 0 --count 45 --jpeg &
"$build/tools/scenegen" --dice --out "$out/b" --seed 2000 --first 45 --count 45 --jpeg &
wait
"$build/tools/scenegen" --dice --out "$out/c" --seed 2100 --count 15 --cocked-share 1.0 --jpeg &
"$build/tools/scenegen" --dice --out "$out/c" --seed 2100 --first 15 --count 15 --cocked-share 1.0 --jpeg &
wait
mkdir "$out/model"
"$build/tools/train_dice" --trees 40 --depth 12 --out "$out/model/dice_digits.yml" "$out/a" "$out/b" "$out/c"
# Packed without dates or owners, so the same training gives the same bytes.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$out/model" -cf - dice_digits.yml |
  xz -6 -c > vision/models/dice_digits.tar.xz
