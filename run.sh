#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build, and run the main job on the embedded
# default: the live referee loop (`arbitre watch --demo`) playing the bundled Irma and Yams
# games — recordings of rendered frames where they exist — through recognition, referee,
# scoring and a temporary game store, one JSON line per event.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh
arbitre_install_packages
arbitre_build
exec ./build/release/app/arbitre watch --demo "$@"
