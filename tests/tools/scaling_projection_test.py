#!/usr/bin/env python3
"""Checks of tools/scaling_projection.py: its rank grids, halo shares and cut
areas, its cost model on synthetic runs whose answers are known, the fit of
the window length to the cut area, and its refusals of bad input."""

import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "scaling_projection.py")
spec = importlib.util.spec_from_file_location("scaling_projection", TOOL)
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}")


def close(a, b, rel=1e-12):
    return math.isclose(a, b, rel_tol=rel, abs_tol=0.0)


def summaries(ranks=2, commits=400, duplicated=0.0, wasted=0.0, cpu=0.0, bytes_sent=0.0, attempts=None):
    """A 1-rank and a multi-rank summary of 2x10^5 particles over 2 time
    units, 10 events per particle per time unit, 1 us per event."""
    n, span, nu, t_e = 200000, 2.0, 10.0, 1e-6
    events = int(n * span * nu)
    serial = {"ranks": 1, "start_time": 0.0, "end_time": span, "wall_seconds": events * t_e,
              "events_this_run": events, "final": {"particles": n}}
    per_rank = {
        "commits": {"max": commits}, "speculative_windows": {"max": attempts or commits},
        "events_unique": {"total": events}, "events_duplicated": {"total": duplicated * events},
        "events_rolled_back": {"total": wasted * events},
        "seconds_verify": {"mean": cpu}, "seconds_exchange": {"mean": 0.0},
        "bytes_sent": {"mean": bytes_sent},
    }
    grid = {2: "2x1x1", 4: "4x1x1", 8: "2x2x2"}[ranks]
    multi = {"ranks": ranks, "start_time": 0.0, "end_time": span, "wall_seconds": 1.0,
             "events_this_run": events, "final": {"particles": n},
             "distribution": {"rank_grid": grid, "imbalance": 1.0, "per_rank": per_rank}}
    return serial, multi


# Rank grids, areas and halo shares.
check(sp.rank_grid(2) == (2, 1, 1), "2 ranks form a 2x1x1 grid")
check(sp.rank_grid(64) == (4, 4, 4), "64 ranks form a 4x4x4 grid")
check(sp.rank_grid(512) == (8, 8, 8), "512 ranks form an 8x8x8 grid")
check(sorted(sp.rank_grid(12)) == [2, 2, 3], "12 ranks form a 3x2x2 grid")
check(sp.rank_grid(512, "sheet") in ((32, 16, 1), (16, 32, 1)), f"a sheet on 512 ranks: {sp.rank_grid(512, 'sheet')}")
check(sp.neighbours((2, 1, 1)) == 1, "a 2x1x1 block has one neighbour rank")
check(sp.neighbours((4, 4, 4)) == 26, "a 4x4x4 block has 26 neighbour ranks")
n = 1e6
check(close(sp.cut_area((2, 1, 1), 2 * n, "box"), 2 * (2 * n) ** (2 / 3), 1e-9), "slab area")
check(close(sp.cut_area((4, 4, 4), 64 * n, "box"), 6 * n ** (2 / 3), 1e-9), "cube area")
check(sp.cut_area((1, 1, 1), n, "box") == 0.0, "an uncut box has no cut face")
# A slab of 2n split in two: the block is (2n)^(1/3) / 2 wide, the halo 2h.
side = (2 * n) ** (1 / 3)
check(close(sp.duplicated_share((2, 1, 1), 2 * n, "box", 3.0), 6.0 / (side / 2), 1e-9), "halo share of a slab")
check(close(sp.halo_thickness((4, 4, 4), 64 * n, "box", sp.duplicated_share((4, 4, 4), 64 * n, "box", 2.5)), 2.5, 1e-9),
      "halo thickness from its share")
check(close(sp.duplicated_share((2, 2, 1), 4 * n, "sheet", 1.0), (1002 * 1002 - 1e6) / 1e6, 1e-9), "halo share of a sheet")

# No overhead at all: every projection is perfectly efficient.
serial, multi = summaries()
m = sp.measured(serial, multi, "box")
check(close(m["nu"], 10.0) and close(m["t_e"], 1e-6) and close(m["delta"], 2.0 / 400), "measured rates")
for p in (2, 64, 512):
    r = sp.project(m, 2.0, p, m["per_rank"], "box", 0.0, 0.0, 1e9)
    check(close(r["efficiency"], 1.0, 1e-12), f"no overhead: efficiency 1 at {p} ranks")

