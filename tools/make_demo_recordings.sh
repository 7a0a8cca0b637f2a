#!/usr/bin/env bash
# Regenerates the bundled demo recordings that `arbitre watch --demo` plays through the camera
# path: the game records data/demo/irma-demo.json and data/demo/yams-recording.json (one player:
# tools/make_yams_demo.py --players 1) rendered by
# scenegen as a webcam would film them (tools/scenegen/irma_sequence.h, yams_sequence.h), into
# data/demo/recordings/irma/ and data/demo/recordings/yams/ (frames NNNN.jpg and truth.json).
# Renders are deterministic: the same seed gives the same bytes. One POV-Ray process at a time.
#   tools/make_demo_recordings.sh [BUILD_DIR] [irma|yams]...   (default: both; Irma a few
#   minutes on one core, Yams about 8 minutes: 400 pictures, every hand shot one picture)
# Then check them: `arbitre watch --demo --game irma` (and `--game yams`) ends with a
# demo-verdict "ok": true (for Yams, with what the players had to type: "players_typed"). How the
# dice reader reads the Yams one, settled roll by settled roll:
# BUILD_DIR/tests/bench/dice_recording data/demo/recordings/yams.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(irma yams)
seed=${ARBITRE_DEMO_SEED:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for game in "${games[@]}"; do
  out=data/demo/recordings/$game
  case $game in
    irma)
      "$build/tools/scenegen" --irma-record data/demo/irma-demo.json --out "$tmp/irma" --seed "$seed" \
        --width 640 --height 480 --tiles --size-share 0.8 --noise 1.5 --fps 2 --quality 80 --threads 1
      ;;
    yams)
      "$build/tools/scenegen" --yams-record data/demo/yams-recording.json --out "$tmp/yams" --seed "$seed" \
        --width 640 --height 480 --noise 1.5 --fps 2 --quality 80 --threads 1
      ;;
    *)
      echo "make_demo_recordings.sh: unknown game $game (irma or yams)" >&2
      exit 2
      ;;
  esac
  rm -rf "$out"
  mkdir -p "$(dirname "$out")"
  mv "$tmp/$game" "$out"
  du -sh "$out"
done
