#!/usr/bin/env bash
# SIGTERM writes a checkpoint and exits 0, and the continued run equals an
# uninterrupted one; kill -9 at any moment (also during a checkpoint write)
# leaves a loadable checkpoint.
#   interrupted_runs.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
sheet=(--set initial.parameters.size=16 --set output.frame_interval=2.0)

# SIGTERM (as a batch system sends before the wall-time limit).
"$exe" run "$src/examples/membrane-sheet.toml" "${sheet[@]}" -o "$work/straight" --end-time 40 -q
"$exe" run "$src/examples/membrane-sheet.toml" "${sheet[@]}" -o "$work/term" --end-time 40 -q 2>"$work/term.err" &
pid=$!
sleep 1.5
kill -TERM "$pid" 2>/dev/null || true
code=0; wait "$pid" || code=$?
[ "$code" -eq 0 ] || fail "SIGTERM: exit code $code"
if grep -q "stopped by SIGTERM" "$work/term.err"; then
  [ "$(json_field "$work/term/summary.json" interrupted)" = "True" ] || fail "summary not marked interrupted"
  "$exe" info "$work/term/checkpoint.h5" >/dev/null
  "$exe" run --restart "$work/term" -q
else
  echo "note: the run finished before SIGTERM arrived" >&2
fi
same_state "$work/straight" "$work/term"

# kill -9 while checkpoints are being written all the time.
gas=(--set initial.parameters.cells=20 --set output.checkpoint_interval=0.02 --set output.frame_interval=1.0)
"$exe" run "$src/examples/gas.toml" "${gas[@]}" -o "$work/killed" --end-time 1000 -q &
pid=$!
sleep 2
for delay in 0.37 0.11 0.53 0.07 0.29; do
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # A complete checkpoint survives, newest or previous.
  "$exe" run --restart "$work/killed" --end-time 1000 -q &
  pid=$!
  sleep "$delay"
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
ls "$work/killed"/checkpoint*.h5 >/dev/null
"$exe" run --restart "$work/killed" --end-time 1000 --max-walltime 0.0003 -q
[ "$(json_field "$work/killed/summary.json" interrupted)" = "True" ] || fail "--max-walltime did not stop the run"
# Stopped at once in a sparse gas, where the next event often lies beyond
# the next frame: the stop must not lose that frame.
sparse=(--set initial.parameters.cells=2 --set output.frame_interval=0.01)
"$exe" run "$src/examples/gas.toml" "${sparse[@]}" -o "$work/sparse-straight" --end-time 3 -q
"$exe" run "$src/examples/gas.toml" "${sparse[@]}" -o "$work/sparse" --end-time 3 --max-walltime 1e-9 -q
[ "$(json_field "$work/sparse/summary.json" interrupted)" = "True" ] || fail "the sparse run was not stopped"
"$exe" run --restart "$work/sparse" -q
same_state "$work/sparse-straight" "$work/sparse"
echo "interrupted runs: ok"
