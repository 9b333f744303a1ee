#!/usr/bin/env python3
"""Render one frame of a tethersim trajectory as a matplotlib picture.

Usage:
    render_frame.py DIR [--frame K | --time T] [-o OUT.png] [options]

DIR is a run's output directory (or its trajectory.h5). The frame is the
last one unless --frame K (an index; negative counts from the end) or
--time T (the frame nearest to simulated time T) is given.

Particles are coloured by species, with the species names in the legend,
and sized by the species radius taken from the model text stored in the
trajectory (with any species.X.radius override recorded for the run).
Species whose particles are large next to the box (membrane shells, active
zones) are drawn as outlines, and tethers to them are left out unless
--all-tethers is given. Absent particles (escaped: NaN rows, id -1) are
skipped. Tethers are thin grey segments. 3-D data give a 3-D scatter with
equal axis scaling, 2-D data a flat scatter, and 1-D data plot x against
the particle row. Above --max-points particles and --max-tethers tethers a
random subset is drawn and the title says so.

The image goes to DIR/frame_<K>.png unless -o is given; the path written is
printed. Exit codes: 0 written, 2 bad input (missing file, not a tethersim
trajectory, no such frame).
"""

import argparse
import os

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

import tethersim_output as out

FIGURE_SIZE = (9.0, 8.0)  # inches


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", metavar="DIR", help="run output directory (or its trajectory.h5)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--frame", type=int, metavar="K", help="frame index (default: the last; negative counts from the end)")
    which.add_argument("--time", type=float, metavar="T", help="the frame nearest to simulated time T")
    parser.add_argument("-o", "--output", metavar="OUT.png", help="image to write (default DIR/frame_<K>.png)")
    parser.add_argument("--max-points", type=int, default=200000, metavar="N",
                        help="draw a random subset above N particles (default 200000)")
    parser.add_argument("--max-tethers", type=int, default=20000, metavar="N",
                        help="draw a random subset above N tethers (default 20000)")
    parser.add_argument("--all-tethers", action="store_true",
                        help="also draw tethers to particles shown as outlines")
    parser.add_argument("--no-tethers", action="store_true", help="draw no tethers")
    parser.add_argument("--fit", action="store_true", help="zoom to the particles instead of the whole box")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the image (default 110)")
    return parser.parse_args()


def select_frame(times, frame=None, time=None):
    """The non-negative index of the requested frame."""
    count = len(times)
    if count == 0:
        raise out.UsageError("the trajectory has no frames (frame_interval = inf?)")
    if time is not None:
        return int(np.argmin(np.abs(times - time)))
    if frame is None:
        return count - 1
    if not -count <= frame < count:
        raise out.UsageError(f"no frame {frame}: the trajectory has {count} frames (0 to {count - 1})")
    return frame % count


class Frame:
    """One frame: positions of present particles and the tethers between them."""

    def __init__(self, f, k):
        self.index = k
        self.time = float(f["particles/all/position/time"][k])
        self.positions = out.positions(f, k)
        ids = f["particles/all/id/value"][k] if "particles/all/id/value" in f else None
        present = ~np.isnan(self.positions).any(axis=1)
        if ids is not None:
            present &= ids >= 0
        self.present = present
        self.species = f["particles/all/species"][:]
        self.tethers = read_tethers(f, k, present)

    @property
    def dimensions(self):
        return self.positions.shape[1]


def read_tethers(f, k, present):
    """Tether rows [M, 2] of frame k whose two particles are present."""
    pairs = out.tether_rows(f, k)
    n = len(present)
    valid = (pairs >= 0).all(axis=1) & (pairs < n).all(axis=1)
    pairs = pairs[valid]
    return pairs[present[pairs[:, 0]] & present[pairs[:, 1]]]


class Box:
    """The simulation box: lower corner, edges and periodic axes."""

    def __init__(self, f, dimensions):
        box = f["particles/all/box"]
        self.edges = out.box_edges(f)[:dimensions]
        self.lo = box["offset"][:dimensions].astype(float) if "offset" in box else np.zeros(dimensions)
        boundary = [out.decode(b) for b in box.attrs.get("boundary", [])]
        self.periodic = np.array([k < len(boundary) and boundary[k] == "periodic"
                                  for k in range(dimensions)])

    @property
    def extent(self):
        return float(self.edges.max())


def species_colours(count):
    import matplotlib
    cmap = matplotlib.colormaps["tab10" if count <= 10 else "tab20"]
    return [cmap(k % cmap.N) for k in range(count)]


