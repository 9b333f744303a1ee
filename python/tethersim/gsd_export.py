"""A trajectory as a GSD file (HOOMD-blue's format, read by OVITO and
freud): one GSD frame per trajectory frame, present particles only, tethers
as bonds of type "tether"."""

import numpy as np

from .run import Run


def export_gsd(run, path):
    """Writes run (a Run or an output directory) to the GSD file `path`;
    returns the number of frames written.

    GSD boxes are centred on the origin, so positions are in the box-centred
    frame: model coordinates = GSD positions + the log entry
    "tethersim/origin" (the box centre). Lengths and times are the model's
    own units (GSD has none). A frame holds the particles present in it (N
    may fall from frame to frame); their tethersim ids are in the log entry
    "particles/id". A run without frames raises TrajectoryError (no empty
    file is written).
    """
    import gsd.hoomd
    if not isinstance(run, Run):
        run = Run(run)
    run.require_frames("a GSD file")
    snapshot_type = getattr(gsd.hoomd, "Frame", None) or gsd.hoomd.Snapshot
    names = run.species_names
    radii = run.species_radii
    d = run.dimensions
    written = 0
    with gsd.hoomd.open(name=path, mode="wb") as out:
        for frame in run.frames():
            k = frame.index
            edges = np.ones(3)
            edges[:d] = run.box_edges(k)
            centre = np.zeros(3)
            centre[:d] = run.box_offset + run.box_edges(k) / 2
            rows = np.flatnonzero(frame.present)
            position = np.zeros((len(rows), 3))
            position[:, :d] = frame.positions[rows]
            snap = snapshot_type()
            snap.configuration.step = frame.step
            snap.configuration.dimensions = 3 if d == 3 else 2
            snap.configuration.box = [*edges, 0, 0, 0]
            snap.particles.N = len(rows)
            snap.particles.types = names
            snap.particles.typeid = frame.species[rows].astype(np.uint32)
            snap.particles.position = (position - centre).astype(np.float32)
            snap.particles.diameter = (2 * radii[frame.species[rows]]).astype(np.float32)
            if frame.velocities is not None:
                velocity = np.zeros((len(rows), 3))
                velocity[:, :d] = frame.velocities[rows]
                snap.particles.velocity = velocity.astype(np.float32)
            # Bonds index the particles of this GSD frame, not the rows.
            index = np.full(len(frame.ids), -1, dtype=np.int64)
            index[rows] = np.arange(len(rows))
            pairs = index[run.tether_rows(k)] if len(run.tether_rows(k)) else np.zeros((0, 2), np.int64)
            snap.bonds.N = len(pairs)
            snap.bonds.types = ["tether"]
            snap.bonds.typeid = np.zeros(len(pairs), dtype=np.uint32)
            snap.bonds.group = pairs.astype(np.uint32).reshape(-1, 2)
            snap.log["particles/id"] = frame.ids[rows].astype(np.int64)
            snap.log["time"] = np.array([frame.time])
            snap.log["tethersim/origin"] = centre
            out.append(snap)
            written += 1
    return written


def main(argv=None):
    """python3 -m tethersim.gsd_export DIR OUT.gsd"""
    import argparse
    parser = argparse.ArgumentParser(prog="python3 -m tethersim.gsd_export",
                                     description="Writes a tethersim trajectory as GSD (tethers as bonds).")
    parser.add_argument("directory", help="output directory of a run (or its trajectory.h5)")
    parser.add_argument("output", help="GSD file to write")
    args = parser.parse_args(argv)
    frames = export_gsd(args.directory, args.output)
    print(f"{args.output}: {frames} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
