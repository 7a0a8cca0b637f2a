#!/usr/bin/env bash
# Shared by run.sh and test.sh: install the Debian 12 packages that are missing (apt, with sudo
# when not root), then configure and build the release preset. Idempotent.
set -euo pipefail

ARBITRE_PACKAGES=(
  build-essential cmake pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libsqlite3-dev
  libopencv-dev libopencv-contrib-dev
  povray
  libwxgtk3.2-dev wx3.2-i18n libx11-dev gettext xvfb xauth
)

arbitre_install_packages() {
  local missing=()
  for pkg in "${ARBITRE_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "Installing missing packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

arbitre_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$jobs"
}
