#!/usr/bin/env bash
# The distributed engine's benchmark on this machine: weak and strong
# scaling from 1 to 2 ranks on a melted gas and a membrane sphere, timed
# from a checkpoint so that start-up and the FCC start do not count.
#   jobs/local/distribution-bench.sh [-o DIR] [-s small|full]
# small: gas 10^5 (strong) and 2x10^5 (weak);  full: adds gas 10^6 and
# 2x10^6 and the membrane sphere at 10^6 per rank.
# Prints one table (events/s and efficiency without the final checkpoint
# write, efficiency_wall with it, efficiency_free_certify as if certifying
# cost nothing, the synchronization counters)
# and writes DIR/bench.csv; full also projects the gas to 64 and 512 ranks
# (tools/scaling_projection.py, DIR/projection-{strong,weak}.csv).
# Both ranks get a core: run it on a quiet machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
out=distribution-bench size=small
while getopts "o:s:" opt; do
  case $opt in
    o) out=$OPTARG ;;
    s) size=$OPTARG ;;
    *) echo "usage: $0 [-o DIR] [-s small|full]" >&2; exit 2 ;;
  esac
done
exe=${TETHERSIM:-$TETHERSIM_ROOT/build/release/src/app/tethersim}
[[ -x $exe ]] || { echo "distribution-bench: no tethersim at $exe (run jobs/local/build.sh release)" >&2; exit 1; }
mkdir -p "$out"
export OMPI_MCA_mpi_yield_when_idle=1

# case NAME MODEL MELT_END TIMED_END RANKS [--set ...]: melt on one rank
# (once), then time MELT_END -> TIMED_END on RANKS ranks from its checkpoint.
run_case() {
  local name=$1 model=$2 melt=$3 end=$4 ranks=$5
  shift 5
  local base="$out/$name-melt"
  if [[ ! -f $base/checkpoint.h5 ]]; then
    "$exe" run "$model" "$@" --end-time "$melt" -o "$base" -q --overwrite \
      --set output.frame_interval=inf
  fi
  for lean in on off; do
    [[ $ranks == 1 && $lean == off ]] && continue
    local dir="$out/$name-np$ranks-lean$lean"
    rm -rf "$dir" && cp -r "$base" "$dir"
    echo "== $name on $ranks rank(s), lean fallback $lean"
    if [[ $ranks == 1 ]]; then
      "$exe" run --restart "$dir" --end-time "$end" -q
    else
      mpirun -np "$ranks" "$exe" run --restart "$dir" --end-time "$end" -q --lean-fallback "$lean"
    fi
  done
}

# The gas at density 0.5 melts in t = 1 (about 6 collisions per particle).
run_case gas108k "$TETHERSIM_ROOT/examples/gas.toml" 1 1.5 1 --set initial.parameters.cells=30
run_case gas108k "$TETHERSIM_ROOT/examples/gas.toml" 1 1.5 2 --set initial.parameters.cells=30
run_case gas219k "$TETHERSIM_ROOT/examples/gas.toml" 1 1.5 2 --set initial.parameters.cells=38
if [[ $size == full ]]; then
  run_case gas1M "$TETHERSIM_ROOT/examples/gas.toml" 1 1.1 1 --set initial.parameters.cells=63
  run_case gas1M "$TETHERSIM_ROOT/examples/gas.toml" 1 1.1 2 --set initial.parameters.cells=63
  run_case gas2M "$TETHERSIM_ROOT/examples/gas.toml" 1 1.1 2 --set initial.parameters.cells=79
  # The sphere from just before the projectile lands (t = 3) to t = 6.
  run_case sphere1M "$TETHERSIM_ROOT/examples/membrane-sphere.toml" 3 6 1 --set initial.parameters.frequency=224
  run_case sphere2M "$TETHERSIM_ROOT/examples/membrane-sphere.toml" 3 6 2 --set initial.parameters.frequency=316
