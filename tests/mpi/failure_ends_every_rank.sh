#!/usr/bin/env bash
# failure_ends_every_rank.sh EXE WORKDIR: an error on one rank of a 2-rank
# run (injected with TETHERSIM_FAIL_ON_RANK) must end every rank promptly
# with exit code 1 and the message, and leave the last checkpoint intact:
# a run continued from it ends in the state of an uninterrupted run.
# (A rank that unwound its error through a collective close of the
# trajectory used to leave both ranks waiting for ever.)
set -euo pipefail
exe=$1 work=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
model=(run "$here/../../examples/gas.toml" --set initial.parameters.cells=8 --set run.end_time=3
       --set output.checkpoint_interval=0.5 -q)
rm -rf "$work" && mkdir -p "$work"
"$exe" "${model[@]}" -o "$work/reference"

status=0
TETHERSIM_FAIL_ON_RANK=1@1.7 timeout -k 10 120 mpirun -np 2 --oversubscribe "$exe" "${model[@]}" -o "$work/failed" \
  2> "$work/failed.err" || status=$?
cat "$work/failed.err"
if (( status == 124 )); then echo "FAIL: the ranks did not end within 120 s"; exit 1; fi
if (( status != 1 )); then echo "FAIL: exit code $status, expected 1"; exit 1; fi
grep -q "injected failure" "$work/failed.err" || { echo "FAIL: the message did not reach stderr"; exit 1; }
[[ ! -e "$work/failed/summary.json" ]] || { echo "FAIL: a failed run wrote summary.json"; exit 1; }

# The last checkpoint verifies and continues to the uninterrupted state.
"$exe" info "$work/failed/checkpoint.h5" > "$work/info.txt"
grep -q "verified" "$work/info.txt" || { cat "$work/info.txt"; echo "FAIL: the checkpoint does not verify"; exit 1; }
mpirun -np 2 --oversubscribe "$exe" run --restart "$work/failed" -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/reference" "$work/failed"
