#!/usr/bin/env bash
# Damaged checkpoints are rejected with one line and exit code 2: truncated
# at many offsets, a foreign file, an incompatible version, changed data.
#   checkpoint_damage.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
"$exe" run "$src/examples/gas.toml" --set initial.parameters.cells=4 -o "$work/run" --end-time 2 -q
good="$work/run/checkpoint.h5"
"$exe" info "$good" >/dev/null
size=$(stat -c %s "$good")
for offset in 0 1 100 1000 4096 $((size / 7)) $((size / 3)) $((size / 2)) $((size * 3 / 4)) $((size - 100)) $((size - 1)); do
  cut="$work/cut-$offset.h5"
  head -c "$offset" "$good" > "$cut"
  expect_exit 2 "$exe" info "$cut"
  expect_one_line "$stderr_text" "cut-$offset.h5: "
  expect_exit 2 "$exe" run --restart "$cut" --end-time 5
  expect_one_line "$stderr_text" "cut-$offset.h5: "
done
expect_exit 2 "$exe" run --restart "$work/run/trajectory.h5" --end-time 5
expect_one_line "$stderr_text" "not a tethersim checkpoint"
expect_exit 2 "$exe" run --restart "$work/nowhere.h5" --end-time 5
expect_one_line "$stderr_text" "no such checkpoint"
expect_exit 2 "$exe" run --restart "$src/README.md" --end-time 5
expect_one_line "$stderr_text" "not an HDF5 file"
# A newer format, and data changed behind the hash's back.
cp "$good" "$work/future.h5"
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); f['checkpoint'].attrs['format_version']=99" "$work/future.h5"
expect_exit 2 "$exe" run --restart "$work/future.h5" --end-time 5
expect_one_line "$stderr_text" "checkpoint format 99"
cp "$good" "$work/edited.h5"
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); d=f['checkpoint/particles/t0']; d[3]=d[3]+1e-9" "$work/edited.h5"
expect_exit 2 "$exe" run --restart "$work/edited.h5" --end-time 5
expect_one_line "$stderr_text" "content hash mismatch"
# A directory whose newest checkpoint is damaged falls back to the previous
# one (with a message) and the run still ends where an intact one would.
"$exe" run "$src/examples/gas.toml" --set initial.parameters.cells=4 --set output.checkpoint_interval=1.0 \
  -o "$work/fallback" --end-time 2 -q
"$exe" run "$src/examples/gas.toml" --set initial.parameters.cells=4 --set output.checkpoint_interval=1.0 \
  -o "$work/intact" --end-time 3 -q
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); d=f['checkpoint/particles/v']; d[0,0]=d[0,0]*2" "$work/fallback/checkpoint.h5"
"$exe" run --restart "$work/fallback" --end-time 3 -q 2>"$work/fallback.err"
grep -q "content hash mismatch.*using .*checkpoint.prev.h5" "$work/fallback.err" || fail "no fallback message: $(cat "$work/fallback.err")"
[ "$(json_field "$work/fallback/summary.json" state_hash)" = "$(json_field "$work/intact/summary.json" state_hash)" ] ||
  fail "the run continued from the previous checkpoint differs"
echo "checkpoint damage: ok"
