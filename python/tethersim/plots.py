"""Plots of a run: its observables over simulated time and pictures of frames.

    from tethersim import open_run, plots
    with open_run("out") as run:
        picture = plots.plot_observables(run, "out/observables.png")
        picture.axes["particles"]            # the matplotlib Axes of each panel
        plots.render_frame(run, -1, "out/last.png")

Each function takes a Run (or an output directory), draws with matplotlib's
Agg backend (no display needed), writes the image when given a path and
returns a Picture: the Figure, its Axes by panel name and the path written.
Images are saved with bbox_inches="tight", so legends and titles placed
outside the axes are not cut off.
"""

import os
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from .run import Run, TrajectoryError
from .units import readable_unit

# The event kinds drawn one by one in the event panels (beside the total).
EVENT_PANEL_KINDS = ("blocking", "tethering", "restitution", "random_impulse")

# A kinetic energy whose samples stay within this fraction of the first is
# taken as conserved (elastic, unforced models such as examples/gas.toml):
# its panel shows the relative drift, as the energy itself is a flat line.
CONSERVED_TOLERANCE = 1e-6

ENERGY_MODES = ("auto", "value", "drift", "both")

# render_frame: figure size in inches, and the species drawn as outlines
# (membrane shells, active zones): radius above this fraction of the largest
# box edge and at most MAX_OUTLINES particles. Tethers to them are hidden
# unless all_tethers is set.
FIGURE_SIZE = (9.0, 8.0)
OUTLINE_FRACTION = 0.08
MAX_OUTLINES = 50


@dataclass
class Picture:
    """A drawn figure: `axes` maps panel names to matplotlib Axes."""

    figure: object
    axes: dict = field(default_factory=dict)
    path: str = None


@contextmanager
def _opened(run):
    """A Run as given, or one opened (and closed after) from a path."""
    if isinstance(run, Run):
        yield run
    else:
        opened = Run(run)
        try:
            yield opened
        finally:
            opened.close()


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def with_unit(label, unit):
    """An axis label with its unit in brackets, when there is one; H5MD's
    factor notation ("kDa nm+2 ns-2") is shown with superscripts
    ("kDa nm²/ns²", units.readable_unit)."""
    return f"{label} [{readable_unit(unit, mathtext=True)}]" if unit else label


def _save(picture, path, dpi):
    if path is not None:
        try:
            picture.figure.savefig(path, dpi=dpi, bbox_inches="tight")
        except OSError as error:
            raise TrajectoryError(f"{path}: cannot write ({error.strerror or error})") from None
        picture.path = os.fspath(path)
    return picture


# -- observables --------------------------------------------------------------

def energy_drift(energy):
    """Relative drift (E - E0) / |E0| of an energy series (E0 its first sample)."""
    energy = np.asarray(energy, dtype=float)
    if len(energy) == 0 or energy[0] == 0:
        raise ValueError("no relative drift: the first energy sample is 0 (or there is none)")
    return (energy - energy[0]) / abs(energy[0])


def energy_is_conserved(energy, tolerance=CONSERVED_TOLERANCE):
    """Whether a kinetic energy series (two samples or more, not starting at
    0) stays within `tolerance` of its first sample, relative to it."""
    energy = np.asarray(energy, dtype=float)
    return bool(len(energy) > 1 and energy[0] != 0 and np.ptp(energy) <= tolerance * abs(energy[0]))


def event_rates(time, counts):
    """(edges, {label: rate}) from cumulative event counts.

    `counts` maps event kinds to cumulative count arrays over `time`. The
    rate is events per unit simulated time between consecutive samples;
    samples sharing a time keep the last, and a counter that went back (a
    restart into another directory) has no rate there (NaN)."""
    time = np.asarray(time, dtype=float)
    keep = np.r_[np.diff(time) > 0, True]
    time = time[keep]
    if len(time) < 2:
        return None, {}
    dt = np.diff(time)
    deltas = {}
    for kind, value in counts.items():
        delta = np.diff(np.asarray(value, dtype=float)[keep])
        delta[delta < 0] = np.nan
        deltas[kind] = delta
    rates = {"total (all kinds)": sum(deltas.values()) / dt}
    for kind in EVENT_PANEL_KINDS:
        if kind in deltas:
            rates[kind.replace("_", " ")] = deltas[kind] / dt
    return time, rates


def _split_pair(rest, names):
    """'V_D' -> ('V', 'D'), using the species names when they contain '_'."""
    for k in range(1, len(rest)):
        if rest[k] == "_" and rest[:k] in names and rest[k + 1:] in names:
            return rest[:k], rest[k + 1:]
    a, _, b = rest.partition("_")
    return a, b


