"""Scaling runs gathered into a CSV table and a plot: the work behind
tools/scaling_report.py (whose --help describes the series, the reference
run and the columns).

    from tethersim import scaling
    scaling.report(["strong", "weak"], "scaling")    # scaling.csv, scaling.png; returns the exit code

Reads only summary.json, launch.json and sweep.json files (no trajectories).
"""

import csv
import json
import math
import os
import statistics
import sys

# Distribution counters copied into the CSV, with the reduction over ranks
# that describes the run: counts every rank makes alike (windows, retries)
# by their maximum, work spread over ranks by the total, times by the slowest
# rank (which sets the wall time).
COUNTERS = [
    ("windows", "max"),
    ("speculative_windows", "max"),
    ("commits", "max"),
    ("partial_commits", "max"),
    ("rollbacks", "max"),
    ("events_rolled_back", "total"),
    ("certified_rounds", "max"),
    ("certifications", "max"),
    ("retries", "max"),
    ("failed_reach", "total"),
    ("failed_depth", "total"),
    ("failed_energy", "total"),
    ("bound_exchanges", "max"),
    ("fallbacks", "max"),
    ("rebalances", "max"),
    ("delta_mean", "mean"),
    ("events_duplicated", "total"),
    ("cross_components", "total"),
    ("largest_component", "max"),
    ("ghosts_max", "max"),
    ("migrations", "total"),
    ("bytes_sent", "total"),
    ("seconds_certify", "max"),
    ("seconds_execute", "max"),
    ("seconds_verify", "max"),
    ("seconds_exchange", "max"),
    ("seconds_wait", "max"),
    ("seconds_rebuild", "max"),
]
TIME_PARTS = ["certify", "execute", "verify", "exchange", "wait", "rebuild"]


class InputError(Exception):
    pass


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read: {e}")


def find_runs(top):
    if not os.path.isdir(top):
        raise InputError(f"{top}: not a directory")
    runs = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        if "summary.json" in files:
            runs.append(os.path.abspath(root))
    return runs


def sweep_of(run_dir, tops):
    """The nearest directory above run_dir (or itself) holding sweep.json, within the given trees."""
    d = run_dir
    while True:
        if os.path.isfile(os.path.join(d, "sweep.json")):
            return d
        parent = os.path.dirname(d)
        if parent == d or not any(os.path.commonpath([parent, t]) == t for t in tops):
            return None
        d = parent


def run_record(run_dir, tops):
    s = read_json(os.path.join(run_dir, "summary.json"))
    launch_path = os.path.join(run_dir, "launch.json")
    launch = read_json(launch_path) if os.path.isfile(launch_path) else {}
    try:
        ranks = int(s.get("ranks") or launch.get("ranks") or 1)
        wall = float(s["wall_seconds"])
        events_run = int(s.get("events_this_run", s["events"]))
        particles = int(s["initial"]["particles"])
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"{run_dir}/summary.json: missing or bad field {e}")
    oversubscribed = (bool(launch.get("oversubscribed", False))
                      or "oversubscribed" in os.path.basename(run_dir)
                      or os.path.exists(os.path.join(run_dir, "OVERSUBSCRIBED")))
    sweep = sweep_of(run_dir, tops)
    r = {
        "series": sweep or os.path.dirname(run_dir),
        "kind": "",
        "directory": run_dir,
        "ranks": ranks,
        "rank_grid": "",
        "oversubscribed": oversubscribed,
        "cores": launch.get("cores", ""),
        "launcher": launch.get("launcher", ""),
        "model": s.get("model", ""),
        "particles": particles,
        "particles_per_rank": particles / ranks,
        "start_time": s.get("start_time", 0),
        "end_time": s.get("end_time", ""),
        "restarted": bool(s.get("restarted", False)),
        "interrupted": bool(s.get("interrupted", False)),
        "state_hash": s.get("state_hash", ""),
        "same_state": "",
        "wall_seconds": wall,
        "events": events_run,
        "events_per_second": events_run / wall if wall > 0 else float("nan"),
        "speedup": float("nan"),
        "efficiency": float("nan"),
        "duplicated_fraction": "",
        "imbalance": "",
        "windows_per_time_unit": "",
        "events_per_window": "",
        "retries_per_certification": "",
    }
    d = s.get("distribution")
    if isinstance(d, dict):
        r["rank_grid"] = d.get("rank_grid", "")
        r["duplicated_fraction"] = d.get("duplicated_fraction", "")
        r["imbalance"] = d.get("imbalance", "")
        r["windows_per_time_unit"] = d.get("windows_per_time_unit", "")
        per_rank = d.get("per_rank", {})
        for name, how in COUNTERS:
            row = per_rank.get(name)
            r[name] = row.get(how, "") if isinstance(row, dict) else ""
        if r.get("windows"):
            r["events_per_window"] = events_run / r["windows"]
        if r.get("certifications"):
            r["retries_per_certification"] = (r["retries"] or 0) / r["certifications"]
    else:
        for name, _ in COUNTERS:
            r[name] = ""
    sweep_info = read_json(os.path.join(sweep, "sweep.json")) if sweep else {}
    r["kind"] = sweep_info.get("kind", "")
    return r


