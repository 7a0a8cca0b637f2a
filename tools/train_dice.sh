#!/usr/bin/env bash
# Reproduces vision/models/dice_digits.tar.xz: renders the training scenes (scenegen --dice:
# seed 2000, scenes 0-89; seed 2100, scenes 0-29, every one with cocked dice; seed 2200, scenes
# 0-159; seeds 4000 and 4100, scenes 0-149; distinct from the development scenes (seed 2000
# scenes 90-104, seed 2500, seed 2600), the evaluation seeds 3000, 3100 and 3200 and the
# committed test scenes, seeds 5000 and 6000) and trains the dice model on them
# (tools/train_dice): the forests and the digit network on the first 280 scenes, then the digit
# and axis convolutional networks on all 580 with the rest of that model kept (--base), then the
# face network on all 580 too (seed 2200's 160 scenes until 2026-12-01), again with the rest
# kept, then the presence network on seeds 2200 and 4000 (310 scenes), again with the rest kept.
#   tools/train_dice.sh [BUILD_DIR]
# One POV-Ray process at a time (580 scenes, 4-8 s each: 40-80 minutes of rendering),
# then about 10 minutes of training on one core and 10 more for the convolutional networks on
# two. Then re-run cmake so that the build embeds the new model.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/tools/scenegen" --dice --out "$out/a" --seed 2000 --first 0 --count 90 --jpeg
"$build/tools/scenegen" --dice --out "$out/c" --seed 2100 --first 0 --count 30 --cocked-share 1.0 --jpeg
"$build/tools/scenegen" --dice --out "$out/d" --seed 2200 --first 0 --count 160 --jpeg
"$build/tools/scenegen" --dice --out "$out/e" --seed 4000 --first 0 --count 150 --jpeg
"$build/tools/scenegen" --dice --out "$out/f" --seed 4100 --first 0 --count 150 --jpeg
mkdir "$out/model"
"$build/tools/train_dice" --trees 40 --depth 12 --net 64 --out "$out/forests.yml" "$out/a" "$out/c" "$out/d"
"$build/tools/train_dice" --base "$out/forests.yml" --cnn --cnn-epochs 15 --cnn-copies 6 --axis-cnn --threads 2 \
  --out "$out/networks.yml" "$out/a" "$out/c" "$out/d" "$out/e" "$out/f"
"$build/tools/train_dice" --base "$out/networks.yml" --face-cnn --face-copies 16 --cnn-epochs 15 --threads 2 \
  --out "$out/face.yml" "$out/a" "$out/c" "$out/d" "$out/e" "$out/f"
"$build/tools/train_dice" --base "$out/face.yml" --presence-cnn --cnn-epochs 8 --threads 2 \
  --out "$out/model/dice_digits.yml" "$out/d" "$out/e"
# Packed without dates or owners, so the same training gives the same bytes.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$out/model" -cf - dice_digits.yml |
  xz -6 -c > vision/models/dice_digits.tar.xz
