#!/usr/bin/env bash
# [initial] from: a new run starting from the state of another (a checkpoint
# or a trajectory frame) with changed physics keeps ids, species and tethers.
#   start_from_state.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"
"$exe" run "$src/examples/presynaptic.toml" -o eq --end-time 2 --set output.frame_interval=1 -q
# The model with its generator replaced by the state, and other physics.
/usr/bin/python3 - "$src/examples/presynaptic.toml" <<'PY'
import sys
text = open(sys.argv[1]).read()
head, rest = text.split("[initial]\n", 1)
tail = rest[rest.index("[output]"):]
head = head.replace("seed = 2009", "seed = 7")
changed = head.replace('species = ["V", "V"]', 'species = ["V", "V"]\nc_rebound = 0.5', 1)
assert changed != head
for name, source in (("from-checkpoint", 'from = "eq/checkpoint.h5"'),
                     ("from-frame", 'from = "eq/trajectory.h5"\nframe = -1')):
    open(f"{name}.toml", "w").write(changed + "[initial]\n" + source + "\n\n" + tail)
# A model without the state's species cannot take it.
open("other.toml", "w").write("""
[run]
end_time = 1.0
[domain]
lo = [-300.0, -300.0, -300.0]
hi = [300.0, 300.0, 300.0]
[[species]]
name = "A"
mass = 1.0
[[pair]]
species = ["A", "A"]
blocking = 0.0
[initial]
from = "eq/checkpoint.h5"
""")
PY
"$exe" run from-checkpoint.toml -o a --end-time 1 -q || fail "start from a checkpoint"
"$exe" run from-frame.toml -o b --end-time 1 -q || fail "start from a trajectory frame"
/usr/bin/python3 - <<'PY' || fail "the started runs do not begin with the state"
import h5py, numpy as np
with h5py.File("eq/trajectory.h5") as e, h5py.File("a/trajectory.h5") as a, h5py.File("b/trajectory.h5") as b:
    if e["particles/all/position/time"][-1] != 2.0:
        raise SystemExit("eq has no frame at t = 2")
    for f in (a, b):
        part, old = f["particles/all"], e["particles/all"]
        assert f["particles/all/position/time"][0] == 0.0
        assert np.array_equal(part["id/value"][0], old["id/value"][-1])
        assert np.array_equal(part["species"][:], old["species"][:])
        assert np.allclose(part["position/value"][0], old["position/value"][-1], rtol=0, atol=1e-9, equal_nan=True)
        assert np.array_equal(part["velocity/value"][0], old["velocity/value"][-1])
        m, n = f["parameters/tethersim/tether_counts"][0], e["parameters/tethersim/tether_counts"][-1]
        assert np.array_equal(f["connectivity/tethers/value"][0, :m], e["connectivity/tethers/value"][-1, :n])
PY
expect_exit 2 "$exe" run other.toml -o c -q
expect_one_line "$stderr_text" "the state has species '[A-Z]', which this model does not define"
echo "start from state: ok"
