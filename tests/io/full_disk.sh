#!/usr/bin/env bash
# A disk that fills up while the trajectory or a checkpoint is written (here
# a file size limit, ulimit -f, which fails writes the same way): one line on
# stderr and exit code 1, never a crash; the checkpoint there before is kept
# unchanged and loadable, no checkpoint.h5.tmp is left behind, and the
# trajectory stays readable with the frames written before the failure.
#   full_disk.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
# 224 kB per frame, a frame every time unit: the disk fills within seconds
# of simulated time (which the sanitizer pass pays for).
gas=("$src/examples/gas.toml" --set initial.parameters.cells=10 --set output.frame_interval=1)

# limited KB CMD...: CMD with files limited to KB kilobytes. SIGXFSZ is
# ignored, so that writes past the limit fail (EFBIG) instead of killing the
# process. PMIx keeps its store in memory (gds=hash): its shared-memory
# files would not fit under the limit, and MPI_Init would fail.
limited() {
  local kb=$1; shift
  (trap '' XFSZ; ulimit -f "$kb"; PMIX_MCA_gds=hash exec "$@")
}
# frames FILE: the number of frames `tethersim info` finds (and it must).
frames() { "$exe" info "$1" | sed -n 's/^  frames *\([0-9]*\).*/\1/p'; }
no_temporary() { [ ! -e "$1/checkpoint.h5.tmp" ] || fail "$1/checkpoint.h5.tmp was left behind"; }
full='(disk full|file size limit)'

# A fresh run whose trajectory fills the disk: the frames before are kept.
expect_exit 1 limited 1500 "$exe" run "${gas[@]}" -o "$work/fresh" --end-time 10 -q
expect_one_line "$stderr_text" "^tethersim: failed: .*fresh/trajectory.h5: cannot write the frame at t = [0-9.]+: .*$full"
[ "$(frames "$work/fresh/trajectory.h5")" -ge 3 ] || fail "the fresh trajectory lost its frames"
no_temporary "$work/fresh"

# A restart whose new frames fill the disk: the checkpoint it started from
# is untouched, the trajectory keeps the old frames and the new ones before.
"$exe" run "${gas[@]}" -o "$work/base" --end-time 4 -q
cp -r "$work/base" "$work/continued"
checkpoint=$(md5sum < "$work/base/checkpoint.h5")
old_frames=$(frames "$work/base/trajectory.h5")
room=$(( $(stat -c %s "$work/base/trajectory.h5") / 1024 + 700 ))
expect_exit 1 limited "$room" "$exe" run --restart "$work/continued" --end-time 8 -q
expect_one_line "$stderr_text" "continued/trajectory.h5: cannot write the frame at t = [0-9.]+: .*$full"
[ "$checkpoint" = "$(md5sum < "$work/continued/checkpoint.h5")" ] || fail "the checkpoint was changed"
"$exe" info "$work/continued/checkpoint.h5" >/dev/null
[ "$(frames "$work/continued/trajectory.h5")" -gt "$old_frames" ] || fail "the continued trajectory lost frames"
no_temporary "$work/continued"
# A trajectory already past the limit cannot even be shortened: refused
# before anything changes.
trajectory=$(md5sum < "$work/continued/trajectory.h5")
expect_exit 1 limited 1000 "$exe" run --restart "$work/continued" --end-time 8 -q
expect_one_line "$stderr_text" "continued/trajectory.h5: cannot write the trajectory: .*$full"
[ "$trajectory" = "$(md5sum < "$work/continued/trajectory.h5")" ] || fail "the trajectory was changed"
# With room again, the run continues from the same checkpoint.
"$exe" run --restart "$work/continued" --end-time 8 -q
"$exe" run "${gas[@]}" -o "$work/straight" --end-time 8 -q
same_state "$work/straight" "$work/continued"

# Checkpoints that do not fit (420 kB; without frames the trajectory does):
# at the end of a fresh run, and at the end of a restart, which keeps the
# checkpoint it started from.
no_frames=(--set output.frame_interval=inf)
expect_exit 1 limited 400 "$exe" run "${gas[@]}" "${no_frames[@]}" -o "$work/fresh-checkpoint" --end-time 4 -q
expect_one_line "$stderr_text" "fresh-checkpoint/checkpoint.h5.tmp: cannot write the checkpoint at t = 4: .*$full"
[ ! -e "$work/fresh-checkpoint/checkpoint.h5" ] || fail "a checkpoint appeared"
no_temporary "$work/fresh-checkpoint"
"$exe" info "$work/fresh-checkpoint/trajectory.h5" >/dev/null
"$exe" run "${gas[@]}" "${no_frames[@]}" -o "$work/restarted" --end-time 4 -q
checkpoint=$(md5sum < "$work/restarted/checkpoint.h5")
expect_exit 1 limited 400 "$exe" run --restart "$work/restarted" --end-time 8 -q
expect_one_line "$stderr_text" "restarted/checkpoint.h5.tmp: cannot write the checkpoint at t = 8: .*$full"
[ "$checkpoint" = "$(md5sum < "$work/restarted/checkpoint.h5")" ] || fail "the checkpoint was changed"
[ ! -e "$work/restarted/checkpoint.prev.h5" ] || fail "the checkpoint was moved"
"$exe" info "$work/restarted/checkpoint.h5" "$work/restarted/trajectory.h5" >/dev/null
no_temporary "$work/restarted"
echo "full disk: ok"
