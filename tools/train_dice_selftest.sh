#!/usr/bin/env bash
# CTests train_dice_presence, train_dice_presencehard, train_dice_second, train_dice_secondmore,
# train_dice_centre, train_dice_clear,
# train_dice_clearface, train_dice_clearmore, train_dice_clearfacemore, train_dice_clearsecond, train_dice_top,
# train_dice_fineface, train_dice_finecentre, train_dice_size, train_dice_lean,
# train_dice_leanhard, train_dice_leanmore, train_dice_centremore and train_dice_finefacemore: the
# presence
# network's training step of tools/train_dice.sh (and its last, again from the base's network
# with the base reader's mistakes: --presence-hard), the second digit network's, the centre
# network's, the clear network's (and the second clear network's), the clear face network's, the top network's, the fine networks',
# the size network's or the lean network's (its last four, and its last again with the base reader's
# questions to its lean network: --lean-hard, and that again from the base's own lean network:
# --lean-continue), and the centre and fine face networks' from the base's own (--centre-continue,
# --fine-continue), on committed dice
# scenes (one epoch): bad arguments are refused with exit code 2;
# the model given as --base is kept to the byte with the network after it (the lean network and
# the second clear network at the side asked, and a side their layers do not fit refused); two threads train the
# same bytes as one; a path that is no directory and a broken ground truth are refused with exit
# code 2 naming them. The clear steps also refuse scenes without a transparent die (OPAQUE_DIR).
#   tools/train_dice_selftest.sh TRAIN_DICE MODEL.tar.xz SCENES_DIR
#     [presence|presencehard|second|secondmore|centre|centremore|clear|clearface|clearmore|clearfacemore|clearsecond|top|fineface|finefacemore|finecentre|size|lean|leanhard|leanmore]
#     [OPAQUE_DIR]
# clearmore and clearfacemore go on from the base's own clear networks (--clear-continue),
# secondmore from its second digit network (--digit-continue), leanmore from its lean network
# (--lean-continue), centremore from its centre network (--centre-continue), finefacemore from its
# fine face network (--fine-continue),
# presencehard from its presence network (and says how many mistakes it found).
set -euo pipefail
train=$1 tarball=$2 scenes=$3 step=${4:-presence} opaque=${5:-}
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
  presencehard) flags=(--presence-cnn --presence-hard 2) key=presence_cnn:
    bad=(--presence-hard 4 --base "$base") named=--presence-hard ;;
  second) flags=(--cnn-second --cnn-copies 1) key=digit_cnn_2: bad=(--cnn-second) named=--base ;;
  secondmore) flags=(--cnn-second --cnn-copies 1 --digit-continue) key=digit_cnn_2:
    bad=(--cnn-clear --clear-side 40 --digit-continue --base "$base") named=--digit-continue ;;
  centre) flags=(--centre-cnn --face-copies 1) key=centre_cnn:
    bad=(--centre-cnn --face-cnn --base "$base") named=--face-cnn ;;
  centremore) flags=(--centre-cnn --face-copies 1 --centre-continue) key=centre_cnn:
    bad=(--fine-centre --face-copies 1 --centre-continue --base "$base") named=--centre-continue ;;
  clear) flags=(--cnn-clear --clear-side 40 --clear-colour --cnn-copies 1) key=clear_cnn:
    bad=(--cnn-clear --clear-side 30 --base "$base") named=--clear-side ;;
  clearface) flags=(--face-clear --face-copies 1) key=clear_face_cnn:
    bad=(--face-clear --centre-cnn --base "$base") named=--centre-cnn ;;
  clearmore) flags=(--cnn-clear --clear-side 40 --clear-colour --cnn-shape 16,32,96 --cnn-copies 1 --cnn-decay 0.001
    --cnn-smoothing 0.1 --clear-continue)
    key=clear_cnn:
    bad=(--cnn-clear --clear-side 44 --clear-colour --clear-continue --base "$base") named=--clear-continue ;;
  clearfacemore) flags=(--face-clear --face-copies 1 --clear-continue) key=clear_face_cnn:
    bad=(--cnn-second --cnn-copies 1 --clear-continue --base "$base") named=--clear-continue ;;
  clearsecond) flags=(--cnn-clear --clear-second --clear-side 56 --clear-colour --cnn-copies 1)
    key=clear_cnn_2: side=56 side_flag=--clear-side
    bad=(--cnn-clear --clear-second --clear-continue --clear-side 56 --clear-colour --base "$base")
    named=--clear-second ;;
  top) flags=(--top-cnn --face-copies 1 --cnn-rate 0.005) key=top_cnn:
    bad=(--top-cnn --centre-cnn --base "$base") named=--centre-cnn ;;
  fineface) flags=(--fine-face --face-copies 1) key=fine_face_cnn:
    bad=(--fine-face --fine-centre --base "$base") named=--fine-centre ;;
  finecentre) flags=(--fine-centre --face-copies 1) key=fine_centre_cnn:
    bad=(--fine-centre) named=--base ;;
  finefacemore) flags=(--fine-face --face-copies 1 --fine-continue) key=fine_face_cnn:
    bad=(--fine-face --face-copies 1 --cnn-shape 8,16,64 --fine-continue --base "$base")
    named=--fine-continue ;;
  size) flags=(--size-cnn --size-copies 2) key=size_cnn:
    bad=(--size-cnn --size-copies 0 --base "$base") named=--size-copies ;;
  lean) flags=(--lean-cnn --lean-copies 2 --lean-side 56) key=lean_cnn: side=56 side_flag=--lean-side
    bad=(--lean-cnn --lean-copies 0 --base "$base") named=--lean-copies ;;
  leanhard) plain=(--lean-cnn --lean-copies 2 --lean-side 56) flags=("${plain[@]}" --lean-hard 2)
    key=lean_cnn: side=56 side_flag=--lean-side bad=(--lean-hard 2 --base "$base") named=--lean-hard ;;
  leanmore) plain=(--lean-cnn --lean-copies 2 --lean-side 56 --cnn-shape 8,16,64 --cnn-decay 0.001)
    flags=("${plain[@]}" --lean-hard 2 --lean-continue) key=lean_cnn: side=56 side_flag=--lean-side
    bad=(--lean-cnn --lean-copies 2 --lean-side 40 --lean-continue --base "$base")
    named=--lean-continue ;;
  *) fail "unknown step $step" ;;
