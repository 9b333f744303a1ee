#!/usr/bin/env python3
"""Checks of tools/scaling_projection.py: its rank grids and halo surfaces,
its cost model on synthetic runs whose answers are known, and its refusals
of bad input."""

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


def summaries(overhead=True, duplicated=0.0):
    """A 1-rank and a 2-rank summary of 2x10^5 particles over 2 time units,
    10 events per particle per time unit, 1 us per event."""
    n, span, nu, t_e = 200000, 2.0, 10.0, 1e-6
    events = int(n * span * nu)
    serial = {"ranks": 1, "start_time": 0.0, "end_time": span, "wall_seconds": events * t_e,
              "events_this_run": events, "final": {"particles": n}}
    windows, certifications = 400, 800
    per_rank = {
        "windows": {"max": windows}, "certifications": {"max": certifications},
        "owned": {"total": n}, "ghosts": {"total": 20000 if overhead else 0, "mean": 10000 if overhead else 0},
        "seconds_certify": {"max": 0.5 if overhead else 0.0},
        "bytes_sent": {"mean": 1e6 if overhead else 0.0},
    }
    multi = {"ranks": 2, "start_time": 0.0, "end_time": span, "wall_seconds": 1.0,
             "events_this_run": events, "final": {"particles": n},
             "distribution": {"rank_grid": "2x1x1", "duplicated_fraction": duplicated, "imbalance": 1.0,
                              "per_rank": per_rank}}
    return serial, multi


# Rank grids and surfaces.
check(sp.rank_grid(2) == (2, 1, 1), "2 ranks form a 2x1x1 grid")
check(sp.rank_grid(64) == (4, 4, 4), "64 ranks form a 4x4x4 grid")
check(sp.rank_grid(512) == (8, 8, 8), "512 ranks form an 8x8x8 grid")
check(sorted(sp.rank_grid(12)) == [2, 2, 3], "12 ranks form a 3x2x2 grid")
check(sp.neighbours((2, 1, 1)) == 1, "a 2x1x1 block has one neighbour rank")
check(sp.neighbours((4, 4, 4)) == 26, "a 4x4x4 block has 26 neighbour ranks")
n = 1e6
# 2x1x1 over 2n: both x faces, each (2n)^(2/3); 4x4x4 over 64n: 6 faces of n^(2/3).
check(close(sp.halo_surface((2, 1, 1), 2 * n), 2 * (2 * n) ** (2 / 3), 1e-9), "slab surface")
check(close(sp.halo_surface((4, 4, 4), 64 * n), 6 * n ** (2 / 3), 1e-9), "cube surface")
check(sp.halo_surface((1, 1, 1), n) == 0.0, "an uncut box has no halo")

# No overhead at all: every projection is perfectly efficient.
serial, multi = summaries(overhead=False)
m = sp.measured(serial, multi)
check(close(m["nu"], 10.0) and close(m["t_e"], 1e-6) and close(m["delta"], 2.0 / 400), "measured rates")
for p in (2, 64, 512):
    for cert in ("implemented", "shell"):
        r = sp.project(m, p, m["per_rank"], 0.0, 0.0, 1e9, cert)
        check(close(r["efficiency"], 1.0, 1e-12), f"no overhead: efficiency 1 at {p} ranks ({cert})")

# A summary with loop_seconds: the serial rate leaves its checkpoint writes
# out (here a write as long as the run).
serial, multi = summaries(overhead=False)
serial["loop_seconds"] = serial["wall_seconds"]
serial["wall_seconds"] *= 2
check(close(sp.measured(serial, multi)["t_e"], 1e-6), "t_e from loop_seconds, not wall_seconds")

# Duplicated work alone: efficiency 1 / (1 + d), with d following the
# surface per particle (weak scaling to 4x4x4: 3 / 2^(2/3) times the slab's).
serial, multi = summaries(overhead=False, duplicated=0.01)
m = sp.measured(serial, multi)
r = sp.project(m, 64, m["per_rank"], 0.0, 0.0, 1e9, "implemented")
d = 0.01 * 3 / 2 ** (2 / 3)
check(close(r["duplicated"], d, 1e-9), f"duplicated fraction at 64 ranks: {r['duplicated']} against {d}")
check(close(r["efficiency"], 1 / (1 + d), 1e-9), "efficiency with duplicated work only")
# Strong scaling: the duplicated fraction grows like (P/N)^(1/3) on cubic grids.
r64 = sp.project(m, 64, m["particles"] / 64, 0.0, 0.0, 1e9, "implemented")
r512 = sp.project(m, 512, m["particles"] / 512, 0.0, 0.0, 1e9, "implemented")
check(close(r512["duplicated"] / r64["duplicated"], 2.0, 1e-9), "strong scaling: 8x the ranks, 2x the duplication")

