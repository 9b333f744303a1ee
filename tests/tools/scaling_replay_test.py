#!/usr/bin/env python3
"""tools/scaling_replay.py on synthetic round records with known answers:
a perfectly balanced run, one slow rank, a communication-bound exchange,
a one-rank reference, and runs priced per event like another; the
efficiencies follow from them."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "scaling_replay.py")
failures = []


def check(name, value, expected, tolerance):
    ok = abs(value - expected) <= tolerance
    print(f"{'ok' if ok else 'FAIL'}: {name}: {value:.6g} (expected {expected:.6g} +- {tolerance:g})")
    if not ok:
        failures.append(name)


def write_run(directory, lines_by_rank, loops=None):
    """One trace and one round line per rank; `lines_by_rank[k]` are the
    trace lines of rank k between init and finalize, `loops[k]` (CPU
    seconds outside the round, wall seconds) its loop's line."""
    os.makedirs(directory)
    for k, lines in enumerate(lines_by_rank):
        with open(os.path.join(directory, f"rank-{k:05d}.ti"), "w") as f:
            f.write(f"{k} init\n" + "".join(f"{k} {line}\n" for line in lines) + f"{k} finalize\n")
        flops = sum(float(l.split()[1]) for l in lines if l.startswith("compute"))
        sent = sum(float(l.split()[3]) for l in lines if l.startswith("isend"))
        record = {"round": 0, "kind": "synthetic", "from": 0, "to": 1, "cpu": flops / 1e9,
                  "cpu_execute": flops / 1e9, "cpu_verify": 0, "cpu_commit": 0, "cpu_other": 0,
                  "communication": 0, "wall": 0, "bytes_sent": sent, "messages_sent": 1, "collectives": 1,
                  "executed": 1000, "duplicated": 0, "rolled_back": 0, "predictions": 2000}
        with open(os.path.join(directory, f"rank-{k:05d}.rounds.jsonl"), "w") as f:
            f.write(json.dumps(record) + "\n")
            if loops is not None:
                f.write(json.dumps({"loop": True, "cpu_outside": loops[k][0], "wall": loops[k][1]}) + "\n")


def replay(*args):
    done = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    print(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"FAIL: scaling_replay.py exited {done.returncode}")
    return done


