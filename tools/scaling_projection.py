#!/usr/bin/env python3
"""Project distributed run times to many ranks from counted work.

Usage:
    scaling_projection.py SERIAL_RUN MULTI_RANK_RUN [MULTI_RANK_RUN ...]
                          [-r 64,512] [--per-rank N] [--total N]
                          [--geometry box|sheet] [--alpha S] [--latency S]
                          [--bandwidth B] [--cost-ranks P] [--delta-floor F]
                          [--total-events E]
                          [--csv FILE]

SERIAL_RUN and each MULTI_RANK_RUN are run directories (or their
summary.json) of one model over one span of simulated time: one on a single
rank and one or more on P >= 2 ranks (oversubscribed runs will do: only
their counts are used, never their wall time). The runs' counts do not
depend on how many cores the ranks shared.

Cost model of a speculative window (docs/distribution.md, "What a window
costs"), per rank, for a window of committed length delta:

    t_window = lambda n nu delta t_e x (1 + d) (1 + w)      executing
             + a (t_cpu S / S_m)                            checking, undoing, packing
             + a (m latency + b delta (S / S_m) / bandwidth) exchanging
             + a alpha ceil(log2 P)                         agreeing

    n        particles per rank; nu events per particle per time unit and
             t_e serial seconds per event (from SERIAL_RUN, without its
             checkpoint writes)
    x        a window's seconds per executed event over t_e (the undo log and
             the histories a speculative window keeps; measured in the cost
             run, so it also holds what the ranks' sharing of memory
             bandwidth costs there: pessimistic), at least 1
    d        duplicated events per committed event: the halo's share of the
             block, from a halo thickness h fitted to the measured d (the
             halo is kHaloDepth sectors thick whatever the block)
    w        events rolled back (and run again) per committed event, as
             measured (the window controller keeps the share of windows cut
             short near one in five whatever the rank count)
    a        attempts per committed window, as measured
    lambda   measured imbalance (slowest rank over the mean)
    S        cut-face area of one block; t_cpu measured seconds of checking,
             undoing and packing per attempt, scaled with S
    m        messages per attempt (three neighbour exchanges, one message per
             neighbour rank each); b bytes per unit of delta, scaled with S
    delta    a window stands until the earliest violation on any rank, and
             violations start on cut faces: its length falls with the total
             cut area A = P S as delta = delta_m (A / A_m)^(-1/k). With
             runs on several rank counts, k is fitted to their (A, delta);
             with one, k = 2 (stated in the output). --delta-floor F keeps
             delta >= F: a violation starts in a halo's outer layer and
             must cross it before it matters, so the power law is a
             pessimistic extrapolation and the floor an optimistic one.

Efficiency is the serial time of the same work over P times the projected
time (weak: n fixed; strong: n P fixed).

Network defaults describe an InfiniBand-class cluster: allreduce step
alpha = 3 us, latency 2 us, bandwidth 5 GB/s.
Prints a table (and writes --csv). Exit codes: 0 done, 2 bad input.
"""

import argparse
import csv
import json
import math
import os
import sys

# Histories; the commit's requests (with the records of particles entering
# a window); the owners' answers.
MESSAGES_PER_ATTEMPT_PER_NEIGHBOUR = 3


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