# A summary with loop_seconds: the serial rate leaves its checkpoint writes out.
serial, multi = summaries()
serial["loop_seconds"] = serial["wall_seconds"]
serial["wall_seconds"] *= 2
check(close(sp.measured(serial, multi, "box")["t_e"], 1e-6), "t_e from loop_seconds, not wall_seconds")

# Rolled back work alone: efficiency 1 / (1 + w) at any rank count.
serial, multi = summaries(wasted=0.25)
m = sp.measured(serial, multi, "box")
for p in (64, 512):
    r = sp.project(m, 2.0, p, m["per_rank"], "box", 0.0, 0.0, 1e9)
    check(close(r["efficiency"], 0.8, 1e-12), f"a quarter rolled back: efficiency 0.8 at {p} ranks")

# A window's bookkeeping: its executed events cost 1.25 t_e each, so every
# projection pays a fifth more for execution (efficiency 0.8 without other
# overheads); a run that reports faster events than t_e counts as t_e.
serial, multi = summaries()
per = multi["distribution"]["per_rank"]
per["events_executed"] = {"mean": 4e6 / 2}
per["seconds_execute"] = {"mean": 4e6 / 2 * 1.25e-6}
m = sp.measured(serial, multi, "box")
check(close(m["execute_overhead"], 1.25, 1e-12), f"execution overhead measured: {m['execute_overhead']}")
for p in (2, 512):
    r = sp.project(m, 2.0, p, m["per_rank"], "box", 0.0, 0.0, 1e9)
    check(close(r["efficiency"], 0.8, 1e-12), f"execution overhead 1.25: efficiency 0.8 at {p} ranks")
per["seconds_execute"] = {"mean": 4e6 / 2 * 0.5e-6}
check(sp.measured(serial, multi, "box")["execute_overhead"] == 1.0, "execution faster than t_e counts as t_e")

# Duplicated work: the measured share on the slab gives the halo thickness,
# which then sets the share on any grid (same block: same share).
serial, multi = summaries(duplicated=0.1)
m = sp.measured(serial, multi, "box")
r = sp.project(m, 2.0, 2, m["per_rank"], "box", 0.0, 0.0, 1e9)
check(close(r["duplicated"], 0.1, 1e-9) and close(r["efficiency"], 1 / 1.1, 1e-9), "duplicated work alone")
strong = sp.project(m, 2.0, 64, m["particles"] / 64, "box", 0.0, 0.0, 1e9)
check(strong["duplicated"] > 0.1, "strong scaling: smaller blocks, a larger halo share")

# Per-attempt costs: 400 attempts of 1 ms each over 2 time units, with the
# window as measured (2 ranks, same area): 1 ms per window of delta 0.005.
serial, multi = summaries(cpu=0.4)
m = sp.measured(serial, multi, "box")
r = sp.project(m, 2.0, 2, m["per_rank"], "box", 0.0, 0.0, 1e30)
events = m["per_rank"] * 10.0 * 0.005
check(close(r["efficiency"], events * 1e-6 / (events * 1e-6 + 1e-3), 1e-9), "checking costs per attempt")
# Failed attempts cost again: twice the attempts per commit, twice the cost.
serial, multi = summaries(cpu=0.8, attempts=800)
m2 = sp.measured(serial, multi, "box")
r2 = sp.project(m2, 2.0, 2, m2["per_rank"], "box", 0.0, 0.0, 1e30)
check(close(r2["share_check"] * r2["seconds_per_time_unit"] * 0.005, 2e-3, 1e-9), "two attempts per commit")

