#!/usr/bin/env bash
# CTest scenegen_calibration: a pion scene's calibration picture (scenegen --calibration) shows
# one pion of each colour, red and orange above green and white, on the same table under the same
# light as the scene, with the same pion set and camera; a scene rendered empty (scenegen --empty)
# has the same table, light and camera, no pion in its truth and another picture; and a scene's
# truth is the same on every run.
#   tools/scenegen_calibration_selftest.sh SCENEGEN
set -euo pipefail
scenegen=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "scenegen_calibration: $*" >&2; exit 1; }
for k in 3 4; do
  "$scenegen" --out "$work/scene" --seed 67 --first $k --count 1 --width 320 --height 180 >/dev/null 2>&1
  "$scenegen" --out "$work/calibration" --seed 67 --first $k --count 1 --width 320 --height 180 \
    --calibration >/dev/null 2>&1
  "$scenegen" --out "$work/again" --seed 67 --first $k --count 1 --width 320 --height 180 >/dev/null 2>&1
  "$scenegen" --out "$work/empty" --seed 67 --first $k --count 1 --width 320 --height 180 \
    --empty >/dev/null 2>&1
  name=$(printf '%04d' $k)
  cmp -s "$work/scene/$name.png" "$work/empty/$name.png" && fail "scene $k: rendered empty, the same picture"
  python3 - "$work/scene/$name.json" "$work/empty/$name.json" <<'PY' || fail "scene $k (empty): see above"
import json, sys
scene, empty = (json.load(open(p)) for p in sys.argv[1:3])
if not scene["pions"]:
    sys.exit("the scene has no pion")
if empty["pions"]:
    sys.exit("rendered empty, the truth lists %d pions" % len(empty["pions"]))
if scene["scene"] != empty["scene"]:
    sys.exit("rendered empty, the scene differs: %s against %s" % (empty["scene"], scene["scene"]))
PY
  cmp -s "$work/scene/$name.json" "$work/again/$name.json" || fail "scene $k: the truth differs between runs"
  python3 - "$work/scene/$name.json" "$work/calibration/$name.json" <<'PY' || fail "scene $k: see above"
import json, sys
scene, calibration = (json.load(open(p)) for p in sys.argv[1:3])
pions = calibration["pions"]
want = [("red", 0, 0), ("orange", 0, 1), ("green", 1, 0), ("white", 1, 1)]
got = [(p["colour"], p["row"], p["col"]) for p in pions]
if got != want:
    sys.exit("the calibration picture's pions are %s, not %s" % (got, want))
for key in ("table", "light", "hotspot", "shape", "material", "tilt_deg", "pitch_px"):
    if scene["scene"][key] != calibration["scene"][key]:
        sys.exit("%s differs: %s against %s" % (key, scene["scene"][key], calibration["scene"][key]))
# Side by side as in a 2x2 block: red left of orange, green below red.
r, o, g = pions[0], pions[1], pions[2]
pitch = scene["scene"]["pitch_px"]
for a, b in ((r, o), (r, g)):
    d = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5
    if not 0.5 * pitch < d < 1.6 * pitch:
        sys.exit("neighbours of the block lie %.1f px apart (pitch %.1f)" % (d, pitch))
PY
done
echo "scenegen_calibration: ok"
