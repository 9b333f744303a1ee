#!/usr/bin/env bash
# checkpoint_rounds.sh EXE WORKDIR: a checkpoint's particle rows (on several
# ranks) and a frame's rows go to the ranks that write them in rounds of at
# most 32 768 rows per rank (io/checkpoint_file.cpp, io/trajectory_file.cpp).
# A gas of 143 748 particles on 2 ranks (3 rounds) and 3 ranks (2 rounds,
# uneven parts) must write the very checkpoint one rank writes straight from
# its engine, and the same frames as one rank (5 rounds), whose rows are in
# id order with none missing: a row placed in the wrong slot, lost or
# written twice would differ.
set -euo pipefail
exe=$1 work=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
model=(run "$here/../../examples/gas.toml" --set initial.parameters.cells=33 --set output.frame_interval=0.002
       --end-time 0.002 --lean-fallback off -q)
rm -rf "$work" && mkdir -p "$work"
"$exe" "${model[@]}" -o "$work/np1"
/usr/bin/python3 - "$work/np1/trajectory.h5" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    ids = f["/particles/all/id/value"][...]
    positions = f["/particles/all/position/value"][...]
assert ids.shape == (2, 143748), ids.shape
for frame in range(2):
    assert (ids[frame] == np.arange(143748)).all(), f"frame {frame}: rows not in id order"
assert np.isfinite(positions).all(), "a frame has rows without a particle"
PY
for n in 2 3; do
  status=0
  timeout -k 10 240 mpirun -np "$n" --oversubscribe "$exe" "${model[@]}" -o "$work/np$n" 2> "$work/np$n.err" || status=$?
  if (( status != 0 )); then
    cat "$work/np$n.err"
    echo "FAIL: the run on $n ranks exited $status"
    exit 1
  fi
  /usr/bin/python3 "$here/../common/same_state.py" "$work/np1" "$work/np$n"
done
echo "checkpoints of 143 748 particles written in rounds on 2 and 3 ranks: the same as on one rank"
