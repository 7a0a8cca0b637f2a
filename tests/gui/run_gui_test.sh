#!/usr/bin/env bash
# run_gui_test.sh XVFB_RUN ARBITRE_GUI LANG OUT_DIR [ARGS...]: the GUI self-test on a virtual X
# display (ARGS go to arbitre-gui, e.g. --camera-test tests/gui/mjpeg_server.py).
set -euo pipefail
xvfb_run=$1 gui=$2 lang=$3 out=$4
shift 4
mkdir -p "$out"
# Only this test's pictures: the companion windows' test writes into the same folder.
rm -f "$out"/window-*.png "$out"/live-*.png "$out"/panel-*.png "$out"/timing-*.txt
# GDK_BACKEND=x11: Xvfb is an X server; the screenshots are read back from it.
export GDK_BACKEND=x11
# A private config so that a saved language preference does not leak in.
export XDG_CONFIG_HOME="$out.config"
rm -rf "$XDG_CONFIG_HOME"
# -a alone makes two tests started together race for the same display number: start the
# search at a random one.
exec "$xvfb_run" -a -n $((100 + RANDOM % 800)) -s "-screen 0 1600x1000x24" "$gui" --lang "$lang" --self-test "$out" "$@"
