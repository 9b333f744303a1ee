#!/usr/bin/env bash
# The distributed engine's benchmark on a machine whose cores are shared:
#   jobs/local/distribution-bench.sh [-o DIR] [-s small|full] [-r REPEATS]
# For each case, in one run and interleaved (REPEATS times, default 3):
#   (a) one rank alone,
#   (b) two independent one-rank runs at the same time: what this machine
#       gives two processes now (shared caches, memory bandwidth, host load),
#   (c) two ranks,
# each timed from a checkpoint (start-up and the melt do not count) without
# the final checkpoint write (summary.json loop_seconds). Reports medians:
#   raw efficiency       strong: T_a / (2 T_c)      weak: T_a(N) / T_c(2N)
#   ceiling              T_a / T_b (1 = the two processes did not slow each other)
#   relative efficiency  raw / ceiling: the distributed engine's share of what
#                        the machine allowed
# with the 2-rank counters (commits, rollbacks, events rolled back and
# duplicated per committed event, bytes and messages per committed event),
# and the check of the critical-path replay (tools/scaling_replay.py): the
# 2-rank run's recorded rounds replayed on a model of this machine, against
# the wall time its rounds took (replay_over_measured).
# Cases, small: gas 10^5 strong and 2x10^5 weak, the membrane sheet of 80 000,
# the presynaptic example; full: gas 10^6 strong and 2x10^6 weak, the sheet of
# 980 000 and the presynaptic example.
# Writes DIR/bench.csv (every run) and DIR/summary.csv (the medians).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
out=distribution-bench size=small repeats=3
while getopts "o:s:r:" opt; do
  case $opt in
    o) out=$OPTARG ;;
    s) size=$OPTARG ;;
    r) repeats=$OPTARG ;;
    *) echo "usage: $0 [-o DIR] [-s small|full] [-r REPEATS]" >&2; exit 2 ;;
  esac
done
exe=${TETHERSIM:-$TETHERSIM_ROOT/build/release/src/app/tethersim}
[[ -x $exe ]] || { echo "distribution-bench: no tethersim at $exe (run jobs/local/build.sh release)" >&2; exit 1; }
mkdir -p "$out"
# A waiting rank gives its core away (2 ranks may share 2 cores with others).
export OMPI_MCA_mpi_yield_when_idle=1

# melt NAME MODEL END [--set ...]: the starting checkpoint, on one rank, once.
melt() {
  local name=$1 model=$2 end=$3
  shift 3
  if [[ ! -f $out/$name-melt/checkpoint.h5 ]]; then
    echo "== $name: start to t = $end on one rank"
    "$exe" run "$model" "$@" --end-time "$end" -o "$out/$name-melt" -q --overwrite \
      --set output.frame_interval=inf
  fi
}
# from NAME RUN: a fresh copy of NAME's starting checkpoint as run directory RUN.
from() { rm -rf "$out/$2" && cp -r "$out/$1-melt" "$out/$2"; }

# measure CASE ONE_RANK_MELT TWO_RANK_MELT END REP: (a), (b), (c) once.
measure() {
  local case=$1 one=$2 two=$3 end=$4 rep=$5
  echo "== $case, repeat $rep: one rank, two one-rank runs at once, two ranks"
  from "$one" "$case-r$rep-a" && "$exe" run --restart "$out/$case-r$rep-a" --end-time "$end" -q
  from "$one" "$case-r$rep-b1" && from "$one" "$case-r$rep-b2"
  "$exe" run --restart "$out/$case-r$rep-b1" --end-time "$end" -q &
  local first=$!
  "$exe" run --restart "$out/$case-r$rep-b2" --end-time "$end" -q
  wait "$first"
  from "$two" "$case-r$rep-c" && mpirun -np 2 "$exe" run --restart "$out/$case-r$rep-c" --end-time "$end" -q \
    --record-rounds "$out/$case-r$rep-c/records"
  # The 2-rank run replayed on a model of this machine (shared memory between
  # the two ranks: 1 µs, 5 GB/s), to compare with what it measured.
  "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_replay.py" "$out/$case-r$rep-c/records" \
    --reference "$out/$case-r$rep-c/records" --latency 1e-6 --bandwidth 5e9 \
    --json "$out/$case-r$rep-c/replay.json" >/dev/null
}

gas=$TETHERSIM_ROOT/examples/gas.toml sheet=$TETHERSIM_ROOT/examples/membrane-sheet.toml
presynaptic=$TETHERSIM_ROOT/examples/presynaptic.toml
if [[ $size == full ]]; then
  gas_n=63 gas_2n=79 gas_end=1.2 sheet_size=700 sheet_start=2 sheet_end=3
else
  gas_n=30 gas_2n=38 gas_end=1.5 sheet_size=200 sheet_start=2 sheet_end=6
