#!/usr/bin/env bash
# kill -9 of a 2-rank run in the middle of its speculative windows (some of
# them being undone: TETHERSIM_SPECULATION_FAIL_RATE), then --restart from
# the checkpoint it left, on 3 ranks: the same frames, observables, final
# state and counts as one uninterrupted rank.
#   killed_during_windows.sh TETHERSIM SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$here/run_control.sh"
rm -rf "$work" && mkdir -p "$work"
model=("$src/examples/gas.toml" --set initial.parameters.cells=10 --set run.end_time=12
       --set output.frame_interval=1 --set output.checkpoint_interval=0.25)

"$exe" run "${model[@]}" -o "$work/straight" -q

# The run in its own session, so that kill -9 reaches mpirun and both ranks
# at once (as a node failure or the batch system's last resort would). Open
# MPI puts each rank in a process group of its own, so the kill goes to the
# session, not to mpirun's group: a rank left alive would go on rotating
# checkpoints under the restart below.
TETHERSIM_SPECULATION_FAIL_RATE=0.2 setsid mpirun -np 2 --oversubscribe "$exe" run "${model[@]}" \
  -o "$work/killed" -q &
pid=$!
after_first_checkpoint "$work/killed" "$pid"
kill_session "$pid"
stopped=$(newest_checkpoint "$work/killed")
echo "killed after the checkpoint at t = $stopped"

mpirun -np 3 --oversubscribe "$exe" run --restart "$work/killed" -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/straight" "$work/killed"
