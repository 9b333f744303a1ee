#!/usr/bin/env python3
"""Trajectories that other tools read: MDAnalysis's H5MD reader, GSD (for
OVITO and freud) and the tethersim Python package, checked against the
numbers in the file.

    other_readers.py TETHERSIM SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import warnings

import h5py
import numpy as np

exe, source, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(source, "python"))
import tethersim  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(*args):
    subprocess.run([exe, "run", *args, "-q"], check=True)


# 1. The presynaptic terminal (box -280..280, nm) read by MDAnalysis, with
#    a time unit MDAnalysis knows so that it converts (nm -> Angstrom, ns -> ps).
run(os.path.join(source, "examples/presynaptic.toml"), "-o", "pre", "--end-time", "3",
    "--set", "output.frame_interval=0.5", "--set", 'model.units.time="ns"')
with tethersim.open_run("pre") as r, h5py.File("pre/trajectory.h5", "r") as f:
    part = f["particles/all"]
    if part["position/value"].attrs["unit"] != b"nm" and part["position/value"].attrs["unit"] != "nm":
        fail("position unit is not nm")
    universe = r.universe()
    frames = part["position/value"].shape[0]
    if universe.trajectory.n_frames != frames or frames != 7:
        fail(f"MDAnalysis sees {universe.trajectory.n_frames} frames, the file has {frames}")
    if len(universe.atoms) != part["position/value"].shape[1]:
        fail("MDAnalysis sees another particle count")
    observables = f["observables"]
    for ts in universe.trajectory:
        k = ts.frame
        stored = part["position/value"][k]
        if not np.allclose(ts.positions, stored * 10, rtol=1e-6, atol=1e-4, equal_nan=True):
            fail(f"frame {k}: MDAnalysis positions differ from the file's")
        edges = np.diagonal(part["box/edges/value"][k])
        if not np.allclose(ts.dimensions[:3], edges * 10) or not np.allclose(ts.dimensions[3:], 90):
            fail(f"frame {k}: box {ts.dimensions}, file {edges}")
        if not np.isclose(ts.time, part["position/time"][k] * 1000):
            fail(f"frame {k}: time {ts.time}, file {part['position/time'][k]} ns")
        # Observables are sampled at the frame times here: MDAnalysis reads
        # sample k with frame k, and the step clock agrees.
        if ts.data["kinetic_energy"] != observables["kinetic_energy/value"][k]:
            fail(f"frame {k}: kinetic energy misaligned")
        if ts.data["step"] != observables["kinetic_energy/step"][k]:
            fail(f"frame {k}: frame and observable steps differ")
        present = ~np.isnan(stored[:, 0])
        if not np.all((stored[present] >= 0) & (stored[present] <= edges)):
            fail(f"frame {k}: positions are not in the box frame [0, edges]")
    # The frames' spacing, 0.5 ns, is the universe's dt (lag times of MSDs).
    if universe.trajectory.dt != 500.0 or universe.trajectory.units != {"length": "Angstrom", "time": "ps"}:
        fail(f"universe dt {universe.trajectory.dt}, units {universe.trajectory.units}")
    # The package gives the model's coordinates back.
    frame = r.frame(0)
    lo = f["particles/all/box/offset"][:]
    if not np.allclose(frame.positions, part["position/value"][0] + lo, equal_nan=True) or lo[0] != -280:
        fail("Run.frame does not return model coordinates")
    table = r.observables()
    if any(" " in c for c in table.columns) or "event_counts_blocking" not in table.columns:
        fail(f"observable columns: {list(table.columns)}")
    if not np.array_equal(table["kinetic_energy"].to_numpy(), observables["kinetic_energy/value"][:]):
        fail("observables DataFrame differs from the file")
    if r.units != {"length": "nm", "time": "ns", "mass": "nm3"}:
        fail(f"units {r.units}")
    if f["observables/kinetic_energy/value"].attrs["unit"] not in (b"nm3 nm+2 ns-2", "nm3 nm+2 ns-2"):
        fail("kinetic energy unit")
    edges = r.tethers(0)
    ids = part["id/value"][0]
    if len(edges) != f["parameters/tethersim/tether_counts"][0] or not np.all(np.isin(edges, ids)):
        fail("tether edge list")
# The example's own units ("tu" is no unit MDAnalysis knows): lengths are
# converted as for "ns" (nm -> Angstrom), times kept and declared as "tu".
run(os.path.join(source, "examples/presynaptic.toml"), "-o", "tu", "--end-time", "1",
    "--set", "output.frame_interval=0.5")
with tethersim.open_run("tu") as r, h5py.File("tu/trajectory.h5", "r") as f:
    universe = r.universe()
    if universe.trajectory.n_frames != 3:
        fail("in-memory universe frames")
    for ts in universe.trajectory:
        if not np.allclose(ts.positions, f["particles/all/position/value"][ts.frame] * 10, rtol=1e-6, atol=1e-3,
                           equal_nan=True):
            fail(f"in-memory universe frame {ts.frame}")
        if not np.allclose(ts.dimensions[:3], np.diagonal(f["particles/all/box/edges/value"][ts.frame]) * 10):
            fail("in-memory universe box")
        if ts.time != f["particles/all/position/time"][ts.frame]:
            fail(f"frame {ts.frame}: time {ts.time} tu, file {f['particles/all/position/time'][ts.frame]}")
    if universe.trajectory.units != {"length": "Angstrom", "time": "tu"} or universe.trajectory.dt != 0.5:
        fail(f"declared units {universe.trajectory.units}, dt {universe.trajectory.dt}")
with open("pre/summary.json") as stream:
    if json.load(stream)["units"] != {"length": "nm", "time": "ns", "mass": "nm3"}:
        fail("summary.json units")

# 2. Ids that are not row numbers: ids 5, 9, 20 and a tether 9-20 are stored
#    as ids [[9, 20]] (H5MD), with the rows [[1, 2]] beside them for XDMF.
with open("ids.toml", "w") as stream:
    stream.write("""
