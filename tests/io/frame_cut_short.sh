#!/usr/bin/env bash
# A frame cut short by a kill: every frame dataset one frame longer, with
# nothing written in the new frame (what a kill between a frame's extension
# and its last write leaves; the particle rows are not filled in advance,
# so they hold whatever the disk held). Its time reads NaN (the time is
# written last, over a NaN fill), so a reader can tell; a restart from the
# checkpoint removes it and appends the next frames after the last whole
# one, as the same run without the kill wrote them.
#   frame_cut_short.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
gas=("$src/examples/gas.toml" --set initial.parameters.cells=4 --set output.frame_interval=0.5
     --set output.checkpoint_interval=1.0)
"$exe" run "${gas[@]}" -o "$work/straight" --end-time 3 -q
"$exe" run "${gas[@]}" -o "$work/killed" --end-time 2 -q

/usr/bin/python3 - "$work/killed/trajectory.h5" <<'PY'
import math, sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    frames = f["particles/all/position/time"].shape[0]
    grown = set()
    def grow(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.maxshape and obj.maxshape[0] is None \
                and obj.shape[0] == frames and obj.id not in grown:
            obj.resize(frames + 1, axis=0)
            grown.add(obj.id)
    for group in ("particles", "connectivity", "parameters/tethersim"):
        f[group].visititems(grow)
    time = f["particles/all/position/time"]
    if time.shape[0] != frames + 1 or not math.isnan(time[frames]):
        sys.exit(f"the cut-short frame's time is {time[frames]}, not NaN")
    print(f"{frames} whole frames and one cut short (time NaN), {len(grown)} datasets grown")
PY

"$exe" run --restart "$work/killed" --end-time 3 -q
/usr/bin/python3 - "$work/straight/trajectory.h5" "$work/killed/trajectory.h5" <<'PY'
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    for path in ("particles/all/position/time", "particles/all/position/value", "particles/all/id/value"):
        x, y = a[path][...], b[path][...]
        if x.shape != y.shape or not np.array_equal(x, y, equal_nan=True):
            sys.exit(f"{path}: the restarted trajectory differs from the straight run's ({y.shape} against {x.shape})")
    print(f"the restart removed the cut-short frame: {b['particles/all/position/time'].shape[0]} frames, as the straight run")
PY