esac

# refused WHAT PATTERN ARGS...: train_dice with ARGS exits 2, its error matches PATTERN, and no
# model is written.
refused() {
  local what=$1 pattern=$2 code
  shift 2
  rm -f "$work/bad.yml"
  set +e
  "$train" "$@" --out "$work/bad.yml" 2>"$work/err"
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "$what gave exit code $code, not 2"
  grep -q -- "$pattern" "$work/err" || fail "the error for $what does not name $pattern"
  [ ! -e "$work/bad.yml" ] || fail "a model was written for $what"
}

refused "${bad[*]}" "$named" "${bad[@]}" "$scenes"
if [ -n "${side:-}" ]; then
  # A side the network's layers do not fit (each convolution's output even): named.
  refused "$side_flag 50" "$side_flag" --base "$base" "${flags[@]}" "$side_flag" 50 "$scenes"
fi
if [[ " ${flags[*]} " == *" --cnn-smoothing "* ]]; then
  refused "--cnn-smoothing 1" --cnn-smoothing --base "$base" "${flags[@]}" --cnn-smoothing 1 "$scenes"
  refused "--cnn-decay -1" --cnn-decay --base "$base" "${flags[@]}" --cnn-decay -1 "$scenes"
fi
# Scenes that are not there, or whose ground truth is broken: named.
refused "a path that is no directory" "base-is-no-dir.yml: not a directory" \
  --base "$base" "${flags[@]}" "$work/base-is-no-dir.yml"
mkdir "$work/broken"
images=("$scenes"/*.jpg)
cp "${images[0]}" "$work/broken/0000.jpg"
printf '{"image": "0000.jpg", "dice": [{"x": "left"}]}' >"$work/broken/0000.json"
refused "a broken ground truth" "broken/0000.json" --base "$base" "${flags[@]}" "$work/broken"
if [ -n "$opaque" ]; then
  refused "scenes without a transparent die" "no transparent die" \
    --base "$base" "${flags[@]}" --cnn-epochs 1 "$opaque"
fi

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
if [ -n "${side:-}" ]; then
  # The network takes crops of the side asked (the reader reads it from the model).
  [ "$(tail -c +"$((size + 1))" "$work/one.yml" | sed -n 2p | tr -d ' ')" = "side:$side" ] ||
    fail "the network was not trained at the side asked ($side)"
fi
if [[ " ${flags[*]} " == *" --presence-hard "* ]]; then
  grep -q "the base reader's mistakes: [0-9]* dice where none lies, [0-9]* missed" "$work/log1" ||
    fail "--presence-hard did not say what the base reader's mistakes were"
fi
if [[ " ${flags[*]} " == *" --lean-hard "* ]]; then
  # Each question the base reader put to its lean network adds two crops (--lean-hard 2) to those
  # drawn without them (the same flags but --lean-hard: `plain`).
  asked=$(sed -n "s/^lean: the base reader's questions: \([0-9]*\)$/\1/p" "$work/log1")
  [ -n "$asked" ] && [ "$asked" -gt 0 ] || fail "--lean-hard did not say how many questions it took"
  "$train" --base "$base" "${plain[@]}" --cnn-epochs 1 --out "$work/plain.yml" "$scenes" 2>"$work/log4"
  crops() { sed -n 's/^lean cnn: \([0-9]*\) crops.*/\1/p' "$1"; }
  [ "$(crops "$work/log1")" -eq "$(($(crops "$work/log4") + 2 * asked))" ] ||
    fail "the crops with --lean-hard 2 are not those without and two per question"
fi
if [[ " ${flags[*]} " == *" --clear-continue "* || " ${flags[*]} " == *" --digit-continue "* ||
  " ${flags[*]} " == *" --presence-hard "* || " ${flags[*]} " == *" --lean-continue "* ||
  " ${flags[*]} " == *" --centre-continue "* || " ${flags[*]} " == *" --fine-continue "* ]]; then
  # Gone on from the base's own network: at a rate too small to move a weight, the network
  # written is the base's, to the byte (from random weights it could not be).
  "$train" --base "$base" "${flags[@]}" --cnn-epochs 1 --cnn-rate 1e-30 --out "$work/still.yml" "$scenes" 2>"$work/log3"
  section() { awk -v key="$1" '$0 ~ "^" key {on = 1; print; next} on && /^[a-z_0-9]+:/ {exit} on' "$2"; }
  [ -n "$(section "$key" "$base")" ] || fail "the base has no $key"
  [ "$(section "$key" "$base")" = "$(section "$key" "$work/still.yml")" ] ||
    fail "${flags[*]} did not start from the base's $key"
  [ "$(section "$key" "$base")" != "$(section "$key" "$work/one.yml")" ] || fail "one epoch moved no weight"
fi
echo "$name: refused bad arguments; kept the base model; the same bytes on 1 and 2 threads"