[model.units]
length = "nm"
time = "ps"
[run]
end_time = 1.0
[domain]
lo = [-10.0, -10.0, -10.0]
hi = [10.0, 10.0, 10.0]
boundary = "periodic"
[[species]]
name = "A"
mass = 1.0
radius = 0.5
[[pair]]
species = ["A", "A"]
tethering = 3.0
c = 1.0
[initial]
particle = [{ id = 5, species = "A", position = [-5.0, 0.0, 0.0] },
            { id = 9, species = "A", position = [0.0, 0.0, 0.0] },
            { id = 20, species = "A", position = [2.0, 0.0, 0.0] }]
tethers = [[9, 20]]
[output]
frame_interval = 0.5
""")
run("ids.toml", "-o", "ids")
with h5py.File("ids/trajectory.h5", "r") as f:
    if f["connectivity/tethers/value"][0].tolist() != [[9, 20]]:
        fail(f"tethers {f['connectivity/tethers/value'][0].tolist()}, expected ids [[9, 20]]")
    if f["parameters/tethersim/tether_rows"][0].tolist() != [[1, 2]]:
        fail("tether rows")
    if not np.allclose(f["particles/all/position/value"][0], [[5, 10, 10], [10, 10, 10], [12, 10, 10]]):
        fail("positions are not in the box frame")
with open("ids/trajectory.xdmf") as stream:
    if "tether_rows" not in stream.read():
        fail("the XDMF tether lines do not use the row pairs")
with tethersim.open_run("ids") as r:
    if r.tethers(0).tolist() != [[9, 20]] or r.tether_rows(0).tolist() != [[1, 2]]:
        fail("package tethers")
    universe = r.universe()  # nm and ps: converted
    if not np.allclose(universe.trajectory[0].positions[0], [50, 100, 100]):
        fail("MDAnalysis positions of the id model")
    if len(universe.bonds) != 1 or list(universe.bonds[0].indices) != [1, 2]:
        fail("MDAnalysis bonds")

# 3. GSD: tethers as bonds, boxes centred on the origin.
import gsd.hoomd  # noqa: E402
if tethersim.export_gsd("ids", "ids.gsd") != 3:
    fail("GSD frames")
with gsd.hoomd.open("ids.gsd", "rb") as g:
    first = g[0]
    if first.particles.N != 3 or first.bonds.group.tolist() != [[1, 2]]:
        fail("GSD particles or bonds")
    if not np.allclose(first.particles.position[0], [-5, 0, 0]) or not np.allclose(first.configuration.box[:3], 20):
        fail("GSD positions or box")
    if first.log["particles/id"].tolist() != [5, 9, 20]:
        fail("GSD ids")

# 4. One coordinate convention, stated per reader (output-format.md, 11.3):
#    model coordinates = frame() = universe (box frame, Angstrom here) +
#    box_offset = GSD + its "tethersim/origin".
with tethersim.open_run("ids") as r, gsd.hoomd.open("ids.gsd", "rb") as g:
    model = r.frame(1).positions
    from_universe = r.universe().trajectory[1].positions / 10 + r.box_offset
    from_gsd = g[1].particles.position + g[1].log["tethersim/origin"]
    if not np.allclose(model, from_universe, atol=1e-5) or not np.allclose(model, from_gsd, atol=1e-5):
        fail(f"coordinates differ: frame {model}, universe {from_universe}, GSD {from_gsd}")

# 5. A run without frames: a clear error, no empty GSD file.
run("ids.toml", "-o", "noframes", "--set", "output.frame_interval=inf")
with tethersim.open_run("noframes") as r:
    for what, call in (("universe", r.universe), ("GSD", lambda: tethersim.export_gsd(r, "noframes.gsd"))):
        try:
            call()
            fail(f"{what} of a run without frames did not fail")
        except tethersim.TrajectoryError as error:
            if "wrote no frames" not in str(error):
                fail(f"{what}: unclear error {error}")
    if os.path.exists("noframes.gsd"):
        fail("an empty GSD file was written")
print("other readers: ok")
