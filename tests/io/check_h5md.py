#!/usr/bin/env python3
"""Checks a trajectory against the H5MD 1.1 specification's required
structure (and tethersim's documented additions). Exit 0 when conforming,
else one line per problem and exit 1.

    check_h5md.py DIR/trajectory.h5
"""
import sys

import h5py
import numpy as np

problems = []


def need(condition, message):
    if not condition:
        problems.append(message)


def check_time_element(group, name, frames=None):
    need(isinstance(group.get(name), h5py.Group), f"{name}: a time-dependent element is a group")
    g = group[name]
    for part in ("step", "time", "value"):
        need(part in g, f"{name}/{part} missing")
    if "step" in g and "value" in g:
        need(g["step"].shape[0] == g["value"].shape[0], f"{name}: step and value disagree in length")
        need(g["step"].dtype.kind == "i", f"{name}/step must be integer")
        steps = g["step"][...]
        need(np.all(np.diff(steps) > 0), f"{name}/step must increase")
    if "time" in g:
        times = g["time"][...]
        need(np.all(np.diff(times) > 0), f"{name}/time must increase")
    if frames is not None and "value" in g:
        need(g["value"].shape[0] == frames, f"{name}: {g['value'].shape[0]} frames, expected {frames}")


def main(path):
    f = h5py.File(path, "r")
    need("h5md" in f, "/h5md missing")
    h5md = f["h5md"]
    need(list(h5md.attrs.get("version", [])) == [1, 1], "/h5md version must be [1, 1]")
    need("author" in h5md and "name" in h5md["author"].attrs, "/h5md/author name missing")
    need("creator" in h5md and {"name", "version"} <= set(h5md["creator"].attrs), "/h5md/creator name/version missing")
    need("particles" in f and "all" in f["particles"], "/particles/all missing")
    group = f["particles/all"]
    box = group["box"]
    dimension = int(box.attrs["dimension"])
    need(dimension in (1, 2, 3), "box dimension must be 1, 2 or 3")
    boundary = [b.decode() if isinstance(b, bytes) else str(b) for b in box.attrs["boundary"]]
    need(len(boundary) == dimension and set(boundary) <= {"periodic", "none"}, f"bad box boundary {boundary}")
    check_time_element(group, "position")
    frames, n, d = group["position/value"].shape
    # Time-dependent box, one D x D edge matrix per frame (MDAnalysis reads only that).
    check_time_element(box, "edges", frames)
    need(box["edges/value"].shape[1:] == (dimension, dimension), "box edges must be a D x D matrix per frame")
    need(int(f["parameters/tethersim"].attrs.get("layout", 0)) == 2, "layout attribute must be 2")
    need("mass" in group and group["mass"].shape == (n,), "mass must be one value per particle")
    need(d == dimension, "position's last dimension must be the box dimension")
    for name in ("velocity", "id"):
        if name in group:
            check_time_element(group, name, frames)
    need(group["id/value"].dtype.kind == "i", "id must be integer")
    need(group["id"]["value"].fillvalue == -1, "id fill value must be -1")
    ids = group["id/value"][...]
    positions = group["position/value"][...]
    need(np.array_equal(ids < 0, np.isnan(positions[..., 0])), "absent particles must have id -1 and NaN positions")
    present = ids[ids >= 0]
    # Positions in the box frame: inside [0, edges) on periodic axes.
    edges = np.diagonal(box["edges/value"][...], axis1=1, axis2=2) if frames else np.zeros((0, d))
    for k in range(d):
        if boundary[k] == "periodic" and frames:
            x = positions[..., k][ids >= 0]
            need(np.all((x >= 0) & (x <= edges[0, k])), f"axis {k}: periodic positions must lie in [0, edge)")
    for k in range(frames):
        row = ids[k][ids[k] >= 0]
        need(np.all(np.diff(row) > 0), f"frame {k}: rows must be in increasing id order")
    need(group["species"].shape == (n,), "species must be one value per particle")
    need("names" in group["species"].attrs, "species names missing")
    if "connectivity" in f:
        tethers = f["connectivity/tethers"]
        check_time_element(f["connectivity"], "tethers", frames)
        need(tethers["value"].shape[2] == 2, "tethers are pairs")
        need(isinstance(tethers.attrs.get("particles_group"), h5py.Reference), "particles_group reference missing")
        counts = f["parameters/tethersim/tether_counts"][...]
        values = tethers["value"][...]
        for k in range(frames):
            valid = values[k, : counts[k]]
            need(np.all(np.isin(valid, ids[k][ids[k] >= 0])), f"frame {k}: tethers must be ids of present particles")
            need(np.all(valid[:, 0] < valid[:, 1]), f"frame {k}: tethers must have the lower id first")
            need(np.all(values[k, counts[k]:] == -1), f"frame {k}: tether pairs beyond the count must be -1")
    need("observables" in f, "/observables missing")
    for name, element in f["observables"].items():
        check_time_element(f["observables"], name)
    # One step clock: a frame and a sample at the same time have the same step.
    frame_steps = dict(zip(group["position/time"][...], group["position/step"][...]))
    observables = f["observables/kinetic_energy"]
    for t, step in zip(observables["time"][...], observables["step"][...]):
        need(frame_steps.get(t, step) == step, f"t = {t}: frame and sample steps differ")
    del present
    for p in problems:
        print(f"{path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
