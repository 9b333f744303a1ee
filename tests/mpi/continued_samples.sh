#!/usr/bin/env bash
# continued_samples.sh EXE WORKDIR: a trajectory that holds observable
# samples past its checkpoint (the run went on after it, then was lost),
# continued on 8 ranks, several times. Continuing removes the samples after
# the checkpoint, which rewrites the chunk they share with the kept ones.
# Every rank must have read the sample times before any rank changes the
# file: a rank that read after saw a removed time as 0, kept one sample
# more than the others, and the ranks then hung in different HDF5 calls at
# the first sample (seen on a gas of 10^6 at 4 ranks). Each continuation
# must finish and equal the uninterrupted run (state, frames, samples).
set -euo pipefail
exe=$1 work=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
model=(run "$here/../../examples/gas.toml" --set initial.parameters.cells=10 --set output.frame_interval=0.25
       --set output.observables_interval=0.01 --set output.checkpoint_interval=0.5 -q)
rm -rf "$work" && mkdir -p "$work"
"$exe" "${model[@]}" -o "$work/uninterrupted" --end-time 1
for k in 1 2 3 4 5 6; do
  lost="$work/lost-$k"
  mkdir -p "$lost"
  # The directory as a run killed just before its checkpoint at t = 1
  # leaves it: samples and frames to t = 1, the checkpoint of t = 0.5.
  cp "$work/uninterrupted/trajectory.h5" "$work/uninterrupted/observables.jsonl" "$lost/"
  cp "$work/uninterrupted/checkpoint.prev.h5" "$lost/checkpoint.h5"
  status=0
  timeout -k 10 120 mpirun -np 8 --oversubscribe "$exe" run --restart "$lost" --end-time 1 -q \
    2> "$work/lost-$k.err" || status=$?
  if (( status != 0 )); then
    cat "$work/lost-$k.err"
    echo "FAIL: continuation $k on 8 ranks: exit code $status"
    exit 1
  fi
  /usr/bin/python3 "$here/../common/same_state.py" "$work/uninterrupted" "$lost"
done
echo "6 continuations of samples past the checkpoint on 8 ranks: the uninterrupted run"
