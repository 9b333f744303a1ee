#!/usr/bin/env bash
# Weak scaling on this machine: the model grows with the rank count (by
# default the gas lattice, cells = round(10 n^(1/3)), about 4 000 particles
# per rank, to t = 4), run with mpirun on each rank count in turn, then
# tools/scaling_report.py on the results.
#   jobs/local/weak-scaling.sh [-r "1 2 4"] [-o DIR] [-k KEY] [-b BASE] [-g cbrt|linear] [MODEL.toml [run options]]
#   jobs/local/weak-scaling.sh -r "1 2 4 8" -b 10 examples/gas.toml --end-time 2
# More ranks than cores are run oversubscribed and marked so.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
source "$here/../common/scaling.sh"
scaling_parse weak mpirun "$(local_rank_counts)" 10 4 "$@"
scaling_run_local
