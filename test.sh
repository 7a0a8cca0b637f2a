#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build, and run every test through CTest.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup.sh
arbitre_install_packages
arbitre_build
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build/release --output-on-failure -j "$jobs"
