#!/usr/bin/env bash
# DIR/observables.jsonl: one JSON object per observable sample, equal to the
# trajectory's observables; a run stopped and continued (at its end time, by
# the wall-time limit at an arbitrary instant, from an older checkpoint,
# after a line cut short by a kill) leaves the same file as an uninterrupted
# run, and so does a run on two ranks.
#   observables_log.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
check() { /usr/bin/python3 "$src/tests/io/check_observables_log.py" "$1" || fail "$1: observables.jsonl and trajectory.h5 differ"; }
same_log() { cmp -s "$1/observables.jsonl" "$2/observables.jsonl" || fail "$3: observables.jsonl differs from the uninterrupted run's"; }
# Samples between frames (their own steps), checkpoints to restart from,
# cluster and docking counts, an action potential with its events.
small=(--set initial.parameters.vesicles=30 --set initial.parameters.synapsin_dimers=90
       --set initial.parameters.docking_sites=10 --set output.frame_interval=5.0
       --set output.observables_interval=2.5 --set output.checkpoint_interval=10.0
       --set "action_potential.windows=[{ start = 40.0, end = 55.0 }]")
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/straight" --end-time 80 -q
check "$work/straight"
[ "$(wc -l < "$work/straight/observables.jsonl")" -eq 33 ] || fail "expected 33 samples (t = 0, 2.5, ..., 80)"

# Stopped at an end time, continued.
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/split" --end-time 47.5 -q
"$exe" run --restart "$work/split" --end-time 80 -q
check "$work/split"
same_log "$work/straight" "$work/split" "a run continued at t = 47.5"

# Samples written after the checkpoint (as a killed run leaves them), the
# last line cut short: continuing from the older checkpoint removes them.
printf '{"time": 8' >> "$work/split/observables.jsonl"
"$exe" run --restart "$work/split/checkpoint.prev.h5" --end-time 80 -q
check "$work/split"
same_log "$work/straight" "$work/split" "a run continued from its previous checkpoint"

# Stopped by the wall-time limit at whatever instant it comes, then
# continued to the end. 20 ms from the start stops the run about a third of
# the way on a fast host (its loop takes about 40 ms); a slow one stops
# sooner, at t = 0 at worst, which is still a stopped run. (50 ms let a fast
# host finish first.)
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/stopped" --end-time 80 --max-walltime 5.5e-6 -q
[ "$(json_field "$work/stopped/summary.json" interrupted)" = "True" ] || fail "--max-walltime did not stop the run"
check "$work/stopped"
"$exe" run --restart "$work/stopped" -q
same_log "$work/straight" "$work/stopped" "a run stopped by --max-walltime and continued"

# Continued into another directory: a new file, like the new trajectory there.
"$exe" run --restart "$work/straight/checkpoint.prev.h5" -o "$work/elsewhere" -q
check "$work/elsewhere"
[ "$(head -c 12 "$work/elsewhere/observables.jsonl")" = '{"time":72.5' ] || fail "the new file does not start after the checkpoint"

# --overwrite starts the file anew.
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/split" --end-time 20 --overwrite -q
check "$work/split"

# The same file on two ranks (the samples are sums over every rank).
if command -v mpirun > /dev/null; then
  mpirun -np 2 "$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/ranks2" --end-time 80 -q
  same_log "$work/straight" "$work/ranks2" "a run on 2 ranks"
fi
echo "observables log: ok"
