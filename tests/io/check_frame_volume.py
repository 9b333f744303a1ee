#!/usr/bin/env python3
"""check_frame_volume.py FULL REDUCED SPECIES...: REDUCED is the same run as
FULL written with output.frame_precision = "single", frame_compression = 4
and frame_species = SPECIES. Its frames hold exactly FULL's rows of those
species (ids, species, masses), positions and velocities are FULL's rounded
to float32, its tethers are FULL's between two kept particles, its
observables (which count every particle) are FULL's, the datasets carry the
deflate and shuffle filters, the XDMF sidecar reads 4-byte floats, and
MDAnalysis's H5MD reader opens it.
Exit 0 when all holds, 1 with one line per problem."""
import os
import sys
import warnings

import h5py
import numpy as np

full_dir, reduced_dir, *kept = sys.argv[1:]
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def names_of(dataset):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in dataset.attrs["names"]]


with h5py.File(f"{full_dir}/trajectory.h5", "r") as f, h5py.File(f"{reduced_dir}/trajectory.h5", "r") as r:
    fa, ra = f["particles/all"], r["particles/all"]
    names = names_of(fa["species"])
    keep = np.isin(fa["species"][()], [names.index(s) for s in kept])
    check(0 < keep.sum() < keep.size, f"the kept species hold {keep.sum()} of {keep.size} particles")
    check(ra["position/value"].shape[1] == keep.sum(), "the rows are not the kept species' particles")
    check(np.array_equal(ra["species"][()], fa["species"][()][keep]), "species of the rows differ")
    check(np.array_equal(ra["mass"][()], fa["mass"][()][keep]), "masses of the rows differ")
    check(np.array_equal(ra["id/value"][()], fa["id/value"][()][:, keep]), "ids of the rows differ")
    for field in ("position", "velocity"):
        stored = ra[f"{field}/value"]
        check(stored.dtype == np.float32, f"{field} is {stored.dtype}, not float32")
        check(stored.compression == "gzip" and stored.compression_opts == 4 and stored.shuffle,
              f"{field} is not deflated at level 4 with shuffle")
        expected = fa[f"{field}/value"][()][:, keep, :].astype(np.float32)
        check(np.array_equal(stored[()], expected, equal_nan=True), f"{field} is not the full run's, rounded")
    check(ra["id/value"].compression == "gzip", "ids are not compressed")
    check(np.array_equal(ra["position/time"][()], fa["position/time"][()]), "frame times differ")
    check(np.array_equal(ra["position/step"][()], fa["position/step"][()]), "frame steps differ")
    kept_ids = set(fa["id/value"][0][keep].tolist())
    full_counts = f["parameters/tethersim/tether_counts"][()]
    counts = r["parameters/tethersim/tether_counts"][()]
    some_dropped = False
    for k in range(len(full_counts)):
        pairs = f["connectivity/tethers/value"][k, :full_counts[k]]
        inside = np.array([p for p in pairs.tolist() if p[0] in kept_ids and p[1] in kept_ids],
                          dtype=np.int64).reshape(-1, 2)
        some_dropped |= len(inside) < len(pairs)
        stored = r["connectivity/tethers/value"][k, :counts[k]]
        check(np.array_equal(stored, inside), f"frame {k}: tethers are not the full run's between kept particles")
        rows = r["parameters/tethersim/tether_rows"][k, :counts[k]]
        row_ids = ra["id/value"][k]
        check(np.array_equal(row_ids[rows], stored) if len(rows) else True, f"frame {k}: tether rows differ")
    check(some_dropped, "no tether reached a particle of another species: the test checks nothing")
    for name in f["observables"]:
        check(np.array_equal(f[f"observables/{name}/value"][()], r[f"observables/{name}/value"][()]),
              f"observable {name} differs")
    attribute = [s.decode() if isinstance(s, bytes) else s for s in r["parameters/tethersim"].attrs["frame_species"]]
    check(attribute == kept, f"frame_species attribute {attribute}")

with open(f"{reduced_dir}/trajectory.xdmf") as x:
    sidecar = x.read()
check('Precision="4" Format="HDF">trajectory.h5:/particles/all/position/value' in sidecar,
      "the XDMF sidecar does not read positions as 4-byte floats")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
warnings.filterwarnings("ignore")
import tethersim  # noqa: E402

with tethersim.open_run(reduced_dir) as run, h5py.File(f"{reduced_dir}/trajectory.h5", "r") as r:
    universe = run.universe(convert_units=False)
    stored = r["particles/all/position/value"]
    check(universe.trajectory.n_frames == stored.shape[0], "MDAnalysis sees another frame count")
    for ts in universe.trajectory:
        check(np.allclose(ts.positions, stored[ts.frame], equal_nan=True),
              f"frame {ts.frame}: MDAnalysis positions differ")

for p in problems:
    print(f"FAIL: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
