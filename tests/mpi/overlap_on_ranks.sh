#!/usr/bin/env bash
# overlap_on_ranks.sh EXE REPOSITORY WORKDIR: an overlapping start is
# refused with the same line on any number of ranks. Each rank checks the
# pairs its window holds, and the ranks agree on the first pair by id; here
# the first explicit particle sits at the centre of a lattice gas, on the
# corner of every block of a 2x2x2 rank grid, overlapping lattice
# particles of several blocks, and a second one overlaps a lattice particle
# near the box's corner (a later pair, never the one named).
set -euo pipefail
exe=$1 repo=$2 work=$3
export OMPI_MCA_mpi_yield_when_idle=1
rm -rf "$work" && mkdir -p "$work"
model=(run "$repo/examples/gas.toml" --set initial.parameters.cells=8 --set run.end_time=0.1 -q
       "--set=initial.particle=[{species=\"A\",position=[8.0,8.0,8.0]},{species=\"A\",position=[0.6,0.6,0.6]}]")

status=0
"$exe" "${model[@]}" -o "$work/one" 2> "$work/one.err" || status=$?
cat "$work/one.err"
(( status == 2 )) || { echo "FAIL: one process: exit code $status, expected 2"; exit 1; }
grep -q "initial.particle.2048: particles [0-9]* (species A) and 2048 (species A) overlap" "$work/one.err" ||
  { echo "FAIL: one process does not name the centre particle's first pair"; exit 1; }

for np in 2 3 8; do
  status=0
  mpirun -np "$np" --oversubscribe "$exe" "${model[@]}" -o "$work/np$np" 2> "$work/np$np.err" || status=$?
  (( status == 2 )) || { cat "$work/np$np.err"; echo "FAIL: $np ranks: exit code $status, expected 2"; exit 1; }
  # Open MPI adds its own notice of a non-zero exit; the run's lines must
  # be the one process's.
  grep "^tethersim" "$work/np$np.err" > "$work/np$np.lines" || true
  diff "$work/one.err" "$work/np$np.lines" ||
    { echo "FAIL: $np ranks refuse the start otherwise than one process"; exit 1; }
  echo "$np ranks: the same line"
done
