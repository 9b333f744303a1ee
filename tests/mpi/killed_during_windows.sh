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
deadline=$((SECONDS + 120))
until [[ -e $work/killed/checkpoint.h5 ]]; do
  kill -0 "$pid" 2>/dev/null || fail "the run ended before its first checkpoint"
  ((SECONDS < deadline)) || fail "no checkpoint within 120 s"
  sleep 0.01
done
# A moment after the first checkpoint: inside some window.
sleep "0.$((RANDOM % 5 + 1))"
kill -0 "$pid" 2>/dev/null || fail "the run finished before it was killed (make it longer)"
pkill -KILL -s "$pid" 2>/dev/null || kill -9 "$pid"
wait "$pid" 2>/dev/null || true
# Wait until nothing of the session is left.
deadline=$((SECONDS + 30))
while pgrep -s "$pid" >/dev/null; do
  ((SECONDS < deadline)) || fail "processes of the killed run still alive after 30 s"
  pkill -KILL -s "$pid" 2>/dev/null || true
  sleep 0.05
done
# Between the two renames of a checkpoint write only the previous one is
# there: --restart takes it.
newest=$work/killed/checkpoint.h5
[[ -e $newest ]] || newest=$work/killed/checkpoint.prev.h5
stopped=$(/usr/bin/python3 -c "import h5py,sys; print(h5py.File(sys.argv[1],'r')['checkpoint'].attrs['time'])" "$newest")
echo "killed after the checkpoint at t = $stopped"

mpirun -np 3 --oversubscribe "$exe" run --restart "$work/killed" -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/straight" "$work/killed"