# The window length falls with the total cut area: runs on 2 and 8 ranks of
# the same box whose windows follow A^(-1/3) give k = 3.
s2, m2 = summaries(ranks=2, commits=400)
s8, m8 = summaries(ranks=8, commits=400)
a2 = sp.cut_area((2, 1, 1), 200000, "box") * 2
a8 = sp.cut_area((2, 2, 2), 200000, "box") * 8
m8["distribution"]["per_rank"]["commits"]["max"] = 400 * (a8 / a2) ** (1 / 3)
m8["distribution"]["per_rank"]["speculative_windows"]["max"] = 400 * (a8 / a2) ** (1 / 3)
runs = [sp.measured(s2, m2, "box"), sp.measured(s8, m8, "box")]
check(close(sp.fit_exponent(runs), 3.0, 1e-9), f"fitted exponent: {sp.fit_exponent(runs)}")
check(sp.fit_exponent(runs[:1]) is None, "one rank count: no fit")
r = sp.project(runs[0], 3.0, 64, runs[0]["per_rank"], "box", 0.0, 0.0, 1e9)
a64 = sp.cut_area((4, 4, 4), 64 * 100000, "box") * 64
check(close(r["delta"], 0.005 * (a64 / a2) ** (-1 / 3), 1e-9), "window length at 64 ranks")
# A floor on the window length: never shorter, and above it the power law.
floored = sp.project(runs[0], 3.0, 64, runs[0]["per_rank"], "box", 0.0, 0.0, 1e9, delta_floor=0.004)
check(close(floored["delta"], 0.004, 1e-12) and floored["events_per_window"] > r["events_per_window"],
      f"window length floor: {floored['delta']}")
check(sp.project(runs[0], 3.0, 64, runs[0]["per_rank"], "box", 0.0, 0.0, 1e9, delta_floor=1e-6)["delta"] == r["delta"],
      "a floor below the power law changes nothing")

# The command line: a table with the requested rank counts; bad input exits 2.
with tempfile.TemporaryDirectory() as tmp:
    serial, multi = summaries(duplicated=0.1, wasted=0.1, cpu=0.1, bytes_sent=1e6)
    _, multi8 = summaries(ranks=8, commits=600, duplicated=0.3, wasted=0.1, cpu=0.1, bytes_sent=1e6)
    for name, content in (("serial.json", serial), ("multi.json", multi), ("multi8.json", multi8)):
        with open(os.path.join(tmp, name), "w") as f:
            json.dump(content, f)
    s, mu, mu8 = (os.path.join(tmp, x) for x in ("serial.json", "multi.json", "multi8.json"))
    out = subprocess.run([sys.executable, TOOL, s, mu, mu8, "-r", "64,512", "--total-events", "4e10",
                          "--csv", os.path.join(tmp, "p.csv")], capture_output=True, text=True)
    check(out.returncode == 0, f"the tool runs: {out.stderr}")
    check("(fitted)" in out.stdout, "two rank counts: the exponent is fitted")
    costs2 = subprocess.run([sys.executable, TOOL, s, mu, mu8, "-r", "64", "--cost-ranks", "2"],
                            capture_output=True, text=True)
    check(costs2.returncode == 0 and costs2.stdout != out.stdout and "t_e" in costs2.stdout,
          f"--cost-ranks 2: {costs2.stderr}")
    with open(os.path.join(tmp, "p.csv")) as f:
        rows = f.read().splitlines()
    check(len(rows) == 1 + 4 and "projected_wall_hours" in rows[0], f"weak and strong at two rank counts: {rows}")
    no_commits = dict(multi)
    no_commits["distribution"] = {"rank_grid": "2x1x1", "per_rank": {"commits": {"max": 0}}}
    old = dict(multi)
    old["distribution"] = {"rank_grid": "2x1x1", "per_rank": {"windows": {"max": 3}}}
    for name, content in (("none.json", no_commits), ("old.json", old)):
        with open(os.path.join(tmp, name), "w") as f:
            json.dump(content, f)
    bad = [([mu, s], "the first run must be a 1-rank run"),
           ([s, s], "no distribution section"),
           ([s, os.path.join(tmp, "none.json")], "committed no speculative window"),
           ([s, os.path.join(tmp, "old.json")], "older tethersim"),
           ([s, os.path.join(tmp, "missing.json")], "missing.json"),
           ([s, mu, "-r", "1"], "at least 2"),
           ([s, mu, "-r", "x"], "separated by commas"),
           ([s, mu, mu8, "--cost-ranks", "4"], "no run on that many ranks")]
    for args, message in bad:
        out = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
        check(out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1,
              f"bad input {args[-1]}: exit {out.returncode}, {out.stderr.strip()}")

if failures:
    sys.exit(1)
print("scaling_projection: all checks passed")