# With overhead: certification costs 0.5 s / (800 certifications x 110 000
# nodes) per node; the implemented certificate visits every node, the shell
# one the ghosts only, so it is cheaper; every efficiency is below 1.
serial, multi = summaries(overhead=True)
m = sp.measured(serial, multi)
check(close(m["t_node"], 0.5 / (800 * 110000), 1e-12), "certification seconds per node")
full = sp.project(m, 2, m["per_rank"], 0.0, 0.0, 1e12, "implemented")
shell = sp.project(m, 2, m["per_rank"], 0.0, 0.0, 1e12, "shell")
check(close(full["share_certify"] * full["seconds_per_time_unit"] * m["delta"], 2 * m["t_node"] * 110000, 1e-6),
      "implemented certificate: two certifications of every node per window")
check(shell["efficiency"] > full["efficiency"], "a shell certificate costs less than a full one")
check(0.0 < full["efficiency"] < 1.0, "overhead lowers the efficiency")

# A sparse start: the run reports the particles examined per certification
# (5000 owned and 2000 ghosts per rank): certification costs 0.5 s over
# those, owned ones scale with the particles per rank and ghosts with the
# surface; extra bound exchanges add messages.
serial, multi = summaries(overhead=True)
per = multi["distribution"]["per_rank"]
per["examined_owned"] = {"total": 2 * 800 * 5000}
per["examined_ghosts"] = {"total": 2 * 800 * 2000}
per["bound_exchanges"] = {"max": 400}
m = sp.measured(serial, multi)
check(close(m["t_node"], 0.5 / (800 * 7000), 1e-12), "sparse: certification seconds per examined particle")
check(close(m["exchanges_per_certification"], 1.5, 1e-12), "bound exchanges per certification")
r = sp.project(m, 2, m["per_rank"], 0.0, 0.0, 1e30, "implemented")
check(close(r["share_certify"] * r["seconds_per_time_unit"] * m["delta"], 2 * m["t_node"] * 7000, 1e-6),
      "sparse: two certifications of 7000 particles per window")
half = sp.project(m, 2, m["per_rank"] / 2, 0.0, 0.0, 1e30, "implemented")
check(close(half["share_certify"] * half["seconds_per_time_unit"] * m["delta"], 2 * m["t_node"] * (2500 + 2000 * 0.5 ** (2 / 3)), 1e-6),
      "sparse: owned particles examined scale with the particles per rank, ghosts with the surface")
slow = sp.project(m, 2, m["per_rank"], 0.0, 1e-3, 1e30, "implemented")
check(close(slow["share_exchange"] * slow["seconds_per_time_unit"] * m["delta"], (1 + 2 * 1.5) * 1e-3, 1e-6),
      "sparse: one exchange after the window and 1.5 per certification")

# The command line: a table with the requested rank counts; bad input exits 2.
with tempfile.TemporaryDirectory() as tmp:
    for name, content in (("serial.json", serial), ("multi.json", multi)):
        with open(os.path.join(tmp, name), "w") as f:
            json.dump(content, f)
    s, mu = os.path.join(tmp, "serial.json"), os.path.join(tmp, "multi.json")
    out = subprocess.run([sys.executable, TOOL, s, mu, "-r", "64,512", "--csv", os.path.join(tmp, "p.csv")],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"the tool runs: {out.stderr}")
    with open(os.path.join(tmp, "p.csv")) as f:
        rows = f.read().splitlines()
    check(len(rows) == 1 + 8, f"weak and strong, two certificates, two rank counts: {len(rows) - 1} rows")
    bad = [([mu, s], "the first run must be a 1-rank run"),
           ([s, s], "must be a multi-rank run"),
           ([s, os.path.join(tmp, "missing.json")], "missing.json"),
           ([s, mu, "-r", "1"], "at least 2"),
           ([s, mu, "-r", "x"], "comma-separated")]
    for args, message in bad:
        out = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
        check(out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1,
              f"bad input {args[-1]}: exit {out.returncode}, {out.stderr.strip()}")

if failures:
    sys.exit(1)
print("scaling_projection: all checks passed")
