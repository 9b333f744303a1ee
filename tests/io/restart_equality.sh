#!/usr/bin/env bash
# A run stopped halfway, checkpointed and continued with --restart equals
# the uninterrupted run: same frames, observables, final state (exact).
#   restart_equality.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
small=(--set initial.parameters.vesicles=30 --set initial.parameters.synapsin_dimers=90
       --set initial.parameters.docking_sites=10 --set output.frame_interval=5.0
       --set "action_potential.windows=[{ start = 40.0, end = 55.0 }]")
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/straight" --end-time 80 -q
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/split" --end-time 47.5 -q
"$exe" run --restart "$work/split" --end-time 80 -q
same_state "$work/straight" "$work/split"
[ "$(json_field "$work/split/summary.json" restarted)" = "True" ] || fail "not marked as restarted"
# Restarting a finished run extends it like a longer straight run.
"$exe" run "$src/examples/presynaptic.toml" "${small[@]}" -o "$work/longer" --end-time 100 -q
cp -r "$work/straight" "$work/extended"
"$exe" run --restart "$work/extended/checkpoint.h5" --end-time 100 -q
same_state "$work/extended" "$work/longer"
# A trajectory whose tail was written after the checkpoint (a killed run)
# is truncated before continuing: fake one by restarting from the previous
# checkpoint of a finished run.
"$exe" run --restart "$work/split/checkpoint.prev.h5" --end-time 80 -q
same_state "$work/straight" "$work/split"
# A bare checkpoint file name in the current directory.
cp -r "$work/straight" "$work/bare"
(cd "$work/bare" && "$exe" run --restart checkpoint.h5 --end-time 100 -q)
same_state "$work/bare" "$work/longer"
echo "restart equality: ok"