def _event_counts(table):
    prefix = "event_counts_"
    return {c[len(prefix):]: table[c].to_numpy() for c in table.columns if c.startswith(prefix)}


def _panels(table, names, energy_mode, energy_unit):
    """[(name, title, ylabel, [(label, values)], integer)] of the series panels."""
    panels = []
    if "kinetic_energy" in table:
        energy = table["kinetic_energy"].to_numpy()
        mode = energy_mode
        if mode == "auto":
            mode = "drift" if energy_is_conserved(energy) else "value"
        if mode in ("value", "both"):
            panels.append(("energy", "kinetic energy", with_unit("kinetic energy", energy_unit),
                           [("kinetic energy", energy)], False))
        if mode in ("drift", "both"):
            title = "kinetic energy: relative drift"
            if energy_is_conserved(energy):
                title += " (conserved to 1e-6)"
            panels.append(("energy drift", title, "(E - E0) / |E0|",
                           [("relative drift", energy_drift(energy))], False))
    counts = [(label, table[n].to_numpy()) for n, label in (("particles", "present"), ("escapes", "escaped"))
              if n in table]
    if counts:
        panels.append(("particles", "particles", "particles", counts, True))
    if "tethers" in table:
        panels.append(("tethers", "tethers", "tethers", [("tethers", table["tethers"].to_numpy())], True))
    clusters = [(f"clusters of {n[len('clusters_'):]}", table[n].to_numpy())
                for n in table.columns if n.startswith("clusters_")]
    if clusters:
        panels.append(("clusters", "clusters", "clusters", clusters, True))
    tethered = [("{}-{} tethered".format(*_split_pair(n[len("tethered_"):], names)), table[n].to_numpy())
                for n in table.columns if n.startswith("tethered_")]
    if tethered:
        panels.append(("tethered", "tethered pairs", "particles", tethered, True))
    kinds = _event_counts(table)
    if kinds:
        lines = [("total (all kinds)", sum(kinds.values()))]
        lines += [(k.replace("_", " "), kinds[k]) for k in EVENT_PANEL_KINDS if k in kinds]
        panels.append(("events", "events since t = 0", "events", lines, True))
    return panels


def _integer_axis(ax, lines):
    """Integer ticks on a count axis, with at least two integers in view."""
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    values = [np.asarray(v, dtype=float) for _, v in lines if len(v)]
    values = [v[np.isfinite(v)] for v in values]
    values = [v for v in values if len(v)]
    if values:
        low = min(v.min() for v in values)
        high = max(v.max() for v in values)
        if high - low < 2:
            # Counts are never negative: no -1 tick under a count of 0.
            bottom = low - 1 if low >= 1 else low - 0.25
            ax.set_ylim(bottom, high + 1)


def _draw_series(ax, time, title, ylabel, lines, integer):
    for label, value in lines:
        ax.plot(time, value, label=label, marker="." if len(time) < 60 else None,
                lw=2.0 if label.startswith("total") else 1.4)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    if integer:
        _integer_axis(ax, lines)
    if len(lines) > 1 or not title.startswith(lines[0][0]):
        ax.legend(fontsize=8, loc="best")


def _draw_rates(ax, table, time_unit):
    ax.set_title("event rate", fontsize=10)
    ax.set_ylabel(f"events per {time_unit}" if time_unit else "events per unit time")
    kinds = _event_counts(table)
    if not kinds:
        ax.text(0.5, 0.5, "no event_counts observable", ha="center", transform=ax.transAxes)
        return
    edges, rates = event_rates(table["time"].to_numpy(), kinds)
    if edges is None:
        ax.text(0.5, 0.5, "needs two samples at different times", ha="center", transform=ax.transAxes)
        return
    for label, rate in rates.items():
        ax.stairs(rate, edges, label=label, baseline=None, lw=2.0 if label.startswith("total") else 1.2)
    total = rates["total (all kinds)"]
    top = np.nanmax(total) if np.isfinite(total).any() else 0
    if top > 0:
        ax.set_ylim(0, 1.4 * top)  # room for the legend above the curves
    ax.legend(fontsize=8, loc="upper left", ncol=3)


