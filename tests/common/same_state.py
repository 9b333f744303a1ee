#!/usr/bin/env python3
"""same_state.py REF OUT: two runs of one model ended in the same state, bit
for bit: the state hash of summary.json, every frame of the trajectory
(positions, velocities, ids, tethers, observables), every dataset of the
final checkpoint's state, and every count of summary.json (events by kind,
responses, loadings, attachments, escapes, the final observables). What
legitimately differs between rank counts (the engine's work counters, the
rank count, timings, output paths) is not compared.
Exit 0 when the same, 1 when not (each difference on one line)."""
import json
import sys

import h5py
import numpy as np

TRAJECTORY = ["/particles/all/position/value", "/particles/all/position/time",
              "/particles/all/velocity/value", "/particles/all/id/value",
              "/particles/all/species/value", "/connectivity/tethers/value",
              "/observables/kinetic_energy/value", "/observables/kinetic_energy/time",
              "/observables/event_counts/value", "/observables/momentum/value",
              "/parameters/tethersim/tether_counts", "/parameters/tethersim/tether_rows",
              "/particles/all/position/step", "/observables/kinetic_energy/step",
              "/particles/all/box/edges/value", "/particles/all/mass"]
CHECKPOINT = ["/checkpoint/particles", "/checkpoint/tethers", "/checkpoint/loaded_edges",
              "/checkpoint/escapes", "/checkpoint/releases", "/checkpoint/periodic_ticks"]


def datasets(f, path):
    """Every dataset at or below path, by name."""
    if path not in f:
        return {}
    node = f[path]
    if isinstance(node, h5py.Dataset):
        return {path: node}
    out = {}
    node.visititems(lambda name, obj: out.__setitem__(path + "/" + name, obj)
                    if isinstance(obj, h5py.Dataset) else None)
    return out


def same_bits(a, b):
    """Same shape and type and identical bytes (NaNs and signed zeros too)."""
    x, y = a[()], b[()]
    return (a.shape == b.shape and a.dtype == b.dtype and
            np.asarray(x).tobytes() == np.asarray(y).tobytes())


def compare(ref, out, file, paths):
    problems = []
    with h5py.File(f"{ref}/{file}", "r") as fa, h5py.File(f"{out}/{file}", "r") as fb:
        for path in paths:
            da, db = datasets(fa, path), datasets(fb, path)
            if not da and not db:
                continue
            if da.keys() != db.keys():
                problems.append(f"{file}: {path} holds other datasets")
                continue
            problems += [f"{file}: {name} differs" for name in sorted(da) if not same_bits(da[name], db[name])]
    return problems


# summary.json keys whose values are the same on any number of ranks and
# across restarts ("initial" too, unless one of the runs was restarted).
SUMMARY_COUNTS = ["end_time", "events", "collisions", "events_by_kind", "collision_responses", "loadings",
                  "instantaneous_collisions", "capped_loadings", "largest_loaded_group", "attachments",
                  "detachments", "releases", "escapes", "final"]


def compare_counts(a, b):
    problems = []
    keys = list(SUMMARY_COUNTS)
    if not a.get("restarted") and not b.get("restarted"):
        keys.append("initial")
    for key in keys:
        if a.get(key) != b.get(key):
            problems.append(f"summary.json: {key} differs: {a.get(key)} and {b.get(key)}")
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_state.py REF_DIR OUT_DIR")
    ref, out = sys.argv[1], sys.argv[2]
    summaries = [json.load(open(f"{d}/summary.json")) for d in (ref, out)]
    hashes = [s["state_hash"] for s in summaries]
    problems = [] if hashes[0] == hashes[1] else [f"state hash differs: {hashes[0]} and {hashes[1]}"]
    problems += compare_counts(*summaries)
    problems += compare(ref, out, "trajectory.h5", TRAJECTORY)
    problems += compare(ref, out, "checkpoint.h5", CHECKPOINT)
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"same state: {out} ({hashes[1]})")


if __name__ == "__main__":
    main()
