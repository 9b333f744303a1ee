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
