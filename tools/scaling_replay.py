#!/usr/bin/env python3
"""Replay recorded runs as parallel schedules on a modelled cluster.

Usage:
    scaling_replay.py RECORDS [RECORDS ...] [--mode strong|weak]
                      [--latency SECONDS] [--bandwidth BYTES_PER_SECOND]
                      [--reference RECORDS] [--normalise-to RECORDS
                      [--price-by events|predictions]]
                      [--bind all|waits] [--csv FILE] [--json FILE]
                      [--plot FILE --label NAME]

Each RECORDS is the directory a run wrote with `tethersim run
--record-rounds RECORDS` (one rank or many; oversubscribed runs will do):
every rank's time-independent trace (rank-NNNNN.ti: the thread CPU time of
each compute burst between communications, and each message, all-reduction
and broadcast it made) and its round lines (rank-NNNNN.rounds.jsonl).

SimGrid's SMPI (Debian libsimgrid-dev) replays the traces on a cluster of
as many hosts as the run had ranks: every rank on its own host computing at
the speed it was measured at (a CPU second of the trace is a second there),
each host on a private link of the given latency and bandwidth to a
non-blocking switch (an InfiniBand-class fat tree: default 2 µs end to end
and 5 GB/s per link), MPI collectives as SMPI implements them (an
all-reduction takes about log2 P steps). The simulated time of the
slowest rank is the run's projected wall time: every round ends when its
slowest rank has computed and its messages have arrived.

Owner-computes rounds (--windows owner) run asynchronously: their traces
hold each batch of outcomes sent and taken, and the committed floor's
agreement (a non-blocking all-reduction, which SMPI's replay has no action
for) as a report to an agreement host numbered after the last rank and a
result taken from it. The replay adds that host: it joins the ranks'
collectives and, for each agreement, sends every rank the result once
every report has reached it, after what a recursive-doubling
all-reduction would take (log2 P latencies). An optimistic execution
cannot be replayed exactly without re-running it, so --bind chooses a
bound: `all` (the default) makes every batch and result a rank took bind
it where it took it (the earliest schedule of the recorded execution: an
upper bound on its time); `waits` binds only those the rank had waited
for in the run, and leaves the others out (a lower bound, with the
rolled-back events as recorded).

Efficiency against the reference (the one-rank run among RECORDS, or
--reference): strong T1 / (P TP) for one system on P ranks; weak
T1 (E_P / (P E_1)) / TP when each rank holds about what the one rank held
(E: events committed, which corrects for systems not exactly P times as
large). Give --reference more than once (one-rank runs made at the same
time as each other) and T1 is their mean.

Why a reference made beside another run: the CPU time of a thread counts
the time its core ran it, and a core shared with another busy core on the
same host runs slower (memory bandwidth, caches, the host's other
guests). Oversubscribed runs keep every core busy; a one-rank run alone
leaves the other idle and runs faster per event. Measured against that,
every multi-rank run would seem to lose what is only contention. Two
one-rank runs at once (the machine's two-process ceiling) suffer the same
contention as the multi-rank runs do, so efficiency against their mean
compares like with like; the efficiency against the lone run is printed
beside it (column "vs alone").

--normalise-to RECORDS takes out of every multi-rank run what sharing two
cores with 4 to 64 ranks adds to its CPU time. Oversubscribed, ranks that
execute the same number of events per round record from 3.4 to 9 µs of
CPU per event (a rank's caches are cold whenever it gets a core back, and
some ranks wait longer for one), so the slowest rank of every round is
slow by chance, not by work. With the option, each rank's compute bursts
are scaled, round by round, so that its CPU time per executed event
(execute phase) equals that of RECORDS, a multi-rank run made with one
rank per core (the 2-rank run here): a rank's counted work (its events,
duplicated and rolled-back ones included, and the checking and exchange
that go with them) decides its share, at the price per event measured
where every rank had a core.
It assumes that price would not grow with the rank count on cores of
their own; the table as measured (without the option) bounds it from
above. One-rank runs and references are left as measured. With
--price-by predictions the unit of work is a particle prediction instead
of an event: a membrane's rounds are mostly gravity ticks, which predict
every particle a rank holds and execute few events (an undone window's
predictions are not counted: undoing restores the engine's statistics).

The traces hold the whole run loop, as summary.json's loop_seconds
measures it: the rounds, and between them what the loop does besides
(samples of the observables, progress lines, a checkpoint's preparation;
not a checkpoint's write, which loop_seconds leaves out too). The loop's
line in each rank's records gives its CPU seconds outside rounds and its
wall seconds: a run made with a core per rank can be set against its own
projection (columns "loop s" and "projected s").

Prints a table (ranks, projected seconds, the loop's measured wall
seconds (the slowest rank's), efficiency, CPU seconds on the critical path
by phase, the slowest rank's CPU seconds outside rounds, events executed,
duplicated and rolled back per committed event, bytes per committed event) and writes it as CSV/JSON when
asked. --plot draws efficiency against ranks (several cases: give --json of
each and use scaling_replay.py plot).
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEFAULT_LATENCY = 2e-6
DEFAULT_BANDWIDTH = 5e9
HOST_SPEED = 1e9  # flops per second: the traces write CPU seconds as 1e9 flops each


def fail(message):
    print(f"scaling_replay.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def traces_of(directory):
    traces = sorted(glob.glob(os.path.join(directory, "rank-*.ti")))
    if not traces:
        fail(f"{directory} holds no round records (rank-NNNNN.ti): run with --record-rounds {directory}")
    for k, path in enumerate(traces):
        if not path.endswith(f"rank-{k:05d}.ti"):
            fail(f"{directory}: the traces of ranks 0 to {len(traces) - 1} are not all there")
    return traces


def read_records(directory, ranks):
    """Every rank's round lines (lists of dicts), and its line for the
    whole run loop (CPU seconds outside rounds, wall seconds; None in
    records written before the loop was recorded)."""
    rounds, loops = [], []
    for k in range(ranks):
        path = os.path.join(directory, f"rank-{k:05d}.rounds.jsonl")
        with open(path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        rounds.append([r for r in lines if not r.get("loop")])
        loops.append(next((r for r in lines if r.get("loop")), None))
    return rounds, loops


def read_rounds(directory, ranks):
    """Every rank's round lines, as lists of dicts."""
    return read_records(directory, ranks)[0]