fi
# The gas at density 0.5 melts by t = 1 (about 6 collisions per particle).
melt gasN "$gas" 1 --set initial.parameters.cells=$gas_n
melt gas2N "$gas" 1 --set initial.parameters.cells=$gas_2n
melt sheet "$sheet" $sheet_start --set initial.parameters.size=$sheet_size
melt presynaptic "$presynaptic" 100
for rep in $(seq 1 "$repeats"); do
  measure gas-strong gasN gasN $gas_end "$rep"
  measure gas-weak gasN gas2N $gas_end "$rep"
  measure sheet sheet sheet $sheet_end "$rep"
  measure presynaptic presynaptic presynaptic 300 "$rep"
done

"$TETHERSIM_PYTHON" - "$out" <<'PY'
import csv, glob, json, os, statistics, sys
out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*-r*-*", "summary.json"))):
    name = os.path.basename(os.path.dirname(path))
    case, rep, kind = name.rsplit("-", 2)
    d = json.load(open(path))
    runs.setdefault(case, {}).setdefault(rep[1:], {})[kind] = d
rows, medians = [], []
for case, reps in runs.items():
    per_rep = []
    for rep, k in sorted(reps.items()):
        if not all(x in k for x in ("a", "b1", "b2", "c")):
            continue
        ta, tc = k["a"]["loop_seconds"], k["c"]["loop_seconds"]
        tb = max(k["b1"]["loop_seconds"], k["b2"]["loop_seconds"])
        weak = k["c"]["events_this_run"] > 1.5 * k["a"]["events_this_run"]
        # Weak: twice the work on two ranks in the time one rank takes for half.
        raw = (ta * k["c"]["events_this_run"] / k["a"]["events_this_run"]) / (2 * tc) if weak else ta / (2 * tc)
        ceiling = ta / tb
        dist = k["c"]["distribution"]
        p = dist["per_rank"]
        committed = p["events_unique"]["total"]
        row = {"case": case, "repeat": rep, "scaling": "weak" if weak else "strong",
               "events_1rank": k["a"]["events_this_run"], "events_2ranks": k["c"]["events_this_run"],
               "T_one_s": round(ta, 3), "T_two_at_once_s": round(tb, 3), "T_2ranks_s": round(tc, 3),
               "raw_efficiency": round(raw, 3), "ceiling": round(ceiling, 3),
               "relative_efficiency": round(raw / ceiling, 3),
               "rank_grid": dist["rank_grid"], "imbalance": round(dist["imbalance"], 3),
               "attempts": p["speculative_windows"]["max"], "commits": p["commits"]["max"],
               "partial_commits": p["partial_commits"]["max"], "rollbacks": p["rollbacks"]["max"],
               "certified_rounds": p["certified_rounds"]["max"], "fallbacks": p["fallbacks"]["max"],
               "delta_mean": round(p["delta_mean"]["mean"], 5),
               "rolled_back_per_committed": round(p["events_rolled_back"]["total"] / max(committed, 1), 4),
               "duplicated_per_committed": round(p["events_duplicated"]["total"] / max(committed, 1), 4),
               "bytes_per_committed_event": round(p["bytes_sent"]["total"] / max(committed, 1), 1),
               "messages_per_committed_event": round(p["messages_sent"]["total"] / max(committed, 1), 6),
               "execute_s": round(p["seconds_execute"]["max"], 2), "verify_s": round(p["seconds_verify"]["max"], 2),
               "exchange_s": round(p["seconds_exchange"]["max"], 2), "wait_s": round(p["seconds_wait"]["max"], 2),
               "same_state": k["c"]["state_hash"] == k["a"]["state_hash"] if not weak else ""}
        replayed = os.path.join(out, f"{case}-r{rep}-c", "replay.json")
        if os.path.exists(replayed):
            r = json.load(open(replayed))["rows"][0]
            row["replayed_s"] = round(r["projected_seconds"], 3)
            row["rounds_measured_s"] = round(r["measured_round_seconds"], 3)
            row["replay_over_measured"] = round(r["projected_seconds"] / r["measured_round_seconds"], 3)
        rows.append(row)
        per_rep.append(row)
    if per_rep:
        m = dict(per_rep[0])
        m["repeat"] = "median of %d" % len(per_rep)
        for key, value in per_rep[0].items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                m[key] = statistics.median(r[key] for r in per_rep)
        medians.append(m)
for name, table in (("bench.csv", rows), ("summary.csv", medians)):
    if not table:
        continue
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]))
        w.writeheader()
        w.writerows(table)
show = ["case", "scaling", "T_one_s", "T_two_at_once_s", "T_2ranks_s", "raw_efficiency", "ceiling",
        "relative_efficiency", "rank_grid", "commits", "partial_commits", "rollbacks", "delta_mean",
        "rolled_back_per_committed", "duplicated_per_committed", "bytes_per_committed_event",
        "replay_over_measured", "same_state"]
print(" | ".join(show))
for r in medians:
    print(" | ".join(str(r.get(k, "")) for k in show))
bad = [r for r in rows if r["same_state"] is False]
if bad:
    print("distribution-bench: a 2-rank run ended in another state than one rank: " +
          ", ".join(r["case"] + " repeat " + r["repeat"] for r in bad), file=sys.stderr)
    sys.exit(1)
PY
