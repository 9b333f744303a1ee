#!/usr/bin/env bash
# owner_refused.sh EXE REPOSITORY WORKDIR: `--windows owner` on 2 ranks
# refuses, with one line naming the model file and exit 2, what its rounds
# do not take yet (action potentials), before any output is written.
set -euo pipefail
exe=$1 repo=$2 work=$3
export OMPI_MCA_mpi_yield_when_idle=1 TETHERSIM_OWNER_PREVIEW=1
rm -rf "$work" && mkdir -p "$work"
check() {
  local name=$1 model=$2 expected=$3
  shift 3
  local status=0
  mpirun -np 2 --oversubscribe "$exe" run "$repo/examples/$model" --windows owner -q -o "$work/$name" "$@" \
    2> "$work/$name.err" || status=$?
  grep "^tethersim" "$work/$name.err" > "$work/$name.lines" || true
  cat "$work/$name.lines"
  (( status == 2 )) || { cat "$work/$name.err"; echo "FAIL: $name: exit code $status, expected 2"; exit 1; }
  [[ $(sort -u "$work/$name.lines" | wc -l) == 1 ]] || { echo "FAIL: $name: not one line"; exit 1; }
  grep -q "$model: --windows owner does not take $expected" "$work/$name.lines" ||
    { echo "FAIL: $name: the line does not name the model and what is missing"; exit 1; }
  [[ ! -e "$work/$name/trajectory.h5" ]] || { echo "FAIL: $name: output written"; exit 1; }
}
check action_potentials presynaptic.toml "action potentials"
echo "every case refused"
