#!/usr/bin/env bash
# CTest train_dice_presence: the presence network's training step of tools/train_dice.sh, on the
# committed dice scenes (one epoch): bad arguments are refused with exit code 2; the model given
# as --base is kept to the byte with the presence network after it; two threads train the same
# bytes as one.
#   tools/train_dice_selftest.sh TRAIN_DICE MODEL.tar.xz SCENES_DIR
set -euo pipefail
train=$1 tarball=$2 scenes=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$tarball" -C "$work"
base="$work/dice_digits.yml"
fail() { echo "train_dice_presence: $*" >&2; exit 1; }

set +e
"$train" --base "$base" --presence-cnn --presence-copies 0 --out "$work/bad.yml" "$scenes" 2>"$work/err"
code=$?
set -e
[ "$code" -eq 2 ] || fail "--presence-copies 0 gave exit code $code, not 2"
grep -q -- "--presence-copies" "$work/err" || fail "the error does not name --presence-copies"
[ ! -e "$work/bad.yml" ] || fail "a model was written after bad arguments"

"$train" --base "$base" --presence-cnn --cnn-epochs 1 --threads 1 --out "$work/one.yml" "$scenes" 2>"$work/log1"
"$train" --base "$base" --presence-cnn --cnn-epochs 1 --threads 2 --out "$work/two.yml" "$scenes" 2>"$work/log2"
# Everything before the base's own presence network (the committed model has one: it is trained
# again) is kept to the byte, and a presence network follows.
size=$(grep -b -m1 "^presence_cnn:" "$base" | cut -d: -f1 || true)
[ -n "$size" ] || size=$(stat -c %s "$base")
cmp -s -n "$size" "$base" "$work/one.yml" || fail "the base model is not kept to the byte"
[ "$(tail -c +"$((size + 1))" "$work/one.yml" | head -c 13)" = "presence_cnn:" ] ||
  fail "the presence network does not follow the base model"
cmp -s "$work/one.yml" "$work/two.yml" || fail "one and two threads trained different bytes"
echo "train_dice_presence: refused bad arguments; kept the base model; the same bytes on 1 and 2 threads"
