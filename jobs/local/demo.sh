#!/usr/bin/env bash
# README command (1): install what is missing, build Release, and run the
# main demo - the presynaptic terminal - on 2 MPI ranks.
#   jobs/local/demo.sh [OUTPUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
source "$here/env.sh"
"$here/build.sh" release
cd "$TETHERSIM_ROOT"
out="${1:-demo-output}"
exe="build/release/src/app/tethersim"
echo "== validating examples/presynaptic.toml"
"$exe" validate examples/presynaptic.toml
echo "== running on 2 MPI ranks into $out"
mpirun -np 2 "$exe" run examples/presynaptic.toml --output "$out" --overwrite
echo "== pictures"
"$TETHERSIM_PYTHON" tools/plot_observables.py "$out" -o "$out/observables.png" >/dev/null
"$TETHERSIM_PYTHON" tools/render_frame.py "$out" -o "$out/last_frame.png" >/dev/null
pictures=("$out/observables.png" "$out/last_frame.png")
if command -v pvbatch >/dev/null && command -v xvfb-run >/dev/null; then
  if xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
       pvbatch tools/render_paraview.py "$out/trajectory.xdmf" "$out/paraview.png" >"$out/paraview.log" 2>&1; then
    pictures+=("$out/paraview.png")
  else
    echo "demo: the ParaView picture failed (see $out/paraview.log); the other pictures are fine" >&2
  fi
fi
echo "== done. Outputs in $out:"
for f in trajectory.h5 trajectory.xdmf checkpoint.h5 observables.jsonl summary.json run.log; do echo "  $out/$f"; done
for p in "${pictures[@]}"; do echo "  $p"; done
