#!/usr/bin/env bash
# The picture tools work on a real run: observables plot, matplotlib frame,
# and a headless ParaView screenshot of the XDMF sidecar; none is blank, and
# the blank-image check itself rejects a blank picture.
#   render_pictures.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
python=/usr/bin/python3
rm -rf "$work"; mkdir -p "$work"
"$exe" run "$src/examples/presynaptic.toml" -o "$work/run" --end-time 40 -q \
  --set output.frame_interval=10.0
"$python" "$src/tools/plot_observables.py" "$work/run" -o "$work/observables.png"
"$python" "$src/tools/render_frame.py" "$work/run" --frame 2 -o "$work/frame.png"
xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
  pvbatch "$src/tools/render_paraview.py" "$work/run/trajectory.xdmf" "$work/paraview.png" --time 20 \
  >"$work/pvbatch.log" 2>&1 || { cat "$work/pvbatch.log" >&2; fail "pvbatch failed"; }
for png in observables frame paraview; do
  "$python" "$src/tools/check_image.py" "$work/$png.png" --min-fraction 0.02 || fail "$png.png is blank"
done
# A picture of nothing must be rejected, or the checks above prove nothing.
"$python" -c "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt; \
f = plt.figure(); f.savefig('$work/blank.png')"
expect_exit 1 "$python" "$src/tools/check_image.py" "$work/blank.png"
# Bad input: one line on stderr, exit code 2.
expect_exit 2 "$python" "$src/tools/render_frame.py" "$work/run" --frame 99
expect_one_line "$stderr_text" "frame"
expect_exit 2 "$python" "$src/tools/plot_observables.py" "$work/missing"
echo "render pictures: ok"