def complete_series(runs):
    series = {}
    for r in runs:
        series.setdefault(r["series"], []).append(r)
    for members in series.values():
        members.sort(key=lambda r: (r["ranks"], r["oversubscribed"]))
        if not members[0]["kind"]:
            kind = "strong" if len({m["particles"] for m in members}) == 1 else "weak"
            for m in members:
                m["kind"] = kind
        plain = [m for m in members if not m["oversubscribed"]]
        ref = (plain or members)[0]
        for m in members:
            if ref["events_per_second"] > 0:
                m["speedup"] = m["events_per_second"] / ref["events_per_second"]
                m["efficiency"] = m["speedup"] * ref["ranks"] / m["ranks"]
            m["reference_ranks"] = ref["ranks"]
            if m["kind"] == "strong":
                m["same_state"] = m["state_hash"] == ref["state_hash"]
    return series


def label_of(members, common_prefix):
    first = members[0]
    name = os.path.relpath(first["series"], common_prefix) if common_prefix else first["series"]
    if name in (".", ""):
        name = os.path.basename(first["series"])
    if first["kind"] == "strong":
        size = f"{first['particles']:,} particles"
    else:
        size = f"~{round(statistics.mean(m['particles_per_rank'] for m in members)):,} particles/rank"
    return f"{name} ({first['kind']} scaling): {first['model']}, {size}"


def write_csv(path, runs):
    columns = ["series", "kind", "directory", "ranks", "rank_grid", "oversubscribed", "cores", "launcher",
               "model", "particles", "particles_per_rank", "start_time", "end_time", "restarted",
               "interrupted", "state_hash", "same_state", "reference_ranks", "wall_seconds", "events",
               "events_per_second", "speedup", "efficiency", "duplicated_fraction", "imbalance",
               "windows_per_time_unit", "events_per_window", "retries_per_certification"]
    columns += [name for name, _ in COUNTERS]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in runs:
            w.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()})


def number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else float("nan")


