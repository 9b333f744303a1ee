#!/usr/bin/env python3
"""The Python package's reading and plotting functions and the tool scripts
that wrap them, on short real runs, checked against the files read
independently with h5py and json.

    package_plots_test.py TETHERSIM SOURCE_DIR WORK_DIR

Checks: observables as a DataFrame (columns, dtypes and values those of
/observables), observables.jsonl read by the package equal to the
trajectory's samples, the step clock shared with the frames, older layout 1
trajectories read like layout 2 ones, plot_observables (units on the axes,
integer ticks on count panels, the relative energy drift of an elastic gas
equal to (E - E0) / |E0|, legends inside the figure), render_frame (species
counts in the legend, a legend outside the axes kept in the saved image),
images that are not blank, the scaling report, and the scripts in tools/:
run from another directory without PYTHONPATH, the paths they print, and
exit code 2 with one line on stderr for bad input.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import warnings

import h5py
import numpy as np

exe, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(source, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402
import tethersim  # noqa: E402
from tethersim import images, plots  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
PYTHON = "/usr/bin/python3"
TOOLS = os.path.join(source, "tools")
check = Checks("package plots")


def simulate(model, out, *settings):
    subprocess.run([exe, "run", os.path.join(source, "examples", model), "-o", out, "-q", *settings], check=True)


# The presynaptic terminal (units nm and tu, counts that change, a radius
# override) and a small elastic gas (conserved energy; samples every 0.25,
# frames every 0.5, so that frames and samples have steps of their own).
simulate("presynaptic.toml", "pre", "--end-time", "40", "--set", "output.frame_interval=10.0",
         "--set", "species.V.radius=22")
simulate("gas.toml", "gas", "--end-time", "4", "--set", "initial.parameters.cells=5",
         "--set", "output.frame_interval=0.5", "--set", "output.observables_interval=0.25")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def h5_columns(path):
    """{column: array} of /observables as the DataFrame should hold them."""
    with h5py.File(path, "r") as f:
        group = f["observables"]
        columns = {"step": group["kinetic_energy/step"][:], "time": group["kinetic_energy/time"][:]}
        for name in group:
            value = group[name]["value"][:]
            if value.ndim == 1:
                columns[name] = value
            else:
                attr = group[name]["value"].attrs.get("columns")
                parts = [text(c) for c in attr] if attr is not None else ["x", "y", "z"]
                for c, part in enumerate(parts):
                    columns[f"{name}_{part}"] = value[:, c]
    return columns


def png_foreground(path):
    return images.image_foreground(path)[0] if os.path.isfile(path) else 0.0


def integer_tick_labels(ax):
    """Whether every tick label drawn on the y axis is an integer."""
    ax.figure.canvas.draw()
    labels = [t.get_text().replace("\u2212", "-") for t in ax.get_yticklabels() if t.get_text()]
    return len(labels) >= 2 and all(re.fullmatch(r"-?\d+", label) for label in labels), labels


# 1. Observables: the DataFrame against h5py, observables.jsonl against both.
for name in ("pre", "gas"):
    with tethersim.open_run(name) as run:
        table = run.observables()
        expected = h5_columns(f"{name}/trajectory.h5")
        check(sorted(table.columns) == sorted(expected),
              f"{name}: DataFrame columns {sorted(table.columns)}, file {sorted(expected)}")
        for column, value in expected.items():
            if column in table:
                check(table[column].dtype == value.dtype and np.array_equal(table[column].to_numpy(), value),
                      f"{name}: column {column} differs from the file")
        from_log = run.observables("jsonl")
        check(list(from_log.columns) == list(table.columns), f"{name}: jsonl columns {list(from_log.columns)}")
        for column in table.columns:
            if column in from_log:
                check(from_log[column].dtype == table[column].dtype
                      and np.array_equal(from_log[column].to_numpy(), table[column].to_numpy()),
                      f"{name}: jsonl column {column} differs from the trajectory's")
        # The text itself, parsed here, against the HDF5 datasets.
        with open(f"{name}/observables.jsonl") as stream:
            lines = [json.loads(line) for line in stream]
        check(len(lines) == len(expected["time"]) and len(lines) > 3, f"{name}: {len(lines)} lines")
        check([s["time"] for s in lines] == expected["time"].tolist()
              and [s["step"] for s in lines] == expected["step"].tolist()
              and [s["kinetic_energy"] for s in lines] == expected["kinetic_energy"].tolist()
              and [s["event_counts"]["blocking"] for s in lines] == expected["event_counts_blocking"].tolist(),
              f"{name}: observables.jsonl and trajectory.h5 disagree")
        # One step clock: a frame and the sample at its time share the step.
        times = dict(zip(table["time"], table["step"]))
        check(all(times.get(t) == s for t, s in zip(run.frame_times, run.frame_steps)),
              f"{name}: frame steps differ from the samples' at the same time")
with tethersim.open_run("gas") as run:
    check(run.frame_steps.tolist() == list(range(0, 17, 2)), f"gas frame steps {run.frame_steps.tolist()}")

# 2. Layout 1 (older files): model coordinates, tethers as rows, no radii,
#    overrides and tether counts; the same frames must come back.
os.makedirs("old")
shutil.copy("pre/trajectory.h5", "old/trajectory.h5")
shutil.copy("pre/checkpoint.h5", "old/checkpoint.h5")  # where the overrides of old files are
with h5py.File("old/trajectory.h5", "r+") as f:
    part = f["particles/all"]
    part["position/value"][...] = part["position/value"][...] + part["box/offset"][...]
    rows = np.full((part["position/value"].shape[0],) + f["connectivity/tethers/value"].shape[1:], -1)
    lookup = {}
    for k in range(len(rows)):
        row_of = {int(i): r for r, i in enumerate(part["id/value"][k]) if i >= 0}
        m = f["parameters/tethersim/tether_counts"][k]
        rows[k, :m] = [[row_of[int(a)], row_of[int(b)]] for a, b in f["connectivity/tethers/value"][k, :m]]
    f["connectivity/tethers/value"][...] = rows
    f["parameters/tethersim"].attrs["layout"] = 1
    del f["parameters/tethersim"].attrs["overrides"]
    del part["species"].attrs["radii"]
with tethersim.open_run("pre") as new, tethersim.open_run("old") as old:
    check(old.layout == 1 and new.layout >= 2, "layouts")
    for k in range(new.frame_count):
        a, b = new.frame(k), old.frame(k)
        check(np.allclose(a.positions, b.positions, equal_nan=True, rtol=0, atol=1e-9)
              and np.array_equal(a.ids, b.ids), f"layout 1 frame {k} positions")
        check(sorted(map(tuple, np.sort(new.tethers(k), axis=1).tolist()))
              == sorted(map(tuple, old.tethers(k).tolist())), f"layout 1 frame {k} tethers")
        check(np.array_equal(new.tether_rows(k), old.tether_rows(k)), f"layout 1 frame {k} tether rows")
    check(old.species_radii is not None and np.array_equal(old.species_radii, new.species_radii)
          and new.species_radii[3] == 22, f"layout 1 radii {old.species_radii} (override from the checkpoint)")
    check(png_foreground(plots.render_frame(old, -1, "old/frame.png").path) > 0.02, "layout 1 picture")

# 3. plot_observables: units, integer count ticks, energy drift, legends.
from tethersim.units import readable_unit  # noqa: E402
for h5md, plain, mathtext in (("kDa nm+2 ns-2", "kDa nm^2/ns^2", "kDa nm$^{2}$/ns$^{2}$"),
                              ("nm ns-1", "nm/ns", "nm/ns"), ("kDa nm ns-1", "kDa nm/ns", "kDa nm/ns"),
                              ("nm3 nm+2 tu-2", "nm3 nm^2/tu^2", "nm3 nm$^{2}$/tu$^{2}$"),
                              ("s-1", "1/s", "1/s"), ("m kg-1 s-2", "m/(kg s^2)", "m/(kg s$^{2}$)"),
                              ("nm", "nm", "nm"), ("", "", "")):
    check(readable_unit(h5md) == plain and readable_unit(h5md, mathtext=True) == mathtext,
          f"readable_unit({h5md!r}) = {readable_unit(h5md)!r}, {readable_unit(h5md, mathtext=True)!r}")
with tethersim.open_run("pre") as run, h5py.File("pre/trajectory.h5", "r") as f:
    picture = plots.plot_observables(run, "pre_observables.png")
    check(picture.path == "pre_observables.png" and png_foreground(picture.path) > 0.02,
          "presynaptic observables picture is blank")
    axes = picture.axes
    # Kinetic energy starts at 0: not conserved, the energy itself is drawn.
    check("energy" in axes and "energy drift" not in axes, f"presynaptic panels {list(axes)}")
    energy_unit = text(f["observables/kinetic_energy/value"].attrs["unit"])
    time_unit = text(f["observables/kinetic_energy/time"].attrs["unit"])
    # H5MD's factor notation in the file, superscripts on the axis.
    check(energy_unit == "nm3 nm+2 tu-2", f"energy unit in the file {energy_unit!r}")
    check(axes["energy"].get_ylabel() == "kinetic energy [nm3 nm$^{2}$/tu$^{2}$]", axes["energy"].get_ylabel())
    check(np.array_equal(axes["energy"].lines[0].get_ydata(), f["observables/kinetic_energy/value"][:]),
          "energy panel values")
    check(axes["event rate"].get_xlabel() == f"simulated time [{time_unit}]"
          and axes["event rate"].get_ylabel() == f"events per {time_unit}",
          f"rate labels {axes['event rate'].get_xlabel()!r}, {axes['event rate'].get_ylabel()!r}")
    for name in ("particles", "tethers", "clusters", "tethered", "events"):
        if check(name in axes, f"no {name} panel"):
            ok, labels = integer_tick_labels(axes[name])
            check(ok, f"{name} tick labels are not integers: {labels}")
    # The events panel: the total is the sum of the kinds in the file.
    check(np.array_equal(axes["events"].lines[0].get_ydata(), f["observables/event_counts/value"][:].sum(axis=1)),
          "events panel total")
    figure_box = picture.figure.bbox
    for name, ax in axes.items():
        legend = ax.get_legend()
        if legend is not None:
            box = legend.get_window_extent()
            check(box.x0 >= figure_box.x0 and box.x1 <= figure_box.x1 and box.y0 >= figure_box.y0
                  and box.y1 <= figure_box.y1, f"{name}: legend outside the figure")
    try:
        plots.plot_observables(run, energy="drift")
        check(False, "a drift of an energy starting at 0 was drawn")
    except tethersim.TrajectoryError:
        pass

with tethersim.open_run("gas") as run, h5py.File("gas/trajectory.h5", "r") as f:
    energy = f["observables/kinetic_energy/value"][:]
    drift = (energy - energy[0]) / abs(energy[0])
    check(np.abs(drift).max() <= 1e-6 and energy[0] > 0, "the gas does not conserve its energy")
    picture = plots.plot_observables(run, "gas_observables.png")
    check(png_foreground("gas_observables.png") > 0.02, "gas observables picture is blank")
    axes = picture.axes
    check("energy drift" in axes and "energy" not in axes, f"gas panels {list(axes)}")
    line = axes["energy drift"].lines[0]
    check(np.array_equal(line.get_xdata(), f["observables/kinetic_energy/time"][:])
          and np.array_equal(line.get_ydata(), drift), "drift panel is not (E - E0) / |E0|")
    check(np.array_equal(plots.energy_drift(energy), drift), "energy_drift")
    # The drift is no count: its ticks are fractions (the tick check can fail).
    check(not integer_tick_labels(axes["energy drift"])[0], "drift axis has integer ticks")
    both = plots.plot_observables(run, energy="both").axes
    check(np.array_equal(both["energy"].lines[0].get_ydata(), energy)
          and np.array_equal(both["energy drift"].lines[0].get_ydata(), drift), "energy='both'")

# 4. render_frame: one frame, species counts, units, the legend kept.
with tethersim.open_run("pre") as run, h5py.File("pre/trajectory.h5", "r") as f:
    picture = plots.render_frame(run, 2, "pre_frame.png", dpi=100)
    check(picture.frame_index == 2 and png_foreground("pre_frame.png") > 0.02, "frame picture")
    ax = picture.axes["frame"]
    check(ax.get_xlabel() == "x [nm]" and "t = 20 " in ax.get_title(), f"{ax.get_xlabel()!r}, {ax.get_title()!r}")
    present = f["particles/all/id/value"][2] >= 0
    species = f["particles/all/species"][:]
    names = [text(n) for n in f["particles/all/species"].attrs["names"]]
    expected = [f"{n} ({np.count_nonzero(present & (species == s)):,})" for s, n in enumerate(names)]
    legend = ax.get_legend()
    check([t.get_text() for t in legend.get_texts()] == expected, "legend species counts")
    # The legend sits right of the axes; the saved image is the tight box
    # around everything drawn, so it holds the legend whole.
    renderer = picture.figure.canvas.get_renderer()
    tight = picture.figure.get_tightbbox(renderer)
    inches = legend.get_window_extent(renderer).transformed(picture.figure.dpi_scale_trans.inverted())
    check(inches.x0 >= tight.x0 and inches.x1 <= tight.x1 and inches.y1 <= tight.y1, "legend outside the saved box")
    height, width = images.read_pixels("pre_frame.png").shape[:2]
    check(abs(width - (tight.width + 0.2) * 100) <= 3 and abs(height - (tight.height + 0.2) * 100) <= 3,
          f"saved image {width}x{height} is not the tight box {tight.width:.2f}x{tight.height:.2f} in")
    check(plots.render_frame(run, time=31).frame_index == 3, "frame nearest to t = 31")
for bad in (lambda: tethersim.open_run("missing"), lambda: tethersim.open_run("pre/run.log"),
            lambda: tethersim.open_run("pre/checkpoint.h5"), lambda: plots.render_frame("pre", 99)):
    try:
        bad()
        check(False, "bad input accepted")
    except tethersim.TrajectoryError:
        pass

# 5. The scripts: from another directory, without PYTHONPATH.
os.makedirs("elsewhere")
env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def tool(script, *args):
    return subprocess.run([PYTHON, os.path.join(TOOLS, script), *args], cwd="elsewhere", env=env,
                          capture_output=True, text=True)


def expect_refusal(result, what):
    lines = result.stderr.strip().splitlines()
    check(result.returncode == 2 and len(lines) == 1 and "error:" in lines[0],
          f"{what}: exit {result.returncode}, stderr {result.stderr!r}")


done = tool("plot_observables.py", os.path.join(work, "pre"))
check(done.returncode == 0 and done.stdout.strip() == os.path.join(work, "pre", "observables.png"),
      f"plot_observables.py: {done.returncode} {done.stdout!r} {done.stderr!r}")
done = tool("plot_observables.py", os.path.join(work, "gas"), "-o", "gas.png", "--energy", "both")
check(done.returncode == 0 and done.stdout.strip() == "gas.png", f"plot_observables.py -o: {done.stderr!r}")
done = tool("render_frame.py", os.path.join(work, "pre"))
check(done.returncode == 0 and done.stdout.strip() == os.path.join(work, "pre", "frame_4.png"),
      f"render_frame.py: {done.returncode} {done.stdout!r} {done.stderr!r}")
done = tool("render_frame.py", os.path.join(work, "old", "trajectory.h5"), "--time", "12", "-o", "old.png")
check(done.returncode == 0 and done.stdout.strip() == "old.png", f"render_frame.py on layout 1: {done.stderr!r}")
for png in ("../pre/observables.png", "gas.png", "../pre/frame_4.png", "old.png"):
    done = tool("check_image.py", png, "--min-fraction", "0.02")
    check(done.returncode == 0 and " ok: " in done.stdout, f"{png} is blank: {done.stdout!r} {done.stderr!r}")
# A picture of nothing is rejected, or the checks above prove nothing.
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
plt.figure().savefig("blank.png")
done = tool("check_image.py", os.path.join(work, "blank.png"))
check(done.returncode == 1 and "blank" in done.stdout, f"blank image passed: {done.returncode} {done.stdout!r}")

for script in ("plot_observables.py", "render_frame.py"):
    expect_refusal(tool(script, os.path.join(work, "missing")), f"{script} on a missing directory")
    expect_refusal(tool(script, os.path.join(work, "pre", "run.log")), f"{script} on a text file")
    expect_refusal(tool(script, os.path.join(work, "pre", "checkpoint.h5")), f"{script} on a checkpoint")
    expect_refusal(tool(script, os.path.join(work, "elsewhere")), f"{script} on a directory without a run")
expect_refusal(tool("render_frame.py", os.path.join(work, "pre"), "--frame", "99"), "render_frame.py --frame 99")
expect_refusal(tool("check_image.py", "missing.png"), "check_image.py on a missing file")

# 6. The scaling report: the gas run as 1 rank, and as a made-up 2-rank run
#    of the same events in 0.6 of the wall time (speedup 1/0.6).
from tethersim import scaling  # noqa: E402
with open("gas/summary.json") as stream:
    summary = json.load(stream)
for ranks, share in ((1, 1.0), (2, 0.6)):
    os.makedirs(f"sweep/r{ranks}")
    record = dict(summary, ranks=ranks, wall_seconds=summary["wall_seconds"] * share)
    if ranks > 1:
        record["distribution"] = {"ranks": 2, "rank_grid": [2, 1, 1], "duplicated_fraction": 0.01,
                                  "imbalance": 1.0, "windows_per_time_unit": 2.0,
                                  "per_rank": {n: {"max": 1.0, "total": 2.0, "mean": 1.0}
                                               for n, _ in scaling.COUNTERS}}
    with open(f"sweep/r{ranks}/summary.json", "w") as stream:
        json.dump(record, stream)
done = tool("scaling_report.py", os.path.join(work, "sweep"), "-o", "scaling")
check(done.returncode == 0 and done.stdout.strip().splitlines()[-2:] == ["scaling.csv", "scaling.png"],
      f"scaling_report.py: {done.returncode} {done.stdout!r} {done.stderr!r}")
import csv  # noqa: E402
with open("elsewhere/scaling.csv") as stream:
    rows = list(csv.DictReader(stream))
check([int(r["ranks"]) for r in rows] == [1, 2] and abs(float(rows[1]["speedup"]) - 1 / 0.6) < 1e-3,
      f"scaling.csv rows {[(r['ranks'], r['speedup']) for r in rows]}")
check(png_foreground("elsewhere/scaling.png") > 0.02, "scaling.png is blank")
expect_refusal(tool("scaling_report.py", os.path.join(work, "missing")), "scaling_report.py on a missing directory")

sys.exit(check.finish())
