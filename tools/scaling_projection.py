#!/usr/bin/env python3
"""Project distributed run times to many ranks from two measured runs.

Usage:
    scaling_projection.py SERIAL_RUN MULTI_RANK_RUN [-r 64,512] [--alpha S]
                          [--bandwidth B] [--latency S] [--csv FILE]

SERIAL_RUN and MULTI_RANK_RUN are run directories (or their summary.json)
of the same model over the same span of simulated time: one on a single
rank and one on P_m >= 2 ranks, for example the runs written by
jobs/local/distribution-bench.sh. The multi-rank run should stay in
certified windows (--lean-fallback off) so that its counters describe the
windows rather than a fallback.

The model is the cost model of design/SYNC-CIW.md ("Cost model"), with its
rates measured rather than assumed. Per rank and per window of mean length
delta (R = 1/delta windows per unit of simulated time, independent of the
rank count):

    t_round = lambda e_w t_e (1 + d) + c t_node n_cert + t_halo + t_reduce

    e_w      = n nu delta            events a rank executes per window
                                     (n particles per rank, nu events per
                                     particle per time unit, from the run)
    t_e      = serial seconds per event (the 1-rank run, without its
               checkpoint writes where the summary gives loop_seconds)
    S        = halo surface of a block: the area of its cut faces, for a
               cubic box of N particles split on the rank grid (both faces
               of each cut axis); it grows like (N/P)^(2/3)
    d        = duplicated fraction, proportional to the surface per
               particle: d = d_m (S / n) / (S_m / n_m)
    lambda   = measured imbalance (slowest rank over the mean)
    c        = certifications per window (retries included)
    t_node   = measured certification seconds per node
    n_cert   = nodes a certificate visits, from the run's counters
               examined_owned (o_m) and examined_ghosts (h_m) per
               certification (every particle held, n + ghosts, when the
               run does not report them):
                 implemented: o_m n / n_m + h_m S / S_m (a sparse start
                              examines a share of the owned particles and
                              the first halo layer)
                 shell:       h_m S / S_m, the halo alone (SYNC-CIW.md's
                              O((N/P)^(2/3)) certificate)
    ghosts   = g_m S / S_m
    t_halo   = neighbours x latency + bytes / bandwidth, with the measured
               bytes per window scaled by S / S_m
    t_reduce = allreduces per certification x alpha x ceil(log2 P)
               (phase 2's extra bound exchanges, measured, add one
               neighbour exchange and one allreduce each)

The rank grid is the most cubic one (2x1x1 for P = 2: both faces of the
slab are cut, one through the periodic wrap; 4x4x4 for 64). Efficiency is the serial time of
the same work over P times the projected time:

    weak   (n per rank fixed at the measured value):  n nu t_e / t(P)
    strong (N fixed at the measured total):           N nu t_e / (P t(P))

The alpha (allreduce step), latency and bandwidth defaults describe an
InfiniBand-class network; on one node they are smaller. Fallbacks are not
modelled: the projection describes certified windows.

Prints a table (and writes --csv). Exit codes: 0 done, 2 bad input.
"""

import argparse
import csv
import json
import math
import os
import sys

# Allreduces per certification: the phase-1 verdict and the phase-2 verdict.
REDUCES_PER_CERTIFICATION = 2
# Neighbour exchanges per window: the speed bounds of each certification
# and the state records after the window.
EXCHANGES_PER_CERTIFICATION = 1
EXCHANGES_PER_WINDOW = 1