fi
"$TETHERSIM_PYTHON" - "$out" <<'PY'
import csv, glob, json, os, sys
out = sys.argv[1]
rows = []
for path in sorted(glob.glob(os.path.join(out, "*-np*-lean*", "summary.json"))):
    d = json.load(open(path))
    name = os.path.basename(os.path.dirname(path))
    case, ranks, lean = name.rsplit("-", 2)
    n = d["final"]["particles"] if isinstance(d.get("final"), dict) and "particles" in d["final"] else None
    loop = d.get("loop_seconds", d["wall_seconds"])  # without checkpoint writes
    row = {"run": name, "case": case, "ranks": d["ranks"], "lean_fallback": lean[4:],
           "particles": n, "events": d["events_this_run"], "wall_s": round(d["wall_seconds"], 2),
           "loop_s": round(loop, 2), "events_per_s": round(d["events_this_run"] / loop),
           "wall_events_per_s": round(d["events_this_run"] / d["wall_seconds"]), "state_hash": d["state_hash"]}
    dist = d.get("distribution")
    if dist:
        p = dist["per_rank"]
        windows = p["windows"]["max"]
        row.update({"windows": windows, "delta_mean": p["delta_mean"]["mean"],
                    "events_per_window": round(d["events_this_run"] / max(windows, 1), 1),
                    "duplicated_fraction": round(dist["duplicated_fraction"], 4),
                    "fallbacks": p["fallbacks"]["max"], "retries": p["retries"]["max"],
                    "bytes_per_window": round(p["bytes_sent"]["total"] / max(windows, 1)),
                    "certify_s": round(p["seconds_certify"]["max"], 2), "execute_s": round(p["seconds_execute"]["max"], 2),
                    "exchange_s": round(p["seconds_exchange"]["max"], 2), "wait_s": round(p["seconds_wait"]["max"], 2),
                    "rebuild_s": round(p["seconds_rebuild"]["max"], 2), "imbalance": round(dist["imbalance"], 3)})
    rows.append(row)
serial = {r["case"]: r for r in rows if r["ranks"] == 1}
def per_particle_rate(r):
    return r["events_per_s"]
for r in rows:
    # Strong: same case on 1 rank. Weak: the 1-rank case with half the particles
    # (events/s already grow with the system, so 1 is ideal for both).
    ref = serial.get(r["case"]) or serial.get({"gas219k": "gas108k", "gas2M": "gas1M", "sphere2M": "sphere1M"}.get(r["case"], ""))
    # Rates without the final checkpoint write (the disk's speed varies from
    # run to run far more than the simulation's); with it, efficiency_wall.
    r["efficiency"] = round(r["events_per_s"] / (r["ranks"] * ref["events_per_s"]), 3) if ref else ""
    r["efficiency_wall"] = round(r["wall_events_per_s"] / (r["ranks"] * ref["wall_events_per_s"]), 3) if ref else ""
    # A ceiling for any certificate: the loop with the slowest rank's
    # certifying taken out (execution, exchange and waiting left as measured).
    if ref and r.get("certify_s") not in (None, "") and r["loop_s"] > r["certify_s"]:
        rate = r["events"] / (r["loop_s"] - r["certify_s"])
        r["efficiency_free_certify"] = round(rate / (r["ranks"] * ref["events_per_s"]), 3)
keys = []
for r in rows:
    keys += [k for k in r if k not in keys]
with open(os.path.join(out, "bench.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=keys)
    w.writeheader()
    w.writerows(rows)
show = ["run", "events", "wall_s", "loop_s", "events_per_s", "efficiency", "efficiency_wall", "efficiency_free_certify",
        "windows", "events_per_window",
        "duplicated_fraction", "fallbacks", "certify_s", "execute_s", "wait_s", "rebuild_s", "state_hash"]
print(" | ".join(show))
for r in rows:
    print(" | ".join(str(r.get(k, "")) for k in show))
PY

# The projection to 64 and 512 ranks (design/SYNC-CIW.md's cost model with
# the rates measured here): strong from the 10^6 gas, weak from 2x10^6.
if [[ $size == full ]]; then
  for kind in strong:gas1M weak:gas2M; do
    name=${kind%%:*} case=${kind#*:}
    echo "== projection, $name scaling ($case on 2 ranks in certified windows)"
    "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_projection.py" "$out/gas1M-np1-leanon" \
      "$out/$case-np2-leanoff" --csv "$out/projection-$name.csv"
  done
fi
