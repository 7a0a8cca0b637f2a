#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build, and run the main job on the embedded
# default: the live referee loop (`arbitre watch --demo`) playing the bundled Irma and Yams
# games — recordings of rendered frames where they exist — through recognition, referee,
# scoring and a temporary game store, one JSON line per event. On a machine with a display
# (DISPLAY or WAYLAND_DISPLAY set) it opens the desktop app, arbitre-gui, on the same demo table
# instead: Irma, then Yams (`--demo both`). Arguments (options of `arbitre watch`) or
# ARBITRE_NO_GUI=1 keep the command-line demo.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh
arbitre_install_packages
arbitre_build
if [[ $# -eq 0 && -z "${ARBITRE_NO_GUI:-}" && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ) \
      && -x ./build/release/app/gui/arbitre-gui ]]; then
  exec ./build/release/app/gui/arbitre-gui --demo both
fi
exec ./build/release/app/arbitre watch --demo "$@"
