#!/usr/bin/env bash
# mpirun for tethersim runs on a workstation, with stop signals that behave
# as for one process: SIGTERM and Ctrl-C write a checkpoint and exit 0.
#   jobs/local/mpirun.sh -np 4 build/release/src/app/tethersim run MODEL.toml -o DIR
#
# Open MPI's mpirun ends the job itself on SIGTERM and SIGINT: it sends the
# ranks SIGTERM, kills them one second later (odls_base_sigkill_timeout),
# and exits 1 whatever they did. It forwards SIGUSR1, which tethersim
# answers exactly like SIGTERM. So mpirun runs here in its own session (out
# of reach of the terminal's Ctrl-C) and this script turns SIGTERM and
# SIGINT into SIGUSR1 for it. Under Slurm, srun delivers signals to the
# ranks itself (jobs/slurm).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# A background job of a script is no process-group leader, so setsid does
# not fork: $! is mpirun itself.
setsid mpirun "$@" &
pid=$!
trap 'kill -USR1 "$pid" 2>/dev/null' TERM INT
code=0
while :; do
  # A trapped signal ends the wait early; the job goes on until it stops.
  wait "$pid"
  code=$?
  kill -0 "$pid" 2>/dev/null || break
done
exit "$code"
