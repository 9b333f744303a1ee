#!/usr/bin/env bash
# Weak scaling under Slurm: one job of run.sbatch per rank count, the model
# growing with the ranks (by default the gas lattice, cells =
# round(20 n^(1/3)), about 32 000 particles per rank, to t = 10), each
# writing DIR/ranks-NNNN/summary.json; run tools/scaling_report.py on DIR
# when they are done.
#   jobs/slurm/weak-scaling.sh [-r "1 2 4 8 16 32"] [-o DIR] [-k KEY] [-b BASE] [-g cbrt|linear] [MODEL.toml [run options]]
#   jobs/slurm/weak-scaling.sh -r "1 8 64" -b 25 examples/gas.toml --end-time 5
# SBATCH_OPTIONS, TASKS_PER_NODE and TETHERSIM as for strong-scaling.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Not jobs/local/env.sh: its single-machine Open MPI settings would travel
# into the jobs.
TETHERSIM_ROOT="$(cd "$here/../.." && pwd)"
export TETHERSIM_ROOT
TETHERSIM_PYTHON="${TETHERSIM_PYTHON:-python3}"
source "$here/../common/scaling.sh"
scaling_parse weak slurm "1 2 4 8 16 32" 20 10 "$@"
scaling_submit_slurm