def rank_grid(p, geometry="box"):
    """The most cubic grid of p ranks (a square one for a sheet)."""
    best = None
    for x in range(1, p + 1):
        if p % x:
            continue
        for y in range(1, p // x + 1):
            if (p // x) % y:
                continue
            z = p // x // y
            if geometry == "sheet" and z != 1:
                continue
            dims = sorted((x, y, z), reverse=True)
            # A sheet is never cut across its thickness: squareness in x, y.
            used = dims[:2] if geometry == "sheet" else dims
            key = (max(used) / min(used), sum(1.0 / d for d in dims if d > 1))
            if best is None or key < best[0]:
                best = (key, tuple(dims))
    return best[1]


def block_sides(grid, particles, geometry):
    """Sides of one block in particle spacings: a cube of `particles`, or a
    square sheet of that many (its thickness is one spacing, never cut)."""
    if geometry == "sheet":
        side = math.sqrt(particles)
        return (side / grid[0], side / grid[1], 1.0)
    side = particles ** (1.0 / 3.0)
    return tuple(side / g for g in grid)


def cut_area(grid, particles, geometry):
    """Cut-face area of one block: both faces of each cut axis."""
    sides = block_sides(grid, particles, geometry)
    area = 0.0
    for k in range(3):
        if grid[k] > 1:
            others = [sides[j] for j in range(3) if j != k]
            area += 2.0 * others[0] * others[1]
    return area


def duplicated_share(grid, particles, geometry, h):
    """Halo volume over block volume for a halo h spacings thick on cut axes."""
    sides = block_sides(grid, particles, geometry)
    padded = 1.0
    for k in range(3):
        padded *= sides[k] + (2.0 * h if grid[k] > 1 else 0.0)
    return padded / (sides[0] * sides[1] * sides[2]) - 1.0


def halo_thickness(grid, particles, geometry, d):
    """The h whose duplicated share on `grid` is d (bisection)."""
    lo, hi = 0.0, 1e6
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if duplicated_share(grid, particles, geometry, mid) < d:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def neighbours(grid):
    """Distinct neighbour ranks of a block on a periodic grid."""
    count = 1
    for d in grid:
        count *= min(d, 3)
    return count - 1


def loop_seconds(summary):
    return summary.get("loop_seconds", summary["wall_seconds"])


def measured(serial, multi, geometry):
    if serial.get("ranks", 1) != 1:
        fail("the first run must be a 1-rank run")
    dist = multi.get("distribution")
    if not dist or multi.get("ranks", 1) < 2:
        fail("a multi-rank run's summary.json has no distribution section")
    per = dist["per_rank"]
    if "commits" not in per:
        fail("a multi-rank run has no speculative-window counters (written by an older tethersim)")
    span = multi["end_time"] - multi["start_time"]
    if span <= 0 or serial["end_time"] - serial["start_time"] <= 0:
        fail("a run covers no simulated time")
    commits = per["commits"]["max"]
    if commits <= 0:
        fail("a multi-rank run committed no speculative window (a fallback ran it: use --lean-fallback off)")
    ranks = multi["ranks"]
    particles = multi["final"]["particles"]
    grid = tuple(int(v) for v in dist["rank_grid"].split("x"))
    committed = max(per["events_unique"]["total"], 1)
    attempts = per["speculative_windows"]["max"]
    cpu = per["seconds_verify"]["mean"] + per["seconds_exchange"]["mean"]
    t_e = loop_seconds(serial) / max(serial["events_this_run"], 1)
    executed = per.get("events_executed", {}).get("mean", 0)
    seconds_execute = per.get("seconds_execute", {}).get("mean", 0.0)
    overhead = seconds_execute / executed / t_e if executed > 0 and seconds_execute > 0 else 1.0
    return {
        "ranks": ranks,
        "grid": grid,
        "particles": particles,
        "per_rank": particles / ranks,
        "area": cut_area(grid, particles, geometry),
        "nu": multi["events_this_run"] / (particles * span),
        "t_e": t_e,
        "execute_overhead": max(overhead, 1.0),
        "delta": span / commits,
        "attempts": attempts / commits,
        "duplicated": per["events_duplicated"]["total"] / committed,
        "wasted": per["events_rolled_back"]["total"] / committed,
        "imbalance": max(dist.get("imbalance", 1.0), 1.0),
        "cpu_per_attempt": cpu / max(attempts, 1),
        "bytes_per_time": per["bytes_sent"]["mean"] / span,
    }


def fit_exponent(runs):
    """k in delta ~ A^(-1/k) over the runs' total cut areas (least squares in
    logs); None with fewer than two distinct areas."""
    points = [(math.log(m["area"] * m["ranks"]), math.log(m["delta"])) for m in runs]
    if len({round(x, 9) for x, _ in points}) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return -1.0 / slope if slope < 0 else math.inf


def project(m, k, p, n, geometry, alpha, latency, bandwidth, delta_floor=0.0):
    grid = rank_grid(p, geometry)
    h = halo_thickness(m["grid"], m["particles"], geometry, m["duplicated"])
    d = duplicated_share(grid, n * p, geometry, h)
    area = cut_area(grid, n * p, geometry)
    scale = area / m["area"]
    delta = max(m["delta"] * ((area * p) / (m["area"] * m["ranks"])) ** (-1.0 / k), delta_floor)
    a = m["attempts"]
    t_exec = (m["imbalance"] * n * m["nu"] * delta * m["t_e"] * m["execute_overhead"] * (1.0 + d)
              * (1.0 + m["wasted"]))
    t_check = a * m["cpu_per_attempt"] * scale
    t_net = a * (MESSAGES_PER_ATTEMPT_PER_NEIGHBOUR * neighbours(grid) * latency
                 + m["bytes_per_time"] * delta * scale / bandwidth)
    t_agree = a * alpha * max(math.ceil(math.log2(p)), 1)
    t_window = t_exec + t_check + t_net + t_agree
    useful = n * m["nu"] * delta * m["t_e"]
    return {
        "grid": "x".join(str(g) for g in grid),
        "delta": delta,
        "duplicated": d,
        "events_per_window": n * m["nu"] * delta,
        "seconds_per_time_unit": t_window / delta,
        "share_execute": t_exec / t_window,
        "share_check": t_check / t_window,
        "share_network": (t_net + t_agree) / t_window,
        "efficiency": useful / t_window,
    }


def main():
    ap = argparse.ArgumentParser(description="Project speculative-window runs to many ranks from counted work.")
    ap.add_argument("serial")
    ap.add_argument("multi", nargs="+")
    ap.add_argument("-r", "--ranks", default="64,512")
    ap.add_argument("--per-rank", type=float, help="weak scaling: particles per rank (default: the largest run's)")
    ap.add_argument("--total", type=float, help="strong scaling: particles in all (default: the largest run's)")
    ap.add_argument("--geometry", choices=["box", "sheet"], default="box")
    ap.add_argument("--alpha", type=float, default=3e-6)
    ap.add_argument("--latency", type=float, default=2e-6)
    ap.add_argument("--bandwidth", type=float, default=5e9)
    ap.add_argument("--cost-ranks", type=int,
                    help="take per-window costs from the run on this many ranks (default: the most ranks); "
                         "runs with more ranks than cores wait for each other's cores, which inflates them")
    ap.add_argument("--delta-floor", type=float, default=0.0,
                    help="windows never shorter than this (a violation first crosses the halo, so the "
                         "earliest one cannot come arbitrarily soon; the shortest committed window "
                         "measured, delta_min, gives an optimistic bound). Default 0: the power law alone")
    ap.add_argument("--total-events", type=float,
                    help="events of the whole run to project (prints its wall time at each rank count)")
    ap.add_argument("--csv")
    args = ap.parse_args()
    try:
        ranks = [int(r) for r in args.ranks.split(",")]
    except ValueError:
        fail(f"--ranks wants numbers separated by commas, got '{args.ranks}'")
    if any(r < 2 for r in ranks):
        fail("--ranks: every rank count must be at least 2")
    serial = load(args.serial)
    runs = [measured(serial, load(path), args.geometry) for path in args.multi]
    k = fit_exponent(runs)
    stated = k is None
    if stated:
        k = 2.0
    if args.cost_ranks:
        chosen = [m for m in runs if m["ranks"] == args.cost_ranks]
        if not chosen:
            fail(f"--cost-ranks {args.cost_ranks}: no run on that many ranks")
        base = chosen[0]
    else:
        base = max(runs, key=lambda m: m["ranks"])
    print(f"measured: t_e = {base['t_e'] * 1e9:.0f} ns/event, nu = {base['nu']:.3g} events per particle per time unit, "
          f"a window's execution {base['execute_overhead']:.3f} t_e per event ({base['ranks']} ranks)")
    for m in runs:
        print(f"  {m['ranks']} ranks ({'x'.join(map(str, m['grid']))}): delta {m['delta']:.4g}, "
              f"attempts/commit {m['attempts']:.3f}, duplicated {m['duplicated']:.3f}, "
              f"rolled back {m['wasted']:.3f} per committed event, imbalance {m['imbalance']:.3f}")
    print(f"window length ~ (total cut area)^(-1/k), k = {k:.3g}" + (" (assumed: one rank count measured)" if stated else " (fitted)"))
    rows = []
    for kind in ("weak", "strong"):
        for p in ranks:
            n = (args.per_rank or base["per_rank"]) if kind == "weak" else (args.total or base["particles"]) / p
            r = project(base, k, p, n, args.geometry, args.alpha, args.latency, args.bandwidth, args.delta_floor)
            r.update({"scaling": kind, "ranks": p, "particles_per_rank": round(n)})
            if args.total_events:
                serial_seconds = args.total_events * base["t_e"]
                r["projected_wall_hours"] = serial_seconds / (p * r["efficiency"]) / 3600.0
            rows.append(r)
    keys = ["scaling", "ranks", "grid", "particles_per_rank", "delta", "duplicated", "events_per_window",
            "share_execute", "share_check", "share_network", "efficiency"]
    if args.total_events:
        keys.append("projected_wall_hours")
    print(" | ".join(keys))
    for r in rows:
        print(" | ".join(f"{r[key]:.4g}" if isinstance(r[key], float) else str(r[key]) for key in keys))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            for r in rows:
                w.writerow({key: r[key] for key in keys})


if __name__ == "__main__":
    main()
