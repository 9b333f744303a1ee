#!/usr/bin/env bash
# Strong scaling under Slurm: one job of run.sbatch per rank count, all on
# the same model, each writing DIR/ranks-NNNN/summary.json; run
# tools/scaling_report.py on DIR when they are done.
#   jobs/slurm/strong-scaling.sh [-r "1 2 4 8 16 32"] [-o DIR] [MODEL.toml [tethersim run options]]
#   SBATCH_OPTIONS="--exclusive --time=00:30:00" jobs/slurm/strong-scaling.sh -r "1 2 4 8 16 32 64"
# Default: the gas of examples/gas.toml with 256 000 particles to t = 10.
# SBATCH_OPTIONS adds sbatch options to every job; TASKS_PER_NODE sets how
# many ranks fill a node (default: its CPU count from sinfo); TETHERSIM
# names the program.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Not jobs/local/env.sh: its single-machine Open MPI settings would travel
# into the jobs.
TETHERSIM_ROOT="$(cd "$here/../.." && pwd)"
export TETHERSIM_ROOT
TETHERSIM_PYTHON="${TETHERSIM_PYTHON:-python3}"
source "$here/../common/scaling.sh"
scaling_parse strong slurm "1 2 4 8 16 32" 40 10 "$@"
scaling_submit_slurm
