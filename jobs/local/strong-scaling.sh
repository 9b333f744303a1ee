#!/usr/bin/env bash
# Strong scaling on this machine: one model of fixed size run with mpirun on
# each rank count in turn, then tools/scaling_report.py on the results.
#   jobs/local/strong-scaling.sh [-r "1 2 4"] [-o DIR] [MODEL.toml [tethersim run options]]
#   jobs/local/strong-scaling.sh -r "1 2 4 8" -o strong examples/gas.toml --set initial.parameters.cells=16 --end-time 5
# Default: the gas of examples/gas.toml with 16 384 particles to t = 4, on
# 1, 2, 4 ... up to the physical cores. More ranks than cores are run
# oversubscribed and marked so (see jobs/common/scaling.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
source "$here/../common/scaling.sh"
scaling_parse strong mpirun "$(local_rank_counts)" 16 4 "$@"
scaling_run_local
