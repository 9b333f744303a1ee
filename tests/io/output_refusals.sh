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
# Giving the run's own seed again is no change.
cp -r "$work/run" "$work/same-seed"
"$exe" run --restart "$work/same-seed" --seed "$(json_field "$work/run/summary.json" seed)" --end-time 5 -q ||
  fail "a restart with the run's own --seed was refused"
# A restart into a directory holding another model's trajectory.
"$exe" run "$src/examples/membrane-sphere.toml" --set initial.parameters.frequency=7 -o "$work/other" --end-time 1 -q
cp "$work/run/checkpoint.h5" "$work/other/checkpoint.h5"
before=$(md5sum "$work/other/trajectory.h5")
expect_exit 2 "$exe" run --restart "$work/other/checkpoint.h5" --end-time 5 -q
expect_one_line "$stderr_text" "belongs to another model"
[ "$before" = "$(md5sum "$work/other/trajectory.h5")" ] || fail "the other model's trajectory was changed"
"$exe" info "$work/other/trajectory.h5" >/dev/null
# A restart into the trajectory of another run of the same model (same
# physics, another initial state): refused before anything changes.
syn=("$src/examples/presynaptic.toml" --end-time 20 -q)
"$exe" run "${syn[@]}" --set initial.parameters.vesicles=30 -o "$work/vesicles30"
"$exe" run "${syn[@]}" --set initial.parameters.vesicles=20 -o "$work/vesicles20"
before=$(md5sum "$work/vesicles20/trajectory.h5")
expect_exit 2 "$exe" run --restart "$work/vesicles30/checkpoint.h5" --output "$work/vesicles20" --end-time 40 -q
expect_one_line "$stderr_text" "vesicles20/trajectory.h5: this trajectory belongs to another run \\(its model hash"
[ "$before" = "$(md5sum "$work/vesicles20/trajectory.h5")" ] || fail "the other run's trajectory was changed"
"$exe" info "$work/vesicles20/trajectory.h5" >/dev/null
# The same with particles from a file, whose contents a restart does not
# read again (so no model hash to compare): the rows and their ids decide.
mkdir -p "$work/files"
cat > "$work/files/model.toml" <<'MODEL'
[run]
end_time = 2.0
[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 10.0]
boundary = "periodic"
[[species]]
name = "S"
mass = 1.0
radius = 0.5
[pair_defaults]
c = 1.0
[initial]
particles_file = "particles.csv"
[output]
frame_interval = 1.0
MODEL
particles() { printf 'id,species,x,y,z,vx,vy,vz\n'; for id in "$@"; do printf '%s,S,%s,%s,%s,1,0.5,0\n' "$id" "$id" "$id" "$id"; done; }
particles 1 2 3 4 > "$work/files/particles.csv"
"$exe" run "$work/files/model.toml" -o "$work/files/a" -q
"$exe" run --restart "$work/files/a" --end-time 3 -q  # its own trajectory: continued
particles 1 2 3 9 > "$work/files/particles.csv"
"$exe" run "$work/files/model.toml" -o "$work/files/other-ids" -q
particles 1 2 3 > "$work/files/particles.csv"
"$exe" run "$work/files/model.toml" -o "$work/files/fewer" -q
for other in other-ids fewer; do
  before=$(md5sum "$work/files/$other/trajectory.h5")
  expect_exit 2 "$exe" run --restart "$work/files/a/checkpoint.h5" --output "$work/files/$other" --end-time 5 -q
  expect_one_line "$stderr_text" "$other/trajectory.h5: this trajectory belongs to another run"
  [ "$before" = "$(md5sum "$work/files/$other/trajectory.h5")" ] || fail "the trajectory in $other was changed"
done
# A restart that would change the observables is refused before anything
# in the trajectory changes.
before=$(md5sum "$work/run/trajectory.h5")
expect_exit 2 "$exe" run --restart "$work/run" --end-time 5 --set 'output.cluster_species=["A"]'
expect_one_line "$stderr_text" "has no observable 'clusters_A'"
[ "$before" = "$(md5sum "$work/run/trajectory.h5")" ] || fail "the trajectory was changed"
echo "output refusals: ok"