def summary_line(summary):
    """One line of run details from summary.json ("" without one)."""
    if not summary:
        return ""
    parts = [f"seed {summary.get('seed', '?')}"]
    ranks = summary.get("ranks")
    if ranks is not None:
        parts.append(f"{ranks} rank{'s' if ranks != 1 else ''}")
    events, wall = summary.get("events"), summary.get("wall_seconds")
    if summary.get("restarted"):
        # Counters are cumulative over all legs, the wall time is this leg's.
        this_run = summary.get("events_this_run")
        parts.append(f"restarted at t = {summary.get('start_time', '?'):g}")
        if events is not None:
            parts.append(f"{events:,} events in all")
        if this_run is not None and wall is not None:
            parts.append(f"{this_run:,} in the last leg's {wall:.3g} s wall")
    elif events is not None and wall is not None:
        parts.append(f"{events:,} events in {wall:.3g} s wall")
    if summary.get("interrupted"):
        parts.append("stopped early")
    return ", ".join(parts)


def plot_observables(run, path=None, *, energy="auto", dpi=110):
    """Plots the observables of a run over simulated time.

    Panels: the kinetic energy, the particles present and escaped, the
    tethers, every clusters_* and tethered_* observable, the events since
    t = 0 and the event rate (events per unit time between samples, from
    the cumulative event counts), in total and for blocking, tethering,
    restitution and random impulses. Count panels have integer ticks; axis
    labels carry the model's units. Action-potential windows of the stored
    model are shaded; summary.json adds run details to the title.

    energy: "auto" shows the relative drift (E - E0) / |E0| when the kinetic
    energy is conserved to CONSERVED_TOLERANCE (an elastic model without
    forcing), else the energy; "value", "drift" or "both" choose. Panel
    names in Picture.axes: "energy", "energy drift", "particles",
    "tethers", "clusters", "tethered", "events", "event rate".
    """
    if energy not in ENERGY_MODES:
        raise ValueError(f"energy must be one of {', '.join(ENERGY_MODES)}, not {energy!r}")
    with _opened(run) as run:
        table = run.observables()
        if len(table) == 0:
            raise TrajectoryError(f"{run.trajectory_path}: no observable samples")
        if energy == "drift" and not ("kinetic_energy" in table and table["kinetic_energy"].iloc[0] != 0):
            raise TrajectoryError(f"{run.trajectory_path}: no relative energy drift: the first "
                                  "kinetic energy sample is 0")
        energy_unit = run.observable_unit("kinetic_energy")
        time_unit = run.units["time"]
        panels = _panels(table, run.species_names, energy, energy_unit)
        windows = run.action_potential_windows
        title = run.model_name
        summary = run.summary()

    plt = _pyplot()
    count = len(panels) + 1  # + the event rate
    columns = 1 if count <= 3 else 2
    rows = -(-count // columns)
    fig, grid = plt.subplots(rows, columns, figsize=(7 * columns, 2.8 * rows + 0.8), sharex=True, squeeze=False)
    grid = grid.ravel()
    time = table["time"].to_numpy()
    axes = {}
    for ax, (name, *spec) in zip(grid, panels):
        _draw_series(ax, time, *spec)
        axes[name] = ax
    axes["event rate"] = grid[len(panels)]
    _draw_rates(axes["event rate"], table, time_unit)
    for ax in grid[count:]:
        ax.set_visible(False)
    first, last = float(time.min()), float(time.max())
    windows = [(a, b) for a, b in windows if b >= first and a <= last]
    for ax in grid[:count]:
        for start, end in windows:
            ax.axvspan(start, end, color="tab:orange", alpha=0.15, lw=0)
        ax.grid(alpha=0.3)
        if last > first:
            ax.set_xlim(first, last)
    for ax in grid[max(count - columns, 0):count]:
        ax.set_xlabel(with_unit("simulated time", time_unit))
        ax.xaxis.set_tick_params(labelbottom=True)
    subtitle = summary_line(summary)
    if windows:
        subtitle += ("; " if subtitle else "") + "shaded: action potentials"
    fig.suptitle(f"{title}: observables, {len(table)} samples, t = {first:g} to {last:g}"
                 + ("\n" + subtitle if subtitle else ""), fontsize=11)
    fig.tight_layout()
    return _save(Picture(fig, axes), path, dpi)


# -- frames -------------------------------------------------------------------

def outline_species(radii, species, present, extent):
    """Indices of the species drawn as outlines (see OUTLINE_FRACTION)."""
    if radii is None:
        return set()
    large = set()
    for s, r in enumerate(radii):
        count = int((present & (species == s)).sum())
        if r > OUTLINE_FRACTION * extent and 0 < count <= MAX_OUTLINES:
            large.add(s)
    return large


def _species_colours(count):
    import matplotlib
    cmap = matplotlib.colormaps["tab10" if count <= 10 else "tab20"]
    return [cmap(k % cmap.N) for k in range(count)]


def _marker_diameters(radii, species_count, extent, dimensions):
    """Marker diameter in points for each species (by radius when known)."""
    if radii is None:
        return np.full(species_count, 6.0 if dimensions == 3 else 5.0)
    drawn_width = FIGURE_SIZE[0] * 72 * (0.55 if dimensions == 3 else 0.75)
    return np.clip(2 * np.asarray(radii) * drawn_width / extent, 0.8, 40.0)


def _subsample(indices, limit, seed=0):
    """At most `limit` of `indices` (sorted random choice); (subset, was_cut)."""
    if len(indices) <= limit:
        return indices, False
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(indices, size=limit, replace=False)), True