with tempfile.TemporaryDirectory() as work:
    one = os.path.join(work, "one")
    write_run(one, [["compute 4e9", "allreduce 8 0"]])
    balanced = os.path.join(work, "balanced")
    write_run(balanced, [["compute 1e9", "allreduce 8 0"] for _ in range(4)])
    slow = os.path.join(work, "slow")
    write_run(slow, [["compute %s" % ("2e9" if k == 2 else "1e9"), "allreduce 8 0"] for k in range(4)])
    table = os.path.join(work, "table.json")
    replay(one, balanced, slow, "--json", table)
    rows = {os.path.basename(r["records"]): r for r in json.load(open(table))["rows"]}
    check("one rank: its CPU time", rows["one"]["projected_seconds"], 4.0, 1e-6)
    check("balanced: a quarter of it", rows["balanced"]["projected_seconds"], 1.0, 1e-3)
    check("balanced: efficiency 1", rows["balanced"]["efficiency"], 1.0, 1e-3)
    check("one slow rank sets the pace", rows["slow"]["projected_seconds"], 2.0, 1e-3)
    check("one slow rank: efficiency 0.5", rows["slow"]["efficiency"], 0.5, 1e-3)
    check("the critical path's compute", rows["slow"]["critical_cpu_seconds"], 2.0, 1e-9)

    # Priced per event (--normalise-to): the balanced 4-rank run sets 1 ms
    # of execute CPU per event (1000 events a rank); in the slow run rank 2
    # recorded twice the CPU for the same 1000 events, so priced like the
    # others it no longer sets the pace: 1 s again, and the one-rank run
    # stays as measured.
    table = os.path.join(work, "priced.json")
    done = replay(one, slow, "--normalise-to", balanced, "--json", table)
    rows = {os.path.basename(r["records"]): r for r in json.load(open(table))["rows"]}
    check("priced per event: the slow rank at the others' price", rows["slow"]["projected_seconds"], 1.0, 1e-3)
    check("priced per event: efficiency 1", rows["slow"]["efficiency"], 1.0, 1e-3)
    check("priced per event: the one-rank run as measured", rows["one"]["projected_seconds"], 4.0, 1e-6)
    check("priced per event: the mean scale", rows["slow"]["cpu_scale"], 4.0 / 5.0, 1e-9)
    if "mean scale" not in done.stdout:
        failures.append("the 'mean scale' column")

    # Priced per prediction (--price-by predictions): every round above
    # counts 2000 of them, so the answer is the same.
    table = os.path.join(work, "priced-predictions.json")
    replay(one, slow, "--normalise-to", balanced, "--price-by", "predictions", "--json", table)
    rows = {os.path.basename(r["records"]): r for r in json.load(open(table))["rows"]}
    check("priced per prediction: the slow rank at the others' price", rows["slow"]["projected_seconds"], 1.0, 1e-3)

    # Two one-rank runs made at once (each slowed by sharing the host: 5 s
    # and 6 s of CPU for the lone run's 4) are the reference: T1 = 5.5, so
    # the balanced run's efficiency is 5.5 / 4 against them and 1 against
    # the lone run.
    shared_a, shared_b = os.path.join(work, "shared-a"), os.path.join(work, "shared-b")
    write_run(shared_a, [["compute 5e9", "allreduce 8 0"]])
    write_run(shared_b, [["compute 6e9", "allreduce 8 0"]])
    table = os.path.join(work, "shared.json")
    done = replay(one, balanced, "--reference", shared_a, "--reference", shared_b, "--json", table)
    rows = {os.path.basename(r["records"]): r for r in json.load(open(table))["rows"]}
    check("against two shared runs: their mean", rows["balanced"]["efficiency"], 5.5 / 4.0, 1e-3)
    check("against the lone run, beside it", rows["balanced"]["efficiency_alone"], 1.0, 1e-3)
    if "vs alone" not in done.stdout:
        failures.append("the 'vs alone' column")

    # Communication-bound: two ranks send each other 1e9 bytes over 5e9 B/s
    # links (full duplex): 0.2 s, whatever the latency; at 1e9 B/s, one second.
    exchange = os.path.join(work, "exchange")
    write_run(exchange, [["irecv %d 0 1e9" % (1 - k), "isend %d 0 1e9" % (1 - k), "waitall"] for k in range(2)])
    for bandwidth, expected in (("5e9", 0.2), ("1e9", 1.0)):
        table = os.path.join(work, f"exchange-{bandwidth}.json")
        replay(exchange, "--reference", one, "--bandwidth", bandwidth, "--json", table)
        row = json.load(open(table))["rows"][0]
        check(f"exchange at {bandwidth} B/s", row["projected_seconds"], expected, 0.05 * expected)

    # Latency-bound: 1000 small messages in turn (rank 0 sends, rank 1
    # answers), 2 µs each.
    turns = lambda k: [("isend %d 0 8" if (i + k) % 2 == 0 else "recv %d 0 8") % (1 - k) for i in range(1000)]
    pingpong = os.path.join(work, "pingpong")
    write_run(pingpong, [turns(0), turns(1)])
    table = os.path.join(work, "pingpong.json")
    replay(pingpong, "--reference", one, "--latency", "2e-6", "--json", table)
    row = json.load(open(table))["rows"][0]
    check("1000 messages in turn at 2 µs", row["projected_seconds"], 1000 * 2e-6, 0.2 * 1000 * 2e-6)

    # The loop's work outside rounds: two ranks compute a second in their
    # round, then rank 1 half a second more after it (a sample of the
    # observables) and rank 0 a quarter: the projection is the whole loop,
    # 1.5 s, beside the 1.6 s of wall time the slowest rank's loop took.
    looped = os.path.join(work, "looped")
    write_run(looped, [["compute 1e9", "allreduce 8 0", "compute %s" % ("2.5e8" if k == 0 else "5e8")]
                       for k in range(2)], loops=[(0.25, 1.55), (0.5, 1.6)])
    table = os.path.join(work, "looped.json")
    done = replay(looped, "--reference", one, "--json", table)
    row = json.load(open(table))["rows"][0]
    check("the loop's work outside rounds is projected", row["projected_seconds"], 1.5, 1e-3)
    check("the slowest rank's CPU outside rounds", row["outside_seconds"], 0.5, 1e-9)
    check("the loop as measured", row["measured_loop_seconds"], 1.6, 1e-9)
    check("rounds: the loop's line is not one", row["rounds"], 1, 0)
    if "outside s" not in done.stdout or "loop s" not in done.stdout:
        failures.append("the 'outside s' and 'loop s' columns")

    # Owner-computes rounds: batches received where they were taken, and the
    # committed floor's agreement through the agreement host. Rank 1 sends
    # rank 0 a batch after 2 s of work; rank 0 takes it after 1 s of its
    # own, then works 0.5 s. Both report to an agreement, rank 0 at 1.5 s,
    # rank 1 at 2 s, take its result, and work 1 s more; an all-reduction
    # (which the host joins) ends the run. In the run neither rank waited
    # for what it took (irecv). Every receipt binding (the default), rank 0
    # waits for the batch (2 s + 2 µs), reports at 2.5 s, and the result
    # leaves the host once the last report is in (2 latencies: report,
    # result; on 2 ranks a recursive doubling's one step is less): 3.5 s.
    # Only waits binding, nothing is waited for: rank 1 sets the pace, 3 s.
    latency = 2e-6
    owner = os.path.join(work, "owner")
    write_run(owner, [["compute 1e9", "irecv 1 1 4096", "compute 5e8", "isend 2 2 32", "irecv 2 3 32",
                       "compute 1e9", "allreduce 8 0"],
                      ["compute 2e9", "isend 0 1 4096", "isend 2 2 32", "irecv 2 3 32", "compute 1e9",
                       "allreduce 8 0"]])
    table = os.path.join(work, "owner.json")
    replay(owner, "--reference", one, "--latency", str(latency), "--json", table)
    row = json.load(open(table))["rows"][0]
    check("owner rounds: a batch and the agreement's last report set the pace", row["projected_seconds"],
          3.5 + 3 * latency, 5 * latency)
    table = os.path.join(work, "owner-waits.json")
    replay(owner, "--reference", one, "--latency", str(latency), "--bind", "waits", "--json", table)
    row = json.load(open(table))["rows"][0]
    check("owner rounds, only waits binding: the busiest rank sets the pace", row["projected_seconds"],
          3.0, 5 * latency)
    # Four ranks whose reports come in at 1, 2, 3 and 4 s: the result
    # leaves the host at 4 s, and every rank ends 1 s after it.
    agreement = os.path.join(work, "agreement")
    write_run(agreement, [[f"compute {k + 1}e9", "isend 4 2 32", "recv 4 3 32", "compute 1e9"] for k in range(4)])
    table = os.path.join(work, "agreement.json")
    replay(agreement, "--reference", one, "--latency", str(latency), "--json", table)
    row = json.load(open(table))["rows"][0]
    check("an agreement completes after its last report", row["projected_seconds"], 5.0, 1e-4)

    # Records that are not there are one line and exit 2.
    done = subprocess.run([sys.executable, TOOL, os.path.join(work, "missing")], capture_output=True, text=True)
    if done.returncode != 2 or "holds no round records" not in done.stderr:
        failures.append("missing records")
        print("FAIL: missing records:", done.returncode, done.stderr)

if failures:
    sys.exit(f"{len(failures)} checks failed: {', '.join(failures)}")
print("all checks passed")
