#!/usr/bin/env bash
# Output directories and restarts that must be refused, with one line and a
# non-zero exit, leaving existing files untouched.
#   output_refusals.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
small=(--set initial.parameters.cells=4)
"$exe" run "$src/examples/gas.toml" "${small[@]}" -o "$work/run" --end-time 2 -q
before=$(md5sum "$work/run/checkpoint.h5" "$work/run/trajectory.h5")
# Another run into the same directory.
expect_exit 2 "$exe" run "$src/examples/gas.toml" "${small[@]}" -o "$work/run" --end-time 2 -q
expect_one_line "$stderr_text" "already holds a run"
[ "$before" = "$(md5sum "$work/run/checkpoint.h5" "$work/run/trajectory.h5")" ] || fail "files were touched"
# --overwrite replaces them.
"$exe" run "$src/examples/gas.toml" "${small[@]}" -o "$work/run" --end-time 1 -q --overwrite
[ "$(json_field "$work/run/summary.json" end_time)" = "1" ] || fail "--overwrite did not replace the run"
# Unwritable places.
expect_exit 2 "$exe" run "$src/examples/gas.toml" "${small[@]}" -o /proc/tethersim-cannot-be-here -q
expect_one_line "$stderr_text" "cannot be created|not writable"
touch "$work/a-file"
expect_exit 2 "$exe" run "$src/examples/gas.toml" "${small[@]}" -o "$work/a-file" -q
expect_one_line "$stderr_text" "not a directory"
# Restarts that change the physics, or go nowhere.
expect_exit 2 "$exe" run --restart "$work/run" --end-time 5 --set pair.A-A.c=0.5
expect_one_line "$stderr_text" "change the physics"
expect_exit 2 "$exe" run --restart "$work/run" --end-time 0.5
expect_one_line "$stderr_text" "not after the checkpoint time"
expect_exit 2 "$exe" run --restart "$work/run" --seed 3 --end-time 5
expect_one_line "$stderr_text" "--seed cannot change"
# A restart into a directory holding another model's trajectory.
"$exe" run "$src/examples/membrane-sphere.toml" --set initial.parameters.frequency=7 -o "$work/other" --end-time 1 -q
cp "$work/run/checkpoint.h5" "$work/other/checkpoint.h5"
expect_exit 2 "$exe" run --restart "$work/other/checkpoint.h5" --end-time 5 -q
expect_one_line "$stderr_text" "belongs to another model"
# A restart that would change the observables is refused before anything
# in the trajectory changes.
before=$(md5sum "$work/run/trajectory.h5")
expect_exit 2 "$exe" run --restart "$work/run" --end-time 5 --set 'output.cluster_species=["A"]'
expect_one_line "$stderr_text" "has no observable 'clusters_A'"
[ "$before" = "$(md5sum "$work/run/trajectory.h5")" ] || fail "the trajectory was changed"
echo "output refusals: ok"
