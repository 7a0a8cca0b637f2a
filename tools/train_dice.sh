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
# Those 580 scenes are rendered without the room round the table (--no-room: the scenes were so
# until 2026-12-03). Then the same 580 scenes with the room, seed 4200's 150 scenes (all
# textured: frosted and transparent dice) and seed 4900's 150 (all with cocked dice), all with the
# room, and the second digit network trained on those 880 (--cnn-second, 2026-12-03; the reader
# takes the mean of the two digit networks' answers), then the centre network on the same 880
# (--centre-cnn, 2026-12-03: where each die's centre lies). Last, seed 7000's 300 scenes (all
# textured, with the room) and the clear network and the clear face network on the 1,180
# scenes with the room (--cnn-clear, --face-clear, 2026-12-03: transparent dice alone). Last, seed
# 7200's 240 scenes (all with cocked dice, with the room) and the top network, started from the
# face network and trained on the 420 scenes with cocked dice (seeds 2100, 4900 and 7200;
# --top-cnn, 2026-12-03: every die's most upward face, a cocked die's too). Last, seed 7800's
# 600 scenes (with the room, six in ten with cocked dice) and the fine face network, then the
# fine centre network, on them (--fine-face, --fine-centre, 2026-12-04: the top face and the
# centre placed again to a third of the face network's bins, for the face check), then the size
# network on them too (--size-cnn, 2026-12-04: each die's radius where the window scan gives only
# its level), and last the lean network on seeds 7800 and 7200 (840 scenes; --lean-cnn,
# 2026-12-04: whether a die leans, asked of the dice the face check passes and of those the digit
# networks call cocked), and last the presence network once more on those 840 scenes, from its
# own weights, with the whole reader's mistakes on them besides (--presence-hard, 2026-12-04: the
# dice it reports where none lies, the dice in view it misses), and last seed 9500's 300 scenes
# (all textured, with the room) and the clear network trained anew, wider (--cnn-shape 16,32,96:
# 16 and 32 maps, 96 units), on seeds 7000 and 9500 (600 scenes, about 3,000 transparent dice;
# 2026-12-05), with weight decay ten times the default since the thirty-fourth session
# (--cnn-decay 0.001: its training loss ends no higher, but when it is sure it is more often right),
# and since the thirty-fifth session on seed 9800's 480 scenes too (every die transparent:
# --textured-share 1.0 --all-transparent; 1,080 scenes, about 5,400 transparent dice), six copies
# of each die's crop instead of ten. Last (thirty-ninth session, 2026-12-05), seeds 10300's and
# 10900's 600 scenes each (all with cocked dice) and the lean network trained anew on seeds 7200,
# 10300 and 10900 (1,440 scenes, about 2,117 leaning dice), at 56 pixels instead of 40 (--lean-side
# 56), slimmer (--cnn-shape 8,16,64: 8 and 16 maps, as fast as the 40-pixel one), with weight decay
# 0.001; the lean network of lean.yml stays in the recipe (the presence step's mistakes are the
# whole reader's). Last (fortieth session, 2026-12-05), the second clear network (--clear-second):
# the clear network's training on seeds 7000, 9500 and 9800 at 56 pixels a crop instead of 40
# (173,187 crops, about 30 minutes on two cores), kept beside the first; the reader takes the mean
# of the pair's answers (neither the lean step nor this one reads the other's network). Last
# (forty-second session, 2026-12-05), the lean network trained anew on the same 1,440 scenes as
# before, with four crops besides for each question the whole reader (the model so far) puts to
# its lean network on them (--lean-hard 4: where the reader asks from, off as it may be; about
# 16,000 questions; 12 minutes on two cores).
#   tools/train_dice.sh [BUILD_DIR]
# Two POV-Ray processes at a time (4,580 scenes, 2-8 s each on one core: about 255 minutes of
# rendering on two cores), then about 10 minutes of training on one core and 130 more for the
# convolutional networks on two. Then re-run cmake so that the build embeds the new model.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Every scene of the committed model was rendered before 2026-12-07, with the digits' ink of that
# time (--old-ink: black ink's highlight 0.3, white's 0.2, where scenegen now draws 0.03-0.3).
ink=(--old-ink)
# DIR SEED COUNT [scenegen flags]: renders scenes 0..COUNT-1 of SEED into DIR, two processes.
render() {
  local dir=$1 seed=$2 count=$3 half=$(($3 / 2))
  shift 3
  "$build/tools/scenegen" --dice --out "$dir" --seed "$seed" --first 0 --count "$half" --jpeg \
    "${ink[@]}" "$@" &
  local first=$!
  "$build/tools/scenegen" --dice --out "$dir" --seed "$seed" --first "$half" --count "$((count - half))" \
    --jpeg "${ink[@]}" "$@"
  wait "$first"
}
for room in no-room room; do
  flag=()
  [ "$room" = no-room ] && flag=(--no-room)
  render "$out/$room/a" 2000 90 "${flag[@]}"
  render "$out/$room/c" 2100 30 --cocked-share 1.0 "${flag[@]}"
  render "$out/$room/d" 2200 160 "${flag[@]}"
  render "$out/$room/e" 4000 150 "${flag[@]}"
  render "$out/$room/f" 4100 150 "${flag[@]}"
