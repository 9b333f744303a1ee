#!/usr/bin/env python3
"""Plot the observables of a tethersim run over simulated time.

Usage:
    plot_observables.py DIR [-o OUT.png] [--dpi N]

DIR is a run's output directory (or its trajectory.h5). The figure has one
panel each for the kinetic energy, the particles present and escaped, the
tether count, all clusters_* observables, all tethered_* observables and the
event rate: events per unit simulated time from the differences of the
cumulative /observables/event_counts, in total and for blocking, tethering,
restitution and random impulses separately. Action-potential windows from
the stored model text are shaded. DIR/summary.json, when present, adds run
details to the title.

The figure goes to DIR/observables.png unless -o is given; the path written
is printed. Exit codes: 0 written, 2 bad input (missing file, not a
tethersim trajectory, no observable samples).
"""

import argparse
import os

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

import tethersim_output as out

RATE_KINDS = ("blocking", "tethering", "restitution", "random_impulse")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", metavar="DIR", help="run output directory (or its trajectory.h5)")
    parser.add_argument("-o", "--output", metavar="OUT.png", help="image to write (default DIR/observables.png)")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the image (default 110)")
    return parser.parse_args()


def read_observables(f):
    """{name: (time, value)} for every group under /observables."""
    if "observables" not in f:
        raise out.UsageError(f"{f.filename}: no /observables group")
    series = {}
    for name, group in f["observables"].items():
        if "value" not in group or "time" not in group:
            continue
        time = group["time"][:]
        value = group["value"][:]
        n = min(len(time), len(value))  # a file still being written may be uneven
        series[name] = (time[:n], value[:n])
    if not series or max(len(t) for t, _ in series.values()) == 0:
        raise out.UsageError(f"{f.filename}: no observable samples")
    return series


def split_pair(rest, names):
    """'V_D' -> ('V', 'D'), using the species names when they contain '_'."""
    for k in range(1, len(rest)):
        if rest[k] == "_" and rest[:k] in names and rest[k + 1:] in names:
            return rest[:k], rest[k + 1:]
    a, _, b = rest.partition("_")
    return a, b


def event_rates(time, counts):
    """(edges, {label: rate}) from cumulative event counts [samples, 9]."""
    keep = np.r_[np.diff(time) > 0, True]  # the last of samples sharing a time
    time, counts = time[keep], counts[keep].astype(float)
    if len(time) < 2:
        return None, {}
    dt = np.diff(time)
    delta = np.diff(counts, axis=0)
    delta[delta < 0] = np.nan  # a counter that went back (restart) has no rate
    rates = {"total (all kinds)": delta.sum(axis=1) / dt}
    for kind in RATE_KINDS:
        rates[kind.replace("_", " ")] = delta[:, out.EVENT_KINDS.index(kind)] / dt
    return time, rates


def panel_specs(series, names, energy_unit=""):
    """The panels to draw: list of (title, ylabel, [(label, time, value)])."""
    panels = []

    def line(name, label):
        time, value = series[name]
        return (label, time, value)

    if "kinetic_energy" in series:
        time, energy = series["kinetic_energy"]
        first = energy[0] if len(energy) else 0.0
        if len(energy) > 1 and first != 0 and np.ptp(energy) <= 1e-6 * abs(first):
            # A conserved energy drawn as itself is a flat line under an
            # offset label; its relative drift shows what changes.
            panels.append(("kinetic energy (conserved)", "relative drift (E - E0) / E0",
                           [("relative drift", time, (energy - first) / first)]))
        else:
            panels.append(("kinetic energy", out.with_unit("energy", energy_unit),
                           [line("kinetic_energy", "kinetic energy")]))
    counts = [line(n, label) for n, label in (("particles", "present"), ("escapes", "escaped"))
              if n in series]
    if counts:
        panels.append(("particles", "particles", counts))
    if "tethers" in series:
        panels.append(("tethers", "tethers", [line("tethers", "tethers")]))
    clusters = [line(n, f"clusters of {n[len('clusters_'):]}")
                for n in sorted(series) if n.startswith("clusters_")]
    if clusters:
        panels.append(("clusters", "clusters", clusters))
    tethered = [line(n, "{}-{} tethered".format(*split_pair(n[len("tethered_"):], names)))
                for n in sorted(series) if n.startswith("tethered_")]
    if tethered:
        panels.append(("tethered pairs", "count", tethered))
    return panels