def plot(path, series, dpi):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    keys = sorted(series)
    common = os.path.commonpath(keys) if len(keys) > 1 else os.path.dirname(keys[0])
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = plt.subplots(2, 3, figsize=(16, 9.5))
    (ax_wall, ax_perf, ax_eff), (ax_time, ax_win, ax_sync) = axes
    all_ranks = sorted({r["ranks"] for m in series.values() for r in m})

    def draw(ax, members, colour, values, style="-", marker="o", label=None):
        xs = [m["ranks"] for m in members]
        ys = [values(m) for m in members]
        ax.plot(xs, ys, style, color=colour, label=label, zorder=2)
        for m, x, y in zip(members, xs, ys):
            ax.plot([x], [y], marker, color=colour, markersize=7, zorder=3,
                    markerfacecolor="white" if m["oversubscribed"] else colour)

    for i, key in enumerate(keys):
        members = series[key]
        c = colours[i % len(colours)]
        label = label_of(members, common)
        ref = next(m for m in members if m["ranks"] == members[0]["reference_ranks"])
        xs = [m["ranks"] for m in members]
        draw(ax_wall, members, c, lambda m: m["wall_seconds"], label=label)
        if ref["kind"] == "strong":
            ax_wall.plot(xs, [ref["wall_seconds"] * ref["ranks"] / x for x in xs], ":", color=c, zorder=1)
        else:
            ax_wall.plot(xs, [ref["wall_seconds"]] * len(xs), ":", color=c, zorder=1)
        draw(ax_perf, members, c, lambda m: m["events_per_second"], label=label)
        ax_perf.plot(xs, [ref["events_per_second"] * x / ref["ranks"] for x in xs], ":", color=c, zorder=1)
        draw(ax_eff, members, c, lambda m: m["efficiency"], label=label)
        draw(ax_win, members, c, lambda m: number(m["windows_per_time_unit"]), label=label)
        draw(ax_sync, members, c, lambda m: number(m["retries_per_certification"]), "-", "o")
        draw(ax_sync, members, c, lambda m: number(m["duplicated_fraction"]), "--", "s")
        draw(ax_sync, members, c, lambda m: number(m["imbalance"]) - 1.0, ":", "^")

    # Where the wall time goes: the slowest rank's seconds in each phase, as a
    # fraction of the wall time, one stacked bar per run.
    part_colours = {"certify": "#4c72b0", "execute": "#55a868", "verify": "#dd8452", "exchange": "#c44e52",
                    "wait": "#8172b2", "rebuild": "#ccb974"}
    width = 0.8 / len(keys)
    positions = {n: k for k, n in enumerate(all_ranks)}
    for i, key in enumerate(keys):
        for m in series[key]:
            x = positions[m["ranks"]] - 0.4 + width * (i + 0.5)
            bottom = 0.0
            for part in TIME_PARTS:
                v = number(m.get("seconds_" + part))
                if math.isnan(v) or m["wall_seconds"] <= 0:
                    continue
                share = v / m["wall_seconds"]
                ax_time.bar(x, share, width * 0.9, bottom=bottom, color=part_colours[part],
                            edgecolor=colours[i % len(colours)], linewidth=1.2,
                            hatch="//" if m["oversubscribed"] else None)
                bottom += share
    ax_time.set_xticks(range(len(all_ranks)))
    ax_time.set_xticklabels([str(n) for n in all_ranks])
    ax_time.axhline(1.0, color="grey", lw=0.8)
    ax_time.set_ylim(0, 1.3)
    ax_time.legend(handles=[matplotlib.patches.Patch(color=part_colours[p], label=p) for p in TIME_PARTS],
                   fontsize=8, loc="upper center", ncol=5)
    ax_time.set_ylabel("fraction of wall time (slowest rank)")
    ax_time.set_title("where the time goes (1 rank: serial engine, no phases)")
    ax_time.set_xlabel("MPI ranks (bars edged by series colour)")

    for ax in (ax_wall, ax_perf, ax_eff, ax_win, ax_sync):
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_ranks)
        ax.set_xticklabels([str(n) for n in all_ranks])
        ax.set_xlabel("MPI ranks")
        ax.grid(True, which="both", alpha=0.3)
    ax_wall.set_yscale("log")
    ax_wall.set_ylabel("wall seconds")
    ax_wall.set_title("wall time (dotted: ideal)")
    ax_perf.set_yscale("log")
    ax_perf.set_ylabel("events per second")
    ax_perf.set_title("throughput (dotted: ideal)")
    ax_eff.axhline(1.0, color="grey", lw=0.8)
    ax_eff.set_ylim(bottom=0)
    ax_eff.set_ylabel("perf(n) n0 / (n perf(n0))")
    ax_eff.set_title("parallel efficiency")
    ax_win.set_yscale("log")
    ax_win.set_ylabel("windows per unit simulated time")
    ax_win.set_title("synchronization windows")
    ax_sync.set_ylabel("fraction")
    ax_sync.set_title("retries, duplicated work, imbalance")
    ax_sync.legend(handles=[
        Line2D([], [], color="k", ls="-", marker="o", label="retries per certification"),
        Line2D([], [], color="k", ls="--", marker="s", label="duplicated / unique events"),
        Line2D([], [], color="k", ls=":", marker="^", label="imbalance - 1 (max/mean execute)"),
    ], fontsize=8)

    handles, labels = ax_wall.get_legend_handles_labels()
    handles.append(Line2D([], [], ls="", marker="o", color="k", markerfacecolor="white"))
    labels.append("hollow marker / hatched bar: oversubscribed (more ranks than cores)")
    fig.legend(handles, labels, loc="upper center", ncol=1, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.03 * (len(labels) + 1)))
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def report(directories, output="scaling_report", dpi=110):
    """Writes PREFIX.csv and PREFIX.png (PREFIX = output; an existing
    directory means DIR/scaling), prints a table per series and the two
    paths; returns 0, or 2 after one line on stderr for bad input."""
    prefix = output
    if os.path.isdir(prefix):
        prefix = os.path.join(prefix, "scaling")
    for ext in (".png", ".csv"):
        if prefix.endswith(ext):
            prefix = prefix[: -len(ext)]
    try:
        tops = [os.path.abspath(d) for d in directories]
        runs = []
        for top in tops:
            found = find_runs(top)
            if not found:
                print(f"scaling_report.py: note: no summary.json under {top}", file=sys.stderr)
            runs += [run_record(d, tops) for d in found]
        if not runs:
            raise InputError("no summary.json found under " + " ".join(directories))
    except InputError as e:
        print(f"scaling_report.py: error: {e}", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("scaling_report.py: error: matplotlib is missing (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 2

    series = complete_series(runs)
    ordered = [r for key in sorted(series) for r in series[key]]
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)
    write_csv(prefix + ".csv", ordered)
    plot(prefix + ".png", series, dpi)

    for key in sorted(series):
        members = series[key]
        print(f"{key} ({members[0]['kind']} scaling, reference {members[0]['reference_ranks']} rank(s))")
        print(f"  {'ranks':>5} {'particles':>10} {'wall s':>9} {'events/s':>10} {'speedup':>8} {'effic.':>7}"
              f" {'win/t':>8} {'retry':>6}  notes")
        for m in members:
            notes = []
            if m["oversubscribed"]:
                notes.append("oversubscribed")
            if m["restarted"]:
                notes.append("restarted")
            if m["interrupted"]:
                notes.append("stopped early")
            if m["same_state"] is False:
                notes.append("STATE DIFFERS from the reference")
            win = number(m["windows_per_time_unit"])
            retry = number(m["retries_per_certification"])
            print(f"  {m['ranks']:>5} {m['particles']:>10} {m['wall_seconds']:>9.3f} {m['events_per_second']:>10.4g}"
                  f" {m['speedup']:>8.3f} {m['efficiency']:>7.3f} {win:>8.4g} {retry:>6.3f}  {', '.join(notes)}")
        if any(m["same_state"] is False for m in members):
            print("  warning: runs of one strong-scaling series should end in the same state (state_hash)",
                  file=sys.stderr)
    print(prefix + ".csv")
    print(prefix + ".png")
    return 0

