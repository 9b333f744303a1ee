#!/usr/bin/env bash
# event_at_end_time.sh EXE SOURCE_DIR WORKDIR: the convention for events at
# exactly a frame time, the end time or a restart's split time. Intervals
# are half-open: a frame at t (and a run ending at t) shows the state after
# every event before t and none at t; the events at t open the next
# interval, so a run continued from a checkpoint at t processes them first
# and ends in the state of a straight run.
# A falling particle gets a gravity tick every 0.25 (exact in binary), at
# 0.25, 0.5, ...: ticks fall exactly on the frames (every 1) and the ends.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$1 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cat > fall.toml <<'TOML'
[model]
name = "fall"
[run]
end_time = 2.0
[domain]
lo = [0.0, 0.0, 0.0]
hi = [10.0, 10.0, 100.0]
boundary = "reflective"
[[species]]
name = "A"
mass = 1.0
radius = 0.5
[[pair]]
species = ["A", "A"]
blocking = 1.0
c = 1.0
[[external]]
kind = "gravity"
g = [0.0, 0.0, -1.0]
interval = 0.25
species = ["A"]
[initial]
particle = [{ species = "A", position = [5.0, 5.0, 90.0] }]
[output]
frame_interval = 1.0
TOML
"$exe" run fall.toml -o split -q
"$exe" run --restart split --end-time 3 -q
"$exe" run fall.toml --end-time 3 -o straight -q
same_state straight split
/usr/bin/python3 - <<'PY' || fail "frames do not follow the half-open convention"
import h5py, sys
with h5py.File("straight/trajectory.h5", "r") as f:
    t = f["/particles/all/velocity/time"][()]
    vz = f["/particles/all/velocity/value"][:, 0, 2]
# Ticks strictly before each frame time: 0 at t=0, 3 at t=1, 7 at t=2, 11 at t=3
# (each changes v_z by -g * interval = -0.25).
expected = {0.0: 0.0, 1.0: -0.75, 2.0: -1.75, 3.0: -2.75}
bad = [(ti, v) for ti, v in zip(t, vz) if expected[ti] != v]
if bad:
    print("frame velocities", list(zip(t, vz)), file=sys.stderr)
    sys.exit(1)
PY
# The run that ended at t = 2 stopped before the tick at 2 (7 ticks, not 8).
ticks=$(/usr/bin/python3 -c "import json; print(json.load(open('split/summary.json'))['events_by_kind']['periodic_impulse'])")
[ "$ticks" = 11 ] || fail "the continued run counts $ticks ticks, expected 11"
echo "events at frame and end times open the next interval; the split run equals the straight one"