def draw_series_panel(ax, title, ylabel, lines):
    for label, time, value in lines:
        ax.plot(time, value, label=label, marker="." if len(time) < 60 else None, lw=1.4)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    if all(np.all(np.mod(np.asarray(value, dtype=float), 1) == 0) for _, _, value in lines if len(value)):
        from matplotlib.ticker import MaxNLocator
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no 2.5 particles
        low = min(np.min(value) for _, _, value in lines if len(value))
        high = max(np.max(value) for _, _, value in lines if len(value))
        if high - low < 2:  # the locator needs two integers in view
            ax.set_ylim(low - 1, high + 1)
    if len(lines) > 1 or not title.startswith(lines[0][0]):
        ax.legend(fontsize=8, loc="best")


def draw_rate_panel(ax, series, time_unit=""):
    ax.set_title("event rate", fontsize=10)
    ax.set_ylabel(f"events per {time_unit}" if time_unit else "events per unit time")
    if "event_counts" not in series:
        ax.text(0.5, 0.5, "no event_counts observable", ha="center", transform=ax.transAxes)
        return
    time, counts = series["event_counts"]
    edges, rates = event_rates(time, counts)
    if edges is None:
        ax.text(0.5, 0.5, "needs two samples at different times", ha="center", transform=ax.transAxes)
        return
    for label, rate in rates.items():
        ax.stairs(rate, edges, label=label, baseline=None, lw=2.0 if label.startswith("total") else 1.2)
    top = np.nanmax(rates["total (all kinds)"]) if np.isfinite(rates["total (all kinds)"]).any() else 0
    if top > 0:
        ax.set_ylim(0, 1.4 * top)  # room for the legend above the curves
    ax.legend(fontsize=8, loc="upper left", ncol=3)


def summary_line(summary):
    """One line of run details from summary.json."""
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


def make_figure(f, series, summary):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    energy_unit = out.unit(f["observables/kinetic_energy/value"]) if "observables/kinetic_energy" in f else ""
    time_unit = out.unit(f["observables/kinetic_energy/time"]) if "observables/kinetic_energy" in f else ""
    panels = panel_specs(series, out.species_names(f), energy_unit)
    count = len(panels) + 1  # + event rate
    columns = 1 if count <= 3 else 2
    rows = -(-count // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(7 * columns, 2.8 * rows + 0.8),
                             sharex=True, squeeze=False)
    axes = axes.ravel()
    for ax, spec in zip(axes, panels):
        draw_series_panel(ax, *spec)
    draw_rate_panel(axes[len(panels)], series, time_unit)
    for ax in axes[count:]:
        ax.set_visible(False)
    times = np.concatenate([t for t, _ in series.values()])
    first, last = times.min(), times.max()
    windows = [(a, b) for a, b in out.action_potential_windows(f) if b >= first and a <= last]
    for ax in axes[:count]:
        for start, end in windows:
            ax.axvspan(start, end, color="tab:orange", alpha=0.15, lw=0)
        ax.grid(alpha=0.3)
        if last > first:
            ax.set_xlim(first, last)
    for ax in axes[count - columns:count]:
        ax.set_xlabel(out.with_unit("simulated time", time_unit))
        ax.xaxis.set_tick_params(labelbottom=True)

    samples = max(len(t) for t, _ in series.values())
    title = f"{out.model_name(f)}: observables, {samples} samples, t = {first:g} to {last:g}"
    subtitle = summary_line(summary)
    if windows:
        subtitle += ("; " if subtitle else "") + "shaded: action potentials"
    fig.suptitle(title + ("\n" + subtitle if subtitle else ""), fontsize=11)
    fig.tight_layout()
    return fig


def main():
    args = parse_arguments()
    out.require_modules("numpy", "h5py", "matplotlib")
    with out.open_trajectory(args.directory) as f:
        series = read_observables(f)
        fig = make_figure(f, series, out.read_summary(args.directory))
    path = args.output or os.path.join(out.output_directory(args.directory), "observables.png")
    try:
        fig.savefig(path, dpi=args.dpi)
    except OSError as error:
        raise out.UsageError(f"{path}: cannot write ({error.strerror or error})") from None
    print(path)
    return 0


if __name__ == "__main__":
    out.run_main(main)