def fail(message):
    print(f"scaling_projection: error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    file = os.path.join(path, "summary.json") if os.path.isdir(path) else path
    try:
        with open(file) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{file}: {e}")


def rank_grid(p):
    """The most cubic 3-D grid of p ranks (smallest surface per block)."""
    best = None
    for x in range(1, p + 1):
        if p % x:
            continue
        for y in range(1, p // x + 1):
            if (p // x) % y:
                continue
            z = p // x // y
            dims = sorted((x, y, z), reverse=True)
            surface = sum(1.0 / d for d in dims if d > 1)  # cut faces per unit volume
            key = (max(dims) / min(dims), surface)
            if best is None or key < best[0]:
                best = (key, tuple(dims))
    return best[1]


def halo_surface(grid, particles):
    """Cut-face area of one block (in particle spacings squared) when a cubic
    box of `particles` is split on `grid`: both faces of each cut axis."""
    side = particles ** (1.0 / 3.0)
    area = 0.0
    for k in range(3):
        if grid[k] > 1:
            others = [side / grid[j] for j in range(3) if j != k]
            area += 2.0 * others[0] * others[1]
    return area


def neighbours(grid):
    """Distinct neighbour ranks of a block on a periodic grid."""
    count = 1
    for d in grid:
        count *= min(d, 3)
    return count - 1


def measured(serial, multi):
    if serial.get("ranks", 1) != 1:
        fail("the first run must be a 1-rank run")
    dist = multi.get("distribution")
    if not dist or multi.get("ranks", 1) < 2:
        fail("the second run must be a multi-rank run (its summary.json has no distribution section)")
    per = dist["per_rank"]
    span = multi["end_time"] - multi["start_time"]
    serial_span = serial["end_time"] - serial["start_time"]
    if span <= 0 or serial_span <= 0:
        fail("a run covers no simulated time")
    windows = per["windows"]["max"]
    certifications = per["certifications"]["max"]
    if windows <= 0 or certifications <= 0:
        fail("the multi-rank run has no certified window (a fallback ran it all: use --lean-fallback off)")
    ranks = multi["ranks"]
    particles = multi["final"]["particles"]
    grid = tuple(int(v) for v in dist["rank_grid"].split("x"))
    # Particles a certification examines, per rank: owned and ghosts (every
    # particle held, unless the run reports fewer: the sparse start).
    if "examined_owned" in per and "examined_ghosts" in per:
        examined_owned = per["examined_owned"]["total"] / (ranks * certifications)
        examined_ghosts = per["examined_ghosts"]["total"] / (ranks * certifications)
    else:
        examined_owned = per["owned"]["total"] / ranks
        examined_ghosts = per["ghosts"]["total"] / ranks
    nodes = examined_owned + examined_ghosts
    bound_exchanges = per.get("bound_exchanges", {"max": 0})["max"]
    m = {
        "ranks": ranks,
        "grid": grid,
        "particles": particles,
        "per_rank": particles / ranks,
        "nu": multi["events_this_run"] / (particles * span),
        # Without the checkpoint writes where the run reports them.
        "t_e": loop_seconds(serial) / max(serial["events_this_run"], 1),
        "serial_particles": serial["final"]["particles"],
        "delta": span / windows,
        "certifications_per_window": certifications / windows,
        "t_node": per["seconds_certify"]["max"] / (certifications * nodes) if nodes > 0 else 0.0,
        "examined_owned": examined_owned,
        "examined_ghosts": examined_ghosts,
        "exchanges_per_certification": 1.0 + bound_exchanges / certifications,
        "ghosts": per["ghosts"]["mean"],
        "duplicated": dist["duplicated_fraction"],
        "imbalance": max(dist.get("imbalance", 1.0), 1.0),
        "bytes_per_window": per["bytes_sent"]["mean"] / windows,
        "loop_seconds": loop_seconds(multi),
        "span": span,
    }
    return m


def loop_seconds(summary):
    return summary.get("loop_seconds", summary["wall_seconds"])


def project(m, p, n, alpha, latency, bandwidth, certificate):
    grid = rank_grid(p) if p != m["ranks"] else m["grid"]
    surface = halo_surface(grid, n * p) / halo_surface(m["grid"], m["particles"])
    duplicated = m["duplicated"] * surface * m["per_rank"] / n
    ghosts = m["ghosts"] * surface
    events = n * m["nu"] * m["delta"]
    t_exec = m["imbalance"] * events * m["t_e"] * (1.0 + duplicated)
    # Owned particles examined scale with the particles per rank, ghosts with
    # the halo surface.
    ghosts_examined = m["examined_ghosts"] * surface
    visited = m["examined_owned"] * n / m["per_rank"] + ghosts_examined if certificate == "implemented" else ghosts_examined
    c = m["certifications_per_window"]
    t_cert = c * m["t_node"] * visited
    # Phase 2 may exchange bounds more than once; each extra round is one
    # neighbour exchange and one allreduce.
    rounds = m["exchanges_per_certification"]
    exchanges = EXCHANGES_PER_WINDOW + c * EXCHANGES_PER_CERTIFICATION * rounds
    t_halo = exchanges * neighbours(grid) * latency + m["bytes_per_window"] * surface / bandwidth
    t_reduce = c * (REDUCES_PER_CERTIFICATION + rounds - 1) * alpha * max(math.ceil(math.log2(p)), 1)
    t_round = t_exec + t_cert + t_halo + t_reduce
    per_time_unit = t_round / m["delta"]
    serial = n * m["nu"] * m["t_e"]
    return {
        "grid": "x".join(str(d) for d in grid),
        "duplicated": duplicated,
        "events_per_window": events,
        "seconds_per_time_unit": per_time_unit,
        "share_certify": t_cert / t_round,
        "share_exchange": (t_halo + t_reduce) / t_round,
        "efficiency": serial / per_time_unit,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("serial")
    parser.add_argument("multi")
    parser.add_argument("-r", "--ranks", default="64,512", help="rank counts to project to (default 64,512)")
    parser.add_argument("--alpha", type=float, default=5e-6, help="seconds per allreduce step (default 5e-6)")
    parser.add_argument("--latency", type=float, default=3e-6, help="seconds per neighbour message (default 3e-6)")
    parser.add_argument("--bandwidth", type=float, default=5e9, help="bytes per second per rank (default 5e9)")
    parser.add_argument("--csv", help="also write the table here")
    args = parser.parse_args()
    try:
        targets = [int(v) for v in args.ranks.split(",")]
    except ValueError:
        fail(f"--ranks: expected a comma-separated list of rank counts, got '{args.ranks}'")
    if any(p < 2 for p in targets):
        fail("--ranks: rank counts must be at least 2")
    m = measured(load(args.serial), load(args.multi))

    print(f"measured on {m['ranks']} ranks ({'x'.join(map(str, m['grid']))}), "
          f"{m['particles']:.0f} particles ({m['per_rank']:.0f} per rank):")
    print(f"  windows per time unit {1.0 / m['delta']:.4g} (delta {m['delta']:.4g}), "
          f"certifications per window {m['certifications_per_window']:.3g}, "
          f"events per particle per time unit {m['nu']:.4g}")
    print(f"  serial {m['t_e'] * 1e6:.3g} us per event, certification {m['t_node'] * 1e6:.3g} us per node, "
          f"duplicated {100 * m['duplicated']:.3g}%, {m['bytes_per_window']:.4g} bytes sent per rank per window")
    # The model at the measured point: how well it describes the run.
    here = project(m, m["ranks"], m["per_rank"], args.alpha, args.latency, args.bandwidth, "implemented")
    print(f"  the model at {m['ranks']} ranks gives {here['seconds_per_time_unit'] * m['span']:.4g} s "
          f"for the run, measured {m['loop_seconds']:.4g} s (without checkpoint writes)")

    rows = []
    for scaling, n_of in (("weak", lambda p: m["per_rank"]), ("strong", lambda p: m["particles"] / p)):
        for certificate in ("implemented", "shell"):
            for p in targets:
                r = project(m, p, n_of(p), args.alpha, args.latency, args.bandwidth, certificate)
                rows.append({"scaling": scaling, "certificate": certificate, "ranks": p,
                             "particles_per_rank": round(n_of(p)), **r})
    header = ["scaling", "certificate", "ranks", "grid", "particles_per_rank", "events_per_window",
              "duplicated", "share_certify", "share_exchange", "seconds_per_time_unit", "efficiency"]
    print()
    print(" ".join(f"{h:>14}" for h in header))
    for r in rows:
        cells = []
        for h in header:
            v = r[h]
            cells.append(f"{v:>14.4g}" if isinstance(v, float) else f"{v:>14}")
        print(" ".join(cells))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header)
            w.writeheader()
            for r in rows:
                w.writerow({h: r[h] for h in header})
        print(f"wrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
