#!/usr/bin/env python3
"""Gather the summary.json files of scaling runs into a CSV table and a plot.

Usage:
    scaling_report.py DIR [DIR ...] [-o PREFIX] [--dpi N]

Each DIR is searched (recursively) for run directories holding summary.json:
a sweep written by jobs/local/*-scaling.sh or jobs/slurm/*-scaling.sh, a
single run, or any tree of runs. Runs are grouped into series: all runs
under one sweep.json (which names the kind, strong or weak), otherwise all
runs with the same parent directory, whose kind is strong when every run has
the same particle count and weak otherwise.

Performance is events per second of wall time (events of this run /
wall_seconds). Within a series the run with the fewest ranks n0 (not
oversubscribed, if there is one) is the reference:
    speedup(n)    = perf(n) / perf(n0)
    efficiency(n) = perf(n) n0 / (n perf(n0))      (= perf(n) / (n perf(1)) for n0 = 1)
For strong scaling this is the usual T(n0) n0 / (n T(n)); for weak scaling,
events per second already account for the larger system.

A run counts as oversubscribed (more ranks than physical cores, so its time
measures time sharing) when its launch.json says so, its directory name
contains "oversubscribed", or it holds a file OVERSUBSCRIBED. Such points are
drawn hollow and flagged in the CSV.

Writes PREFIX.csv (one row per run, with the synchronization counters of
the summary's "distribution" section) and PREFIX.png (wall time, events/s,
efficiency, where the time goes, windows, retries and duplicated work), and
prints their paths. PREFIX defaults to scaling_report; an existing directory
as PREFIX means PREFIX/scaling.{csv,png}. Exit codes: 0 written, 2 bad input
(no summary.json found, unreadable files).

The work is tethersim.scaling.report (python/tethersim).
"""

import argparse
import os
import sys

# The package next to this script, so that the script runs from any
# directory without installing it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
from tethersim import commands  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directories", metavar="DIR", nargs="+", help="sweep or run directories")
    parser.add_argument("-o", "--output", metavar="PREFIX", default="scaling_report",
                        help="write PREFIX.csv and PREFIX.png (default scaling_report)")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the image (default 110)")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(commands.scaling_report(parse_arguments()))
