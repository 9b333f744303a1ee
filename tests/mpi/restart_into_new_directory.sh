#!/usr/bin/env bash
# restart_into_new_directory.sh EXE WORKDIR: a checkpoint continued on 2
# ranks into a new output directory, several times, each into a directory
# of its own. Every rank must agree that there is no trajectory to continue
# there: one that looked after another had begun creating the file used to
# try to continue a half-made trajectory and fail ("not a tethersim
# trajectory"), in about half the runs of a gas of 6 912. Each
# continuation must equal one rank's continuation into a new directory
# (state, frames, counts).
set -euo pipefail
exe=$1 work=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
model=(run "$here/../../examples/gas.toml" --set initial.parameters.cells=12 --set output.frame_interval=0.05 -q)
rm -rf "$work" && mkdir -p "$work"
"$exe" "${model[@]}" -o "$work/start" --end-time 0.1
"$exe" run --restart "$work/start" -o "$work/reference" --end-time 0.2 -q
for k in 1 2 3 4 5 6 7 8; do
  status=0
  timeout -k 10 120 mpirun -np 2 --oversubscribe "$exe" run --restart "$work/start" -o "$work/new-$k" --end-time 0.2 -q \
    2> "$work/new-$k.err" || status=$?
  if (( status != 0 )); then
    cat "$work/new-$k.err"
    echo "FAIL: continuation $k into a new directory: exit code $status"
    exit 1
  fi
  /usr/bin/python3 "$here/../common/same_state.py" "$work/reference" "$work/new-$k"
done
echo "8 continuations into new directories on 2 ranks: the same as on one rank"
