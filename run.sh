#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build, and run the main job on the embedded
# default (the bundled Irma game record replayed through the referee).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh
arbitre_install_packages
arbitre_build
exec ./build/release/app/arbitre demo "$@"