done
render "$out/room/g" 4200 150 --textured-share 1.0
render "$out/room/h" 4900 150 --cocked-share 1.0
render "$out/room/t" 7000 300 --textured-share 1.0
render "$out/room/k" 7200 240 --cocked-share 1.0
render "$out/room/m" 7800 600 --cocked-share 0.6
render "$out/room/u" 9500 300 --textured-share 1.0
render "$out/room/v" 9800 480 --textured-share 1.0 --all-transparent
render "$out/room/w" 10300 600 --cocked-share 1.0
render "$out/room/x" 10900 600 --cocked-share 1.0
mkdir "$out/model"
n="$out/no-room" r="$out/room"
"$build/tools/train_dice" --trees 40 --depth 12 --net 64 --out "$out/forests.yml" "$n/a" "$n/c" "$n/d"
"$build/tools/train_dice" --base "$out/forests.yml" --cnn --cnn-epochs 15 --cnn-copies 6 --axis-cnn --threads 2 \
  --out "$out/networks.yml" "$n/a" "$n/c" "$n/d" "$n/e" "$n/f"
"$build/tools/train_dice" --base "$out/networks.yml" --face-cnn --face-copies 16 --cnn-epochs 15 --threads 2 \
  --out "$out/face.yml" "$n/a" "$n/c" "$n/d" "$n/e" "$n/f"
"$build/tools/train_dice" --base "$out/face.yml" --presence-cnn --cnn-epochs 8 --threads 2 \
  --out "$out/presence.yml" "$n/d" "$n/e"
"$build/tools/train_dice" --base "$out/presence.yml" --cnn-second --cnn-epochs 15 --cnn-copies 6 --threads 2 \
  --out "$out/second.yml" "$r/a" "$r/c" "$r/d" "$r/e" "$r/f" "$r/g" "$r/h"
"$build/tools/train_dice" --base "$out/second.yml" --centre-cnn --face-copies 16 --cnn-epochs 15 --threads 2 \
  --out "$out/centre.yml" "$r/a" "$r/c" "$r/d" "$r/e" "$r/f" "$r/g" "$r/h"
"$build/tools/train_dice" --base "$out/centre.yml" --cnn-clear --clear-side 40 --clear-colour --cnn-epochs 15 \
  --cnn-copies 10 --threads 2 --out "$out/clear.yml" "$r/a" "$r/c" "$r/d" "$r/e" "$r/f" "$r/g" "$r/h" "$r/t"
"$build/tools/train_dice" --base "$out/clear.yml" --face-clear --face-copies 32 --cnn-epochs 15 --threads 2 \
  --out "$out/clearface.yml" "$r/a" "$r/c" "$r/d" "$r/e" "$r/f" "$r/g" "$r/h" "$r/t"
"$build/tools/train_dice" --base "$out/clearface.yml" --top-cnn --face-copies 16 --cnn-epochs 8 --cnn-rate 0.005 \
  --threads 2 --out "$out/top.yml" "$r/c" "$r/h" "$r/k"
"$build/tools/train_dice" --base "$out/top.yml" --fine-face --face-copies 16 --cnn-epochs 15 --threads 2 \
  --out "$out/fineface.yml" "$r/m"
"$build/tools/train_dice" --base "$out/fineface.yml" --fine-centre --face-copies 16 --cnn-epochs 15 \
  --threads 2 --out "$out/finecentre.yml" "$r/m"
"$build/tools/train_dice" --base "$out/finecentre.yml" --size-cnn --size-copies 16 --cnn-epochs 15 \
  --threads 2 --out "$out/size.yml" "$r/m"
"$build/tools/train_dice" --base "$out/size.yml" --lean-cnn --lean-copies 16 --cnn-epochs 15 --threads 2 \
  --out "$out/lean.yml" "$r/m" "$r/k"
"$build/tools/train_dice" --base "$out/lean.yml" --presence-cnn --presence-hard 16 --cnn-epochs 4 --threads 2 \
  --out "$out/presencehard.yml" "$r/m" "$r/k"
# The clear network of clear.yml above is replaced here; it still reads in the steps between (the
# presence step's mistakes are the whole reader's), so it stays in the recipe.
"$build/tools/train_dice" --base "$out/presencehard.yml" --cnn-clear --clear-side 40 --clear-colour \
  --cnn-shape 16,32,96 --cnn-epochs 15 --cnn-copies 6 --cnn-decay 0.001 --threads 2 \
  --out "$out/clearwide.yml" "$r/t" "$r/u" "$r/v"
"$build/tools/train_dice" --base "$out/clearwide.yml" --lean-cnn --lean-copies 16 --lean-side 56 \
  --cnn-shape 8,16,64 --cnn-epochs 15 --cnn-decay 0.001 --threads 2 \
  --out "$out/lean56.yml" "$r/k" "$r/w" "$r/x"
# The second clear network: the clear network's training above at 56 pixels, kept beside it.
"$build/tools/train_dice" --base "$out/lean56.yml" --cnn-clear --clear-second --clear-side 56 \
  --clear-colour --cnn-shape 16,32,96 --cnn-epochs 15 --cnn-copies 6 --cnn-decay 0.001 --threads 2 \
  --out "$out/pair.yml" "$r/t" "$r/u" "$r/v"
# The lean network trained anew as above, with the whole reader's questions to it besides (the
# model above's reader, on the same scenes: --lean-hard).
"$build/tools/train_dice" --base "$out/pair.yml" --lean-cnn --lean-copies 16 --lean-side 56 --lean-hard 4 \
  --cnn-shape 8,16,64 --cnn-epochs 15 --cnn-decay 0.001 --threads 2 \
  --out "$out/model/dice_digits.yml" "$r/k" "$r/w" "$r/x"
# Packed without dates or owners, so the same training gives the same bytes.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$out/model" -cf - dice_digits.yml |
  xz -6 -c > vision/models/dice_digits.tar.xz