def marker_diameters(radii, species_count, extent, dimensions):
    """Marker diameter in points for each species (by radius when known)."""
    if radii is None:
        return np.full(species_count, 6.0 if dimensions == 3 else 5.0)
    drawn_width = FIGURE_SIZE[0] * 72 * (0.55 if dimensions == 3 else 0.75)
    points_per_unit = drawn_width / extent
    return np.clip(2 * np.asarray(radii) * points_per_unit, 0.8, 40.0)


def subsample(indices, limit, seed=0):
    """At most `limit` of `indices` (sorted random choice); (subset, was_cut)."""
    if len(indices) <= limit:
        return indices, False
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(indices, size=limit, replace=False)), True


def tether_segments(frame, box, rows, y):
    """Segments [M, 2, 2 or 3] of the given tether rows (minimum image on periodic axes)."""
    a = frame.positions[rows[:, 0]]
    b = frame.positions[rows[:, 1]]
    if box.periodic.any():
        d = b - a
        p = box.periodic
        d[:, p] -= box.edges[p] * np.round(d[:, p] / box.edges[p])
        b = a + d
    if frame.dimensions == 1:
        a = np.column_stack([a[:, 0], y[rows[:, 0]]])
        b = np.column_stack([b[:, 0], y[rows[:, 1]]])
    return np.stack([a, b], axis=1)


def sphere_wireframe(ax, centre, radius, colour):
    u = np.linspace(0, 2 * np.pi, 25)
    v = np.linspace(0, np.pi, 13)
    x = centre[0] + radius * np.outer(np.cos(u), np.sin(v))
    y = centre[1] + radius * np.outer(np.sin(u), np.sin(v))
    z = centre[2] + radius * np.outer(np.ones_like(u), np.cos(v))
    ax.plot_wireframe(x, y, z, color=colour, linewidth=0.4, alpha=0.35, rstride=2, cstride=2)


def draw_outlines(ax, frame, species_index, radius, colour):
    from matplotlib.patches import Circle
    for row in np.flatnonzero(frame.present & (frame.species == species_index)):
        centre = frame.positions[row]
        if frame.dimensions == 3:
            sphere_wireframe(ax, centre, radius, colour)
        else:
            ax.add_patch(Circle(centre[:2], radius, fill=False, color=colour, lw=1.0, alpha=0.7))


def view_bounds(frame, box, radii, fit):
    """(lo, hi) of the view: the whole box, or with --fit the particles present."""
    lo, hi = box.lo.copy(), box.lo + box.edges
    if fit and frame.present.any():
        pos = frame.positions[frame.present]
        margin = max(radii) if radii else 0.0
        lo, hi = pos.min(axis=0) - margin, pos.max(axis=0) + margin
        hi = np.where(hi > lo, hi, lo + 1.0)
    return lo, hi


def set_limits(ax, dimensions, lo, hi, rows):
    """Equal axis scaling over [lo, hi]; in 1-D the vertical axis is the particle row."""
    ax.set_xlim(lo[0], hi[0])
    ax.set_xlabel("x")
    if dimensions == 3:
        ax.set_ylim(lo[1], hi[1])
        ax.set_zlim(lo[2], hi[2])
        ax.set_box_aspect(tuple(hi - lo), zoom=0.95)
        ax.set_ylabel("y")
        ax.set_zlabel("z")
    elif dimensions == 2:
        ax.set_ylim(lo[1], hi[1])
        ax.set_aspect("equal")
        ax.set_ylabel("y")
    else:
        ax.set_ylim(-1, rows)
        ax.set_ylabel("particle row")


def draw_tethers(ax, frame, box, rows, y):
    if len(rows) == 0:
        return
    segments = tether_segments(frame, box, rows, y)
    style = dict(colors="0.45", linewidths=0.5, alpha=0.6, zorder=1)
    if frame.dimensions == 3:
        from mpl_toolkits.mplot3d.art3d import Line3DCollection
        ax.add_collection3d(Line3DCollection(segments, **style))
    else:
        from matplotlib.collections import LineCollection
        ax.add_collection(LineCollection(segments, **style))


