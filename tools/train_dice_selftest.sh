#!/usr/bin/env bash
# CTests train_dice_presence, train_dice_second and train_dice_centre: the presence network's
# training step of tools/train_dice.sh, the second digit network's or the centre network's (its
# last), on the committed dice scenes (one epoch): bad arguments are refused with exit code 2;
# the model given as --base is kept to the byte with the network after it; two threads train the
# same bytes as one.
#   tools/train_dice_selftest.sh TRAIN_DICE MODEL.tar.xz SCENES_DIR [presence|second|centre]
set -euo pipefail
train=$1 tarball=$2 scenes=$3 step=${4:-presence}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$tarball" -C "$work"
base="$work/dice_digits.yml"
name="train_dice_$step"
fail() { echo "$name: $*" >&2; exit 1; }

# The step's flags, the network's key in the model, and a bad call with the flag it must name.
case $step in
  presence) flags=(--presence-cnn) key=presence_cnn: bad=(--presence-cnn --presence-copies 0 --base "$base")
    named=--presence-copies ;;
  second) flags=(--cnn-second --cnn-copies 1) key=digit_cnn_2: bad=(--cnn-second) named=--base ;;
  centre) flags=(--centre-cnn --face-copies 1) key=centre_cnn:
    bad=(--centre-cnn --face-cnn --base "$base") named=--face-cnn ;;
  *) fail "unknown step $step" ;;
esac

set +e
"$train" "${bad[@]}" --out "$work/bad.yml" "$scenes" 2>"$work/err"
code=$?
set -e
[ "$code" -eq 2 ] || fail "${bad[*]} gave exit code $code, not 2"
grep -q -- "$named" "$work/err" || fail "the error does not name $named"
[ ! -e "$work/bad.yml" ] || fail "a model was written after bad arguments"

"$train" --base "$base" "${flags[@]}" --cnn-epochs 1 --threads 1 --out "$work/one.yml" "$scenes" 2>"$work/log1"
"$train" --base "$base" "${flags[@]}" --cnn-epochs 1 --threads 2 --out "$work/two.yml" "$scenes" 2>"$work/log2"
# Everything before the base's own network of that kind (the committed model has one: it is
# trained again) is kept to the byte, and the network follows.
size=$(grep -b -m1 "^$key" "$base" | cut -d: -f1 || true)
[ -n "$size" ] || size=$(stat -c %s "$base")
cmp -s -n "$size" "$base" "$work/one.yml" || fail "the base model is not kept to the byte"
[ "$(tail -c +"$((size + 1))" "$work/one.yml" | head -c ${#key})" = "$key" ] ||
  fail "the network ($key) does not follow the base model"
cmp -s "$work/one.yml" "$work/two.yml" || fail "one and two threads trained different bytes"
echo "$name: refused bad arguments; kept the base model; the same bytes on 1 and 2 threads"
