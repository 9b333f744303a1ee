#!/usr/bin/env bash
# Smaller frames: output.frame_precision = "single", frame_compression and
# frame_species write the full run's frames rounded, deflated and cut to
# some species (check_frame_volume.py); such a run on 2 ranks and one
# continued from its checkpoint write the same bits as one uninterrupted
# rank; a continuation that changes frame_species, and bad values of the
# three keys, are refused with one line.
#   frame_volume.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
model="$src/examples/presynaptic.toml"
small=(--set initial.parameters.vesicles=30 --set initial.parameters.synapsin_dimers=90
       --set initial.parameters.docking_sites=10 --set output.frame_interval=5.0
       --set output.observables_interval=5.0 --set output.checkpoint_interval=20.0)
reduced=(--set 'output.frame_precision="single"' --set output.frame_compression=4
         --set 'output.frame_species=["V", "S"]')

"$exe" run "$model" "${small[@]}" -o "$work/full" --end-time 60 -q
"$exe" run "$model" "${small[@]}" "${reduced[@]}" -o "$work/reduced" --end-time 60 -q
/usr/bin/python3 "$src/tests/io/check_frame_volume.py" "$work/full" "$work/reduced" V S ||
  fail "the reduced frames are not the full run's"

# Stopped and continued (the continuation keeps the file's precision and
# filters), and on 2 ranks: the same bits.
"$exe" run "$model" "${small[@]}" "${reduced[@]}" -o "$work/split" --end-time 30 -q
"$exe" run --restart "$work/split" --end-time 60 -q
same_state "$work/reduced" "$work/split"
if command -v mpirun > /dev/null; then
  mpirun -np 2 "$exe" run "$model" "${small[@]}" "${reduced[@]}" -o "$work/ranks2" --end-time 60 -q
  same_state "$work/reduced" "$work/ranks2"
fi

# A continuation with other rows is refused, and changes nothing.
before=$(md5sum < "$work/split/trajectory.h5")
expect_exit 2 "$exe" run --restart "$work/split" --end-time 70 -q --set 'output.frame_species=["V"]'
expect_one_line "$stderr_text" "output\.frame_species.*holds V, S, the run asks for V"
expect_exit 2 "$exe" run --restart "$work/split" --end-time 70 -q --set 'output.frame_species=["M","Z","D","V","S"]'
expect_one_line "$stderr_text" "output\.frame_species.*holds V, S, the run asks for M, Z, D, V, S"
[ "$(md5sum < "$work/split/trajectory.h5")" = "$before" ] || fail "a refused continuation changed the trajectory"

# Bad values: one line naming the key.
expect_exit 2 "$exe" validate "$model" --set 'output.frame_precision="half"'
expect_one_line "$stderr_text" "output\.frame_precision.*\"double\" or \"single\""
expect_exit 2 "$exe" validate "$model" --set output.frame_compression=10
expect_one_line "$stderr_text" "output\.frame_compression.*0 \(none\) to 9, got 10"
expect_exit 2 "$exe" validate "$model" --set output.frame_compression=1.5
expect_one_line "$stderr_text" "output\.frame_compression.*integer"
expect_exit 2 "$exe" validate "$model" --set 'output.frame_species=["Q"]'
expect_one_line "$stderr_text" "output\.frame_species"
expect_exit 2 "$exe" validate "$model" --set 'output.frame_species=[]'
expect_one_line "$stderr_text" "output\.frame_species.*empty list"
expect_exit 2 "$exe" validate "$model" --set 'output.frame_species=["V","V"]'
expect_one_line "$stderr_text" "output\.frame_species.*listed twice"
echo "frame volume: ok"
