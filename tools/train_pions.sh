#!/usr/bin/env bash
# Reproduces vision/models/pion_cells.tar.xz: renders the training scenes (seed 1000, distinct
# from the test and benchmark sets) and trains the pion cell classifier on them.
#   tools/train_pions.sh [BUILD_DIR [SCENES_DIR]]   (about 3.5 hours on 2 cores)
# With SCENES_DIR, the scenes are rendered there (parts a to h) and kept, and parts
# already rendered there in full are not rendered again: the training alone takes about
# 30 minutes. Then re-run `cmake --preset release` so that the build embeds the new model.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
scenes=${2:-$out}
mkdir -p "$scenes"
# 1,920 scenes in eight parts, two at a time (POV-Ray renders on one thread: deterministic).
# The forest and the cell network learn from the first four (960 scenes), the patch network
# from all eight.
for part in "a 0" "b 240" "c 480" "d 720" "e 960" "f 1200" "g 1440" "h 1680"; do
  set -- $part
  if [ "$(find "$scenes/$1" -name '*.json' 2>/dev/null | wc -l)" -ne 240 ]; then
    "$build/tools/scenegen" --out "$scenes/$1" --seed 1000 --first "$2" --count 240 --jpeg &
  fi
  case $1 in b | d | f | h) wait ;; esac
done
# A render that failed (POV-Ray once failed on one scene of 1,920 and not again) leaves its part
# short: stop rather than train on fewer scenes. Run again: only the short parts are rendered.
for part in a b c d e f g h; do
  if [ "$(find "$scenes/$part" -name '*.json' 2>/dev/null | wc -l)" -ne 240 ]; then
    echo "train_pions.sh: part $part of the scenes in $scenes is incomplete (a render failed); run again (with SCENES_DIR, only the short parts are rendered again)" >&2
    exit 1
  fi
done
# First a small model trained on the cells the fixed colour rule examines, then the final one
# on the cells that first model leads the reader to examine (the cells it will meet in use).
"$build/tools/train_pions" --trees 30 --depth 10 --out "$out/first.yml" "$scenes/a" "$scenes/b" "$scenes/c" "$scenes/d"
mkdir "$out/model"
"$build/tools/train_pions" --trees 80 --depth 16 --augment --out "$out/model/pion_cells.yml" \
  --examine-with "$out/first.yml" \
  "$scenes/a" "$scenes/b" "$scenes/c" "$scenes/d"
# The cell network beside that forest (the forest kept, only the network trained), on the cells
# the forest examines in the first 480 scenes (a and b), each as rendered and mirrored.
"$build/tools/train_pions" --base "$out/model/pion_cells.yml" --augment \
  --net 256 --epochs 15 --rate 0.01 --decay 0.001 --out "$out/with_net.yml" "$scenes/a" "$scenes/b"
mv "$out/with_net.yml" "$out/model/pion_cells.yml"
# The patch network beside them (the forest and the cell network kept, only the patch network
# trained), on the cells that reader examines in all 1,920 scenes, as rendered and mirrored, each
# patch also turned by 90, 180 and 270 degrees.
"$build/tools/train_pions" --base "$out/model/pion_cells.yml" --augment --patch-net --patch-epochs 6 --threads 2 \
  --out "$out/with_patch.yml" "$scenes"/[a-h]
mv "$out/with_patch.yml" "$out/model/pion_cells.yml"
# The colour-context forest beside them (the whole model kept, only that forest trained), on the
# pions that reader reports in 2,700 scenes of other seeds (36-62, 100 each: the fresh sets the
# reader was measured on until 2026-12-02), each labelled with its true colour.
for seed in $(seq 36 62); do
  if [ "$(find "$scenes/context/s$seed" -name '*.json' 2>/dev/null | wc -l)" -ne 100 ]; then
    "$build/tools/scenegen" --out "$scenes/context/s$seed" --seed "$seed" --first 0 --count 100 --jpeg --threads 1 &
  fi
  if [ $((seed % 2)) -eq 1 ]; then wait; fi
done
wait
for seed in $(seq 36 62); do
  if [ "$(find "$scenes/context/s$seed" -name '*.json' 2>/dev/null | wc -l)" -ne 100 ]; then
    echo "train_pions.sh: the scenes of seed $seed in $scenes/context are incomplete (a render failed); run again" >&2
    exit 1
  fi
done
"$build/tools/train_pions" --base "$out/model/pion_cells.yml" --context --out "$out/with_context.yml" \
  $(for seed in $(seq 36 62); do echo "$scenes/context/s$seed"; done)
mv "$out/with_context.yml" "$out/model/pion_cells.yml"
# Packed without dates or owners, so the same training gives the same bytes.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$out/model" -cf - pion_cells.yml |
  xz -9 -c > vision/models/pion_cells.tar.xz