def _segments(positions, dims, edges, periodic, rows, y):
    """Segments [M, 2, 2 or 3] of tether rows (minimum image on periodic axes)."""
    a = positions[rows[:, 0]]
    b = positions[rows[:, 1]]
    if periodic.any():
        d = b - a
        d[:, periodic] -= edges[periodic] * np.round(d[:, periodic] / edges[periodic])
        b = a + d
    if dims == 1:
        a = np.column_stack([a[:, 0], y[rows[:, 0]]])
        b = np.column_stack([b[:, 0], y[rows[:, 1]]])
    return np.stack([a, b], axis=1)


def _sphere_wireframe(ax, centre, radius, colour):
    u = np.linspace(0, 2 * np.pi, 25)
    v = np.linspace(0, np.pi, 13)
    x = centre[0] + radius * np.outer(np.cos(u), np.sin(v))
    y = centre[1] + radius * np.outer(np.sin(u), np.sin(v))
    z = centre[2] + radius * np.outer(np.ones_like(u), np.cos(v))
    ax.plot_wireframe(x, y, z, color=colour, linewidth=0.4, alpha=0.35, rstride=2, cstride=2)


def render_frame(run, frame=None, path=None, *, time=None, max_points=200000, max_tethers=20000,
                 all_tethers=False, no_tethers=False, fit=False, dpi=110):
    """A matplotlib picture of one frame.

    frame: an index (negative counts from the end; None: the last), or
    time: the frame nearest to that simulated time. Particles are coloured
    by species (names and counts in the legend) and sized by the species
    radii; large species next to the box (membrane shells, active zones)
    are drawn as outlines and tethers to them are hidden unless
    all_tethers. Absent particles are skipped; tethers are grey segments
    (minimum image on periodic axes). 3-D: a 3-D scatter over the box (fit:
    zoomed to the particles); 2-D: a flat scatter; 1-D: x against the row.
    Above max_points particles or max_tethers tethers a random subset is
    drawn. Axes carry the model's length unit. Picture.axes["frame"] is the
    Axes; Picture.frame_index the frame drawn.
    """
    with _opened(run) as run:
        k = run.frame_index(frame, time)
        data = run.frame(k)
        dims = run.dimensions
        edges = run.box_edges(k)
        lo = run.box_offset.copy()
        periodic = run.box_periodic
        names = run.species_names
        radii = run.species_radii
        tether_rows = np.zeros((0, 2), dtype=np.int64) if no_tethers else run.tether_rows(k)
        model, frames, length_unit = run.model_name, run.frame_count, run.units["length"]

    positions, species = data.positions, data.species
    present = data.present & ~np.isnan(positions).any(axis=1)
    if len(tether_rows):  # tethers whose two particles are present
        n = len(present)
        tether_rows = tether_rows[((tether_rows >= 0) & (tether_rows < n)).all(axis=1)]
        tether_rows = tether_rows[present[tether_rows[:, 0]] & present[tether_rows[:, 1]]]
    tether_total = len(tether_rows)
    if radii is not None and len(radii) != len(names):
        radii = None
    extent = float(np.nanmax(edges)) if np.isfinite(edges).any() else 1.0
    outlines = outline_species(radii, species, present, extent) if dims > 1 else set()
    colours = _species_colours(len(names))
    view_lo, view_hi = lo, lo + edges
    if fit and present.any():
        shown = positions[present]
        margin = float(max(radii)) if radii is not None and len(radii) else 0.0
        view_lo, view_hi = shown.min(axis=0) - margin, shown.max(axis=0) + margin
        view_hi = np.where(view_hi > view_lo, view_hi, view_lo + 1.0)
    diameters = _marker_diameters(radii, len(names), float((view_hi - view_lo).max()), dims)
    y = np.arange(len(present), dtype=float)  # the 1-D vertical axis
    notes = []

    rows, cut = _subsample(np.flatnonzero(present), max_points)
    if cut:
        notes.append(f"{len(rows):,} of {np.count_nonzero(present):,} particles shown")
    tethers = tether_rows
    if outlines and not all_tethers and len(tethers):
        to_outline = np.isin(species[tethers], list(outlines)).any(axis=1)
        if to_outline.any():
            which = ", ".join(names[s] for s in sorted(outlines))
            notes.append(f"{np.count_nonzero(to_outline):,} tethers to {which} not drawn")
        tethers = tethers[~to_outline]
    chosen, cut = _subsample(np.arange(len(tethers)), max_tethers, seed=1)
    if cut:
        notes.append(f"{len(chosen):,} of {len(tethers):,} tethers shown")
    tethers = tethers[chosen]

    plt = _pyplot()
    fig = plt.figure(figsize=FIGURE_SIZE)
    ax = fig.add_subplot(projection="3d" if dims == 3 else None)
    if len(tethers):
        segments = _segments(positions, dims, edges, periodic, tethers, y)
        style = dict(colors="0.45", linewidths=0.5, alpha=0.6, zorder=1)
        if dims == 3:
            from mpl_toolkits.mplot3d.art3d import Line3DCollection
            ax.add_collection3d(Line3DCollection(segments, **style))
        else:
            from matplotlib.collections import LineCollection
            ax.add_collection(LineCollection(segments, **style))
    handles = _draw_particles(ax, positions, species, present, rows, y, dims, names, colours, diameters,
                              outlines, radii)
    _set_limits(ax, dims, view_lo, view_hi, len(y), length_unit)
    if handles:
        # Outside the axes, to the right: saved whole by bbox_inches="tight".
        ax.legend(handles=handles, title="species", loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  fontsize=8, title_fontsize=9)
    title = (f"{model}: t = {data.time:g} (frame {k} of 0-{frames - 1}), "
             f"{np.count_nonzero(present):,} particles, {tether_total:,} tethers")
    if radii is None:
        notes.append("sizes by species (radii unknown)")
    if dims == 1:
        notes.append("1-D: x against particle row")
    ax.set_title(title + ("\n" + "; ".join(notes) if notes else ""), fontsize=10)
    fig.tight_layout()
    picture = Picture(fig, {"frame": ax})
    picture.frame_index = k
    return _save(picture, path, dpi)