def platform_xml(hosts, latency, bandwidth):
    # SimGrid's cluster: each host's private link, then the switch, then
    # the other's link: two links per message, each half the latency.
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="host-" suffix="" radical="0-{hosts - 1}" speed="{HOST_SPEED:.0f}f"
           bw="{bandwidth:.6g}Bps" lat="{latency / 2:.6g}s" sharing_policy="SPLITDUPLEX"
           loopback_bw="{10 * bandwidth:.6g}Bps" loopback_lat="0s"/>
</platform>
"""


COLLECTIVES = {"allreduce", "bcast", "barrier", "reduce", "allgather", "allgatherv", "gather", "gatherv",
               "scatter", "alltoall", "alltoallv", "reduce_scatter"}


# Owner-computes rounds: batches (tag 1) and the agreement's results (tag
# 3) are taken with `recv` where the rank waited for them and `irecv`
# where they had arrived while it worked (round_recorder.hpp).
BATCH_TAG, REPORT_TAG, RESULT_TAG = 1, 2, 3
BINDINGS = ("all", "waits")


def owner_receipt(fields):
    """(source, tag, binding) of an owner-computes receipt's trace line,
    None for any other line."""
    if len(fields) == 5 and fields[1] in ("recv", "irecv") and int(fields[3]) in (BATCH_TAG, RESULT_TAG):
        return int(fields[2]), int(fields[3]), fields[1] == "recv"
    return None


def receipts_binding(traces):
    """For each (sender, receiver), whether each batch the receiver took
    from the sender bound it (in the order sent); for each rank, whether
    each agreement result it took did."""
    batches, results = {}, []
    for r, trace in enumerate(traces):
        mine = []
        with open(trace) as f:
            for line in f:
                receipt = owner_receipt(line.split())
                if receipt is None:
                    continue
                source, tag, binding = receipt
                if tag == BATCH_TAG:
                    batches.setdefault((source, r), []).append(binding)
                else:
                    mine.append(binding)
        results.append(mine)
    return batches, results


def prepared_trace(source, target, rank, rounds, scales, binding=None):
    """`source` with the compute bursts of round k multiplied by
    scales[k] (None: as recorded). Owner-computes receipts: every one
    blocking (`binding` None), or (`binding`: receipts_binding's batches)
    only those the rank waited for, the others left out with the batches
    they took (they bind nothing: the network carries them beside the
    rest). A round ends with its last collective (rounds[k]
    ["collectives"] of them); what follows belongs to the next."""
    k, seen = 0, 0
    sent = {}  # batches sent so far, per receiver
    with open(source) as f, open(target, "w") as out:
        for line in f:
            fields = line.split()
            receipt = owner_receipt(fields)
            if len(fields) == 3 and fields[1] == "compute":
                if scales is not None:
                    line = f"{fields[0]} compute {float(fields[2]) * scales[min(k, len(scales) - 1)]:.0f}\n"
            elif receipt is not None:
                if not receipt[2] and binding is not None:
                    continue
                line = f"{fields[0]} recv {' '.join(fields[2:])}\n"
            elif binding is not None and len(fields) == 5 and fields[1] == "isend" and int(fields[3]) == BATCH_TAG:
                to = int(fields[2])
                n = sent.get(to, 0)
                sent[to] = n + 1
                if not binding[(rank, to)][n]:
                    continue
            elif len(fields) > 1 and fields[1] in COLLECTIVES:
                seen += 1
                if k < len(rounds) and seen >= rounds[k]["collectives"]:
                    k, seen = k + 1, 0
            out.write(line)


# What a round's work is counted in (--price-by): events executed, or
# particle predictions made (a membrane's ticks are mostly predictions).
WORK_UNITS = {"events": "executed", "predictions": "predictions"}


def execute_cost(rounds, what, unit="events"):
    """CPU seconds of the execute phase per unit of work in `rounds`."""
    key = WORK_UNITS[unit]
    cpu = sum(r["cpu_execute"] for r in rounds)
    work = sum(r.get(key, 0) for r in rounds)
    if work <= 0 or cpu <= 0:
        fail(f"{what} counted no {unit}: it has no cost per unit of work")
    return cpu / work


def execute_cost_per_unit(directory, unit="events"):
    """CPU seconds of the execute phase per unit of work, all ranks."""
    rounds = read_rounds(directory, len(traces_of(directory)))
    return execute_cost([r for rank in rounds for r in rank], directory, unit)


def has_agreements(trace, ranks):
    """Whether `trace` reports to an agreement host (owner-computes rounds:
    their agreement, a non-blocking all-reduction for which SMPI's replay
    has no action, is a report to a host numbered after the last rank and
    a result taken from it; round_recorder.hpp)."""
    report = f" isend {ranks} {REPORT_TAG} "
    with open(trace) as f:
        return any(report in line for line in f)


def agreement_host_trace(first, target, ranks, latency, results=None):
    """The agreement host's trace: it joins every collective the ranks make
    (the first rank's recorded trace gives them, in order), and for each
    agreement takes every rank's report, then sends every rank the result
    (with `results`, receipts_binding's, only the ranks it bound). A result
    reaches a rank two latencies after the last report has left (report
    and result); a recursive-doubling all-reduction takes log2 P, so the
    host waits out the difference first."""
    host = ranks
    extra = max(0, math.ceil(math.log2(max(ranks, 1))) - 2) * latency
    agreement = 0
    with open(first) as f, open(target, "w") as out:
        out.write(f"{host} init\n")
        for line in f:
            fields = line.split()
            receipt = owner_receipt(fields)
            if len(fields) > 1 and fields[1] in COLLECTIVES:
                out.write(f"{host} {' '.join(fields[1:])}\n")
            elif receipt is not None and receipt[0] == host and receipt[1] == RESULT_TAG:
                size = fields[4]
                out.write("".join(f"{host} recv {q} {REPORT_TAG} {size}\n" for q in range(ranks)))
                if extra > 0:
                    out.write(f"{host} sleep {extra:.9g}\n")
                out.write("".join(f"{host} isend {q} {RESULT_TAG} {size}\n" for q in range(ranks)
                                  if results is None or results[q][agreement]))
                agreement += 1
        out.write(f"{host} finalize\n")


def simgrid_replay(traces, latency, bandwidth, rounds=None, scales=None, bind="all"):
    """The simulated wall time of the traces on the cluster, in seconds,
    with the compute bursts of rank q in its round k times scales[q][k],
    and owner-computes receipts bound as `bind` says."""
    smpirun = shutil.which("smpirun")
    if smpirun is None:
        fail("smpirun is missing (Debian: apt-get install libsimgrid-dev)")
    with tempfile.TemporaryDirectory(prefix="tethersim-replay-") as work:
        hosts = len(traces)
        batches, results = receipts_binding(traces) if bind == "waits" else (None, None)
        prepared = []
        for k, t in enumerate(traces):
            prepared.append(os.path.join(work, f"rank-{k:05d}.ti"))
            prepared_trace(t, prepared[-1], k, rounds[k] if rounds else [], scales[k] if scales else None, batches)
        if has_agreements(traces[0], hosts):
            prepared.append(os.path.join(work, "agreement-host.ti"))
            agreement_host_trace(traces[0], prepared[-1], hosts, latency, results)
            hosts += 1
        traces = prepared
        with open(os.path.join(work, "platform.xml"), "w") as f:
            f.write(platform_xml(hosts, latency, bandwidth))
        with open(os.path.join(work, "hosts"), "w") as f:
            f.write("".join(f"host-{k}\n" for k in range(hosts)))
        with open(os.path.join(work, "traces"), "w") as f:
            f.write("".join(os.path.abspath(t) + "\n" for t in traces))
        command = [
            smpirun, "-np", str(hosts), "-platform", os.path.join(work, "platform.xml"),
            "-hostfile", os.path.join(work, "hosts"), "-replay", os.path.join(work, "traces"),
            # The stated latency and bandwidth as they are: no correction
            # factors calibrated on another network.
            "--cfg=smpi/bw-factor:0:1", "--cfg=smpi/lat-factor:0:1",
            # No TCP acknowledgements flowing back (an InfiniBand fabric).
            "--cfg=network/crosstraffic:0",
            "--cfg=smpi/host-speed:1Gf",
            "--log=root.thresh:warning", "--log=smpi_replay.thresh:info",
        ]
        done = subprocess.run(command, capture_output=True, text=True, cwd=work)
        output = done.stdout + done.stderr
        times = [float(m) for m in re.findall(r"Simulation time ([0-9.eE+-]+)", output)]
        if done.returncode != 0 or not times:
            fail("the SimGrid replay failed:\n" + output[-2000:])
        return max(times)


def summarise(directory, latency, bandwidth, cost_per_event=None, unit="events", bind="all"):
    """The replay of one run. `cost_per_event`: scale each rank's compute,
    round by round, so that its execute CPU per unit of work (`unit`: an
    executed event, or a prediction) is this (multi-rank runs only)."""
    traces = traces_of(directory)
    ranks = len(traces)
    rounds, loops = read_records(directory, ranks)
    counts = {len(r) for r in rounds}
    if len(counts) != 1:
        fail(f"{directory}: the ranks recorded different numbers of rounds {sorted(counts)}")
    n = counts.pop()
    # Each rank's rounds at the given price per executed event. A round
    # that executed nothing keeps its rank's own ratio, and a rank that
    # executed nothing (a membrane leaves some planes of sectors empty)
    # the run's.
    scales = None
    if cost_per_event is not None and ranks > 1:
        key = WORK_UNITS[unit]
        priced = lambda r: r.get(key, 0) > 0 and r["cpu_execute"] > 0
        whole = cost_per_event / execute_cost([r for rank in rounds for r in rank], directory, unit)
        scales = []
        for q in range(ranks):
            own = (cost_per_event / execute_cost(rounds[q], f"{directory} rank {q}", unit)
                   if any(map(priced, rounds[q])) else whole)
            scales.append([cost_per_event * r[key] / r["cpu_execute"] if priced(r) else own
                           for r in rounds[q]])
    scale_of = lambda q, k: 1.0 if scales is None else scales[q][k]
    phases = ("execute", "verify", "commit", "other")
    # The critical path's compute, round by round: the slowest rank's CPU.
    critical = {p: 0.0 for p in phases}
    critical_cpu = 0.0
    measured_wall = 0.0
    for k in range(n):
        slowest = max(range(ranks), key=lambda q: scale_of(q, k) * rounds[q][k]["cpu"])
        critical_cpu += scale_of(slowest, k) * rounds[slowest][k]["cpu"]
        for p in phases:
            critical[p] += scale_of(slowest, k) * rounds[slowest][k]["cpu_" + p]
        measured_wall += max(rounds[q][k]["wall"] for q in range(ranks))
    total = lambda key: sum(r[key] for rank in rounds for r in rank)
    executed, duplicated, rolled_back = total("executed"), total("duplicated"), total("rolled_back")
    committed = executed - duplicated - rolled_back
    projected = simgrid_replay(traces, latency, bandwidth, rounds, scales, bind)
    # The loop's work between rounds (samples of the observables, progress,
    # a checkpoint's preparation): in the traces, so in the projection;
    # priced per event, it is scaled like the round it precedes.
    recorded_loop = all(loop is not None for loop in loops)
    outside = max((loop["cpu_outside"] for loop in loops), default=0.0) if recorded_loop else 0.0
    measured_loop = max((loop["wall"] for loop in loops), default=0.0) if recorded_loop else 0.0
    per = lambda x: x / committed if committed > 0 else 0.0
    return {
        "records": directory,
        "ranks": ranks,
        "cpu_scale": (sum(scale_of(q, k) * rounds[q][k]["cpu"] for q in range(ranks) for k in range(n)) /
                      max(total("cpu"), 1e-30)),
        "rounds": n,
        "projected_seconds": projected,
        "measured_round_seconds": measured_wall,
        "measured_loop_seconds": measured_loop,
        "outside_seconds": outside,
        "critical_cpu_seconds": critical_cpu,
        **{f"critical_{p}_seconds": critical[p] for p in phases},
        "cpu_seconds": total("cpu"),
        "communication_cpu_seconds": total("communication"),
        "events_committed": committed,
        "duplicated_per_committed": per(duplicated),
        "rolled_back_per_committed": per(rolled_back),
        "bytes_per_committed": per(total("bytes_sent")),
        "messages_per_committed": per(total("messages_sent")),
    }


def add_efficiency(rows, reference, mode):
    t1, e1 = reference["projected_seconds"], reference["events_committed"]
    for row in rows:
        p, tp = row["ranks"], row["projected_seconds"]
        if tp <= 0:
            row["efficiency"] = 0.0
        elif mode == "strong":
            row["efficiency"] = t1 / (p * tp)
        else:
            row["efficiency"] = t1 * (row["events_committed"] / (p * e1)) / tp


COLUMNS = [
    ("ranks", "ranks", "{:d}"),
    ("projected_seconds", "projected s", "{:.4g}"),
    ("measured_loop_seconds", "loop s", "{:.4g}"),
    ("efficiency", "efficiency", "{:.3f}"),
    ("critical_execute_seconds", "execute s", "{:.4g}"),
    ("critical_verify_seconds", "verify s", "{:.4g}"),
    ("critical_commit_seconds", "commit s", "{:.4g}"),
    ("critical_other_seconds", "other s", "{:.4g}"),
    ("outside_seconds", "outside s", "{:.4g}"),
    ("rounds", "rounds", "{:d}"),
    ("duplicated_per_committed", "dup/ev", "{:.3f}"),
    ("rolled_back_per_committed", "undone/ev", "{:.4f}"),
    ("bytes_per_committed", "B/ev", "{:.1f}"),
]


def print_table(rows, columns=COLUMNS):
    header = [c[1] for c in columns]
    cells = [[c[2].format(row[c[0]]) for c in columns] for row in rows]
    widths = [max(len(h), *(len(r[k]) for r in cells)) for k, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in cells:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def plot(cases, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    top = 1
    for name, rows in cases:
        rows = sorted(rows, key=lambda r: r["ranks"])
        ax.plot([r["ranks"] for r in rows], [r["efficiency"] for r in rows], marker="o", label=name)
        top = max(top, max(r["ranks"] for r in rows))
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=1, label="ideal")
    ax.set_xscale("log", base=2)
    ax.set_xlim(0.8, top * 1.25)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("MPI ranks")
    ax.set_ylabel("parallel efficiency (critical-path replay)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv):
    if argv and argv[0] == "plot":
        parser = argparse.ArgumentParser(prog="scaling_replay.py plot",
                                         description="efficiency against ranks from replay JSON files")
        parser.add_argument("tables", nargs="+", help="NAME=FILE.json, as written by --json")
        parser.add_argument("-o", "--output", required=True, help="the PNG to write")
        args = parser.parse_args(argv[1:])
        cases = []
        for spec in args.tables:
            name, _, path = spec.partition("=")
            if not path:
                fail(f"'{spec}' is not NAME=FILE.json")
            with open(path) as f:
                cases.append((name, json.load(f)["rows"]))
        plot(cases, args.output)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("records", nargs="+", help="directories written by --record-rounds")
    parser.add_argument("--mode", choices=("strong", "weak"), default="strong")
    parser.add_argument("--latency", type=float, default=DEFAULT_LATENCY, help="seconds, end to end (default 2e-6)")
    parser.add_argument("--bandwidth", type=float, default=DEFAULT_BANDWIDTH,
                        help="bytes per second per link (default 5e9)")
    parser.add_argument("--reference", action="append",
                        help="one-rank records (default: the one-rank run among RECORDS); "
                             "more than once: T1 is their mean")
    parser.add_argument("--normalise-to", metavar="RECORDS",
                        help="scale each multi-rank run's CPU to this run's execute CPU per unit of work "
                             "(a run with one rank per core)")
    parser.add_argument("--price-by", choices=sorted(WORK_UNITS), default="events",
                        help="the unit of work --normalise-to prices: executed events (default), or "
                             "particle predictions (membranes, whose ticks are mostly predictions)")
    parser.add_argument("--bind", choices=BINDINGS, default="all",
                        help="owner-computes records: every batch and agreement result a rank took binds it "
                             "(all, the default: the recorded execution, an upper bound on its time), or only "
                             "those it waited for (waits: a lower bound, the undos as recorded)")
    parser.add_argument("--csv", help="write the table as CSV")
    parser.add_argument("--json", help="write the table as JSON")
    args = parser.parse_args(argv)
    if not (args.latency >= 0 and args.bandwidth > 0):
        fail("--latency must be at least 0 and --bandwidth above 0")
    cost = execute_cost_per_unit(args.normalise_to, args.price_by) if args.normalise_to else None
    rows = [summarise(d, args.latency, args.bandwidth, cost, args.price_by, args.bind) for d in args.records]
    rows.sort(key=lambda r: r["ranks"])
    ones = [r for r in rows if r["ranks"] == 1]
    if args.reference:
        given = [summarise(d, args.latency, args.bandwidth) for d in args.reference]
        reference = {key: sum(r[key] for r in given) / len(given)
                     for key in ("projected_seconds", "events_committed")}
        what = (f"the mean of {len(given)} runs made at the same time" if len(given) > 1
                else f"{given[0]['ranks']} rank(s)")
    else:
        if not ones:
            fail("no one-rank run among the records: give one, or --reference")
        reference = ones[0]
        what = "one rank"
    add_efficiency(rows, reference, args.mode)
    columns = COLUMNS
    if args.reference and ones:
        alone = [dict(r) for r in rows]
        add_efficiency(alone, ones[0], args.mode)
        for row, other in zip(rows, alone):
            row["efficiency_alone"] = other["efficiency"]
        after = [c[0] for c in COLUMNS].index("efficiency") + 1
        columns = COLUMNS[:after] + [("efficiency_alone", "vs alone", "{:.3f}")] + COLUMNS[after:]
    if cost is not None:
        columns = columns + [("cpu_scale", "mean scale", "{:.3f}")]
    print(f"# {args.mode} scaling, replayed on a cluster of latency {args.latency:g} s, "
          f"{args.bandwidth:g} B/s per link; reference {reference['projected_seconds']:.4g} s ({what})")
    if args.bind != "all":
        print("# owner-computes receipts bind only where the rank waited for them in the run")
    if cost is not None:
        unit = "executed event" if args.price_by == "events" else "prediction"
        print(f"# every rank of a multi-rank run at {1e6 * cost:.3f} µs of execute CPU per {unit}, "
              f"as {args.normalise_to} ran with one rank per core")
    print_table(rows, columns)
    if args.csv:
        with open(args.csv, "w") as f:
            keys = list(rows[0].keys())
            f.write(",".join(keys) + "\n")
            for row in rows:
                f.write(",".join(str(row[k]) for k in keys) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"mode": args.mode, "latency": args.latency, "bandwidth": args.bandwidth, "bind": args.bind,
                       "rows": rows}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