def draw_particles(ax, frame, rows, y, names, colours, diameters, outlines, radii):
    """Particles by species; returns the legend handles.

    All points go into one scatter so that 3-D depth sorting works across
    species; in 1-D/2-D the larger species are drawn first.
    """
    from matplotlib.lines import Line2D
    handles = []
    for s, name in enumerate(names):
        present_count = np.count_nonzero(frame.present & (frame.species == s))
        if present_count == 0:
            continue
        label = f"{name} ({present_count:,})"
        if s in outlines:
            draw_outlines(ax, frame, s, radii[s], colours[s])
            handles.append(Line2D([], [], color=colours[s], marker="o", ls="", mfc="none", ms=9, label=label))
        else:
            handles.append(Line2D([], [], color=colours[s], marker="o", ls="", ms=7, label=label))
    rows = rows[~np.isin(frame.species[rows], list(outlines))]
    if frame.dimensions < 3:
        rows = rows[np.argsort(-diameters[frame.species[rows]], kind="stable")]
    species = frame.species[rows]
    colour = np.asarray(colours)[species]
    size = diameters[species] ** 2
    p = frame.positions[rows]
    if frame.dimensions == 3:
        ax.scatter(p[:, 0], p[:, 1], p[:, 2], s=size, c=colour, linewidths=0, depthshade=True)
    else:
        ax.scatter(p[:, 0], p[:, 1] if frame.dimensions == 2 else y[rows], s=size, c=colour,
                   linewidths=0, zorder=2)
    return handles


def render(f, frame, directory, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = out.species_names(f)
    names += [str(k) for k in range(len(names), int(frame.species.max(initial=-1)) + 1)]
    box = Box(f, frame.dimensions)
    radii = out.species_radii(f, directory)
    if radii is not None and len(radii) != len(names):
        radii = None
    outlines = set()
    if frame.dimensions > 1:
        outlines = out.outline_species(radii, frame.species, frame.present, box.extent)
    colours = species_colours(len(names))
    lo, hi = view_bounds(frame, box, radii, args.fit)
    diameters = marker_diameters(radii, len(names), float((hi - lo).max()), frame.dimensions)
    y = np.arange(len(frame.present), dtype=float)  # the 1-D vertical axis
    notes = []

    rows, cut = subsample(np.flatnonzero(frame.present), args.max_points)
    if cut:
        notes.append(f"{len(rows):,} of {np.count_nonzero(frame.present):,} particles shown")
    tethers = np.zeros((0, 2), dtype=np.int64) if args.no_tethers else frame.tethers
    if outlines and not args.all_tethers and len(tethers):
        to_outline = np.isin(frame.species[tethers], list(outlines)).any(axis=1)
        if to_outline.any():
            which = ", ".join(names[s] for s in sorted(outlines))
            notes.append(f"{np.count_nonzero(to_outline):,} tethers to {which} not drawn")
        tethers = tethers[~to_outline]
    chosen, cut = subsample(np.arange(len(tethers)), args.max_tethers, seed=1)
    if cut:
        notes.append(f"{len(chosen):,} of {len(tethers):,} tethers shown")
    tethers = tethers[chosen]

    fig = plt.figure(figsize=FIGURE_SIZE)
    ax = fig.add_subplot(projection="3d" if frame.dimensions == 3 else None)
    draw_tethers(ax, frame, box, tethers, y)
    handles = draw_particles(ax, frame, rows, y, names, colours, diameters, outlines, radii)
    set_limits(ax, frame.dimensions, lo, hi, len(y))
    if handles:
        ax.legend(handles=handles, title="species", loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  fontsize=8, title_fontsize=9)
    frames = len(f["particles/all/position/time"])
    title = (f"{out.model_name(f)}: t = {frame.time:g} (frame {frame.index} of 0-{frames - 1}), "
             f"{np.count_nonzero(frame.present):,} particles, {len(frame.tethers):,} tethers")
    if radii is None:
        notes.append("sizes by species (radii unknown)")
    if frame.dimensions == 1:
        notes.append("1-D: x against particle row")
    ax.set_title(title + ("\n" + "; ".join(notes) if notes else ""), fontsize=10)
    fig.tight_layout()
    return fig


def main():
    args = parse_arguments()
    out.require_modules("numpy", "h5py", "matplotlib")
    with out.open_trajectory(args.directory) as f:
        k = select_frame(out.frame_times(f), args.frame, args.time)
        frame = Frame(f, k)
        fig = render(f, frame, args.directory, args)
    path = args.output or os.path.join(out.output_directory(args.directory), f"frame_{k}.png")
    try:
        fig.savefig(path, dpi=args.dpi)
    except OSError as error:
        raise out.UsageError(f"{path}: cannot write ({error.strerror or error})") from None
    print(path)
    return 0


if __name__ == "__main__":
    out.run_main(main)