def _draw_particles(ax, positions, species, present, rows, y, dims, names, colours, diameters, outlines, radii):
    """Particles by species; returns the legend handles.

    All points go into one scatter so that 3-D depth sorting works across
    species; in 1-D and 2-D the larger species are drawn first.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle
    handles = []
    for s, name in enumerate(names):
        count = np.count_nonzero(present & (species == s))
        if count == 0:
            continue
        label = f"{name} ({count:,})"
        if s in outlines:
            for row in np.flatnonzero(present & (species == s)):
                if dims == 3:
                    _sphere_wireframe(ax, positions[row], radii[s], colours[s])
                else:
                    ax.add_patch(Circle(positions[row][:2], radii[s], fill=False, color=colours[s], lw=1.0,
                                        alpha=0.7))
            handles.append(Line2D([], [], color=colours[s], marker="o", ls="", mfc="none", ms=9, label=label))
        else:
            handles.append(Line2D([], [], color=colours[s], marker="o", ls="", ms=7, label=label))
    rows = rows[~np.isin(species[rows], list(outlines))]
    if dims < 3:
        rows = rows[np.argsort(-diameters[species[rows]], kind="stable")]
    colour = np.asarray(colours)[species[rows]]
    size = diameters[species[rows]] ** 2
    p = positions[rows]
    if dims == 3:
        ax.scatter(p[:, 0], p[:, 1], p[:, 2], s=size, c=colour, linewidths=0, depthshade=True)
    else:
        ax.scatter(p[:, 0], p[:, 1] if dims == 2 else y[rows], s=size, c=colour, linewidths=0, zorder=2)
    return handles


def _set_limits(ax, dims, lo, hi, rows, unit):
    """Equal axis scaling over [lo, hi]; in 1-D the vertical axis is the particle row."""
    ax.set_xlim(lo[0], hi[0])
    ax.set_xlabel(with_unit("x", unit))
    if dims == 3:
        ax.set_ylim(lo[1], hi[1])
        ax.set_zlim(lo[2], hi[2])
        ax.set_box_aspect(tuple(hi - lo), zoom=0.95)
        ax.set_ylabel(with_unit("y", unit))
        ax.set_zlabel(with_unit("z", unit))
    elif dims == 2:
        ax.set_ylim(lo[1], hi[1])
        ax.set_aspect("equal")
        ax.set_ylabel(with_unit("y", unit))
    else:
        ax.set_ylim(-1, rows)
        ax.set_ylabel("particle row")
