#!/usr/bin/env bash
# Scaling past the cores of this machine, measured: each case runs on every
# rank count (oversubscribed: ranks share the 2 cores), recording each rank's
# thread CPU time and messages round by round (--record-rounds), and
# tools/scaling_replay.py replays the records as a parallel schedule on a
# modelled InfiniBand-class cluster (SimGrid SMPI).
#   jobs/local/scaling-replay.sh [-o DIR] [-c CASES] [-m MAX_RANKS]
#                                [-w WINDOWS] [--latency S] [--bandwidth B/S]
# -w: the multi-rank runs' window protocol (tethersim run --windows:
# speculative, the default; certified; owner, the owner-computes rounds,
# asked for knowingly with TETHERSIM_OWNER_PREVIEW=1 set here); one-rank
# runs are the same whatever it is.
# Cases (comma-separated, default all):
#   gas-strong    the gas of 1 000 188 particles from its melt (t = 1 -> 1.2)
#                 on 1, 2, 4, ..., 64 ranks
#   gas-weak      about 125 000 particles per rank (t = 1 -> 1.2), 1 to 32 ranks
#   sheet-strong  the membrane sheet of 2 000 001 particles from t = 12,
#                 tethers engaged (t = 12 -> 12.5: ten gravity ticks), 1 to 64 ranks
#   validate      the replay against real 2-rank runs: the gas of 10^6 and
#                 the sheet of 2x10^6 (the cases above), three times each:
#                 two one-rank runs at once (the ceiling), one rank alone,
#                 2 ranks; each 2-rank run's projection on a model of this
#                 machine (1 µs, 5 GB/s) against its measured loop
#   small         the gas of 10^5 and the sheet of 80 001 particles, 1 to 8
#                 ranks (a quick look)
#   cpu-check     whether CPU time is honest when ranks share cores: the gas
#                 of 10^5 on one rank alone, then 8 copies of that run at once
#                 on the 2 cores; each copy's recorded CPU time, round by
#                 round, against the lone run's (not in the default list)
# Writes DIR/CASE/ranks-NNN/ (run and records), DIR/CASE.json and .csv
# (the replay's table, each rank priced as in the 2-rank run: the gas per
# event, the sheet per prediction; DIR/CASE-measured.* with CPU time as
# recorded),
# with -w owner also DIR/CASE-waits.* (only the receipts a rank waited for
# bind it: the lower bound of the owner-computes replay; CASE.* is the upper),
# DIR/scaling.md (every table) and DIR/scaling.png (efficiency against
# ranks, one curve per case). Every run of a case must end in the same
# state (strong cases): the script fails otherwise.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
out=scaling-replay cases=gas-strong,gas-weak,sheet-strong,validate max_ranks=64 windows=
replay_options=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -c) cases=$2; shift 2 ;;
    -m) max_ranks=$2; shift 2 ;;
    -w) windows=$2; shift 2 ;;
    --latency|--bandwidth) replay_options+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [-o DIR] [-c CASES] [-m MAX_RANKS] [-w WINDOWS] [--latency S] [--bandwidth B/S]" >&2; exit 2 ;;
  esac
done
exe=${TETHERSIM:-$TETHERSIM_ROOT/build/release/src/app/tethersim}
[[ -x $exe ]] || { echo "scaling-replay: no tethersim at $exe (run jobs/local/build.sh release)" >&2; exit 1; }
command -v smpirun >/dev/null || { echo "scaling-replay: smpirun is missing (jobs/local/setup.sh installs libsimgrid-dev)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Waiting ranks give their core away: 64 ranks share 2 cores.
export OMPI_MCA_mpi_yield_when_idle=1
window_options=()
if [[ -n $windows ]]; then
  window_options=(--windows "$windows")
  [[ $windows != owner ]] || export TETHERSIM_OWNER_PREVIEW=1
fi
gas=$TETHERSIM_ROOT/examples/gas.toml sheet=$TETHERSIM_ROOT/examples/membrane-sheet.toml

# melt NAME MODEL END [--set ...]: a starting checkpoint, on one rank, once.
melt() {
  local name=$1 model=$2 end=$3
  shift 3
  if [[ ! -f $out/melts/$name/checkpoint.h5 ]]; then
    echo "== $name: start to t = $end on one rank"
    "$exe" run "$model" "$@" --end-time "$end" -o "$out/melts/$name" -q --overwrite \
      --set output.frame_interval=inf
  fi
}

# record CASE MELT RANKS END: a run of RANKS ranks from MELT's checkpoint.
record() {
  local case=$1 melt=$2 ranks=$3 end=$4
  local dir=$out/$case/ranks-$(printf %03d "$ranks")
  rm -rf "$dir" && mkdir -p "$out/$case" && cp -rL "$out/melts/$melt" "$dir"
  echo "== $case on $ranks ranks"
  local started=$(date +%s)
  local options=()
  (( ranks == 1 )) || options=("${window_options[@]}")
  mpirun --oversubscribe -np "$ranks" "$exe" run --restart "$dir" --end-time "$end" -q \
    --record-rounds "$dir/records" "${options[@]}"
  echo "   $(( $(date +%s) - started )) s of wall time"
}

# record_shared CASE MELT END: two one-rank runs of MELT at once, the
# reference (the machine's two-process ceiling): oversubscribed runs keep
# both cores busy, and a core runs slower when the other is busy too, so
# the one-rank run that CPU time is compared with must share the machine
# the same way (tools/scaling_replay.py explains).
record_shared() {
  local case=$1 melt=$2 end=$3 k pids=()
  echo "== $case: two one-rank runs at once (the reference)"
  mkdir -p "$out/$case"
  for k in a b; do
    rm -rf "$out/$case/shared-$k" && cp -rL "$out/melts/$melt" "$out/$case/shared-$k"
  done
  for k in a b; do
    "$exe" run --restart "$out/$case/shared-$k" --end-time "$end" -q \
      --record-rounds "$out/$case/shared-$k/records" &
    pids+=($!)
  done
  for k in "${pids[@]}"; do wait "$k"; done
}

# replay CASE MODE [UNIT]: the table of CASE's runs as measured, and with
# a UNIT of work (events, predictions) a second one with every rank's
# rounds priced per unit as in the 2-rank run, which had a core per rank
# (oversubscribed ranks record CPU time that varies by rank and round for
# the same work; tools/scaling_replay.py, --normalise-to, --price-by). The
# second is CASE.json, the one plotted. The gas's work is its events; the
# membrane's is mostly its gravity ticks' predictions.
replay() {
  local case=$1 mode=$2 per_event=${3:-} references=() k
  for k in a b; do
    if [[ -d $out/$case/shared-$k/records ]]; then references+=(--reference "$out/$case/shared-$k/records"); fi
  done
  local measured=$case
  [[ -z $per_event ]] || measured=$case-measured
  "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_replay.py" "$out/$case"/ranks-*/records --mode "$mode" \
    "${references[@]}" "${replay_options[@]}" --json "$out/$measured.json" --csv "$out/$measured.csv" |
    tee "$out/$measured.txt"
  if [[ -n $per_event ]]; then
    "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_replay.py" "$out/$case"/ranks-*/records --mode "$mode" \
      "${references[@]}" "${replay_options[@]}" --normalise-to "$out/$case/ranks-002/records" \
      --price-by "$per_event" --json "$out/$case.json" --csv "$out/$case.csv" | tee "$out/$case.txt"
    if [[ $windows == owner ]]; then
      # The other bound: only the receipts a rank waited for bind it.
      "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_replay.py" "$out/$case"/ranks-*/records --mode "$mode" \
        "${references[@]}" "${replay_options[@]}" --normalise-to "$out/$case/ranks-002/records" \
        --price-by "$per_event" --bind waits --json "$out/$case-waits.json" --csv "$out/$case-waits.csv" |
        tee "$out/$case-waits.txt"
    fi
  fi
  if [[ $mode == strong ]]; then
    local hashes
    hashes=$("$TETHERSIM_PYTHON" -c 'import json,sys; print(len({json.load(open(p))["state_hash"] for p in sys.argv[1:]}))' \
      "$out/$case"/ranks-*/summary.json "$out/$case"/shared-?/summary.json)
    [[ $hashes == 1 ]] || { echo "scaling-replay: $case ended in $hashes different states" >&2; exit 1; }
  fi
}

rank_counts() {  # 1 2 4 ... up to the smaller of $1 and MAX_RANKS
  local r=1
  while (( r <= $1 && r <= max_ranks )); do echo $r; r=$((r * 2)); done
}

plotted=()
for case in ${cases//,/ }; do
  case $case in
    gas-strong)
      melt gas-1000188 "$gas" 1 --set initial.parameters.cells=63
      record_shared gas-strong gas-1000188 1.2
      for p in $(rank_counts 64); do record gas-strong gas-1000188 "$p" 1.2; done
      replay gas-strong strong events
      plotted+=("gas 10^6, strong=$out/gas-strong.json") ;;
    gas-weak)
      # 4 c^3 particles closest to 125 000 per rank.
      declare -A cells=([1]=31 [2]=40 [4]=50 [8]=63 [16]=79 [32]=100)
      melt gas-weak-1 "$gas" 1 --set initial.parameters.cells=${cells[1]}
      record_shared gas-weak gas-weak-1 1.2
      for p in $(rank_counts 32); do
        melt "gas-weak-$p" "$gas" 1 --set initial.parameters.cells=${cells[$p]}
        record gas-weak "gas-weak-$p" "$p" 1.2
      done
      replay gas-weak weak events
      plotted+=("gas 125 000 per rank, weak=$out/gas-weak.json") ;;
    sheet-strong)
      melt sheet-2000001 "$sheet" 12 --set initial.parameters.size=1000
      record_shared sheet-strong sheet-2000001 12.5
      for p in $(rank_counts 64); do record sheet-strong sheet-2000001 "$p" 12.5; done
      replay sheet-strong strong predictions
      plotted+=("membrane sheet 2x10^6, strong=$out/sheet-strong.json") ;;
    validate)
      melt gas-1000188 "$gas" 1 --set initial.parameters.cells=63
      melt sheet-2000001 "$sheet" 12 --set initial.parameters.size=1000
      for spec in gas-1000188:1.2 sheet-2000001:12.5; do
        name=${spec%%:*} end=${spec##*:}
        for k in 1 2 3; do
          record_shared "validate-$name-$k" "$name" "$end"
          rm -rf "$out/validate-$name-$k/alone" && cp -rL "$out/melts/$name" "$out/validate-$name-$k/alone"
          "$exe" run --restart "$out/validate-$name-$k/alone" --end-time "$end" -q
          record "validate-$name-$k" "$name" 2 "$end"
        done
      done
      "$TETHERSIM_PYTHON" - "$out" "$TETHERSIM_ROOT/tools/scaling_replay.py" <<'PY' | tee "$out/validate.txt"
import json, os, subprocess, sys
out, tool = sys.argv[1:]
loop = lambda d: json.load(open(os.path.join(d, "summary.json")))["loop_seconds"]
print("# the replay against real 2-rank runs: projected on a model of this machine (latency 1e-6 s, 5e9 B/s)")
print("# against the measured loop; the ceiling is half the loop of one of two one-rank runs made at once")
print("case            run  2-rank loop s  projected s  projected/loop  one alone s  ceiling s  2 ranks/ceiling")
for name in ("gas-1000188", "sheet-2000001"):
    for k in (1, 2, 3):
        d = os.path.join(out, f"validate-{name}-{k}")
        records = os.path.join(d, "ranks-002", "records")
        table = os.path.join(d, "replay.json")
        subprocess.run([sys.executable, tool, records, "--reference", records, "--latency", "1e-6",
                        "--json", table], check=True, capture_output=True)
        projected = json.load(open(table))["rows"][0]["projected_seconds"]
        two = loop(os.path.join(d, "ranks-002"))
        ceiling = 0.5 * sum(loop(os.path.join(d, f"shared-{s}")) for s in "ab") / 2
        print(f"{name:14s}  {k:3d}  {two:13.3f}  {projected:11.3f}  {projected / two:14.3f}  "
              f"{loop(os.path.join(d, 'alone')):11.3f}  {ceiling:9.3f}  {ceiling / two:15.3f}")
PY
      continue ;;
    small)
      melt gas-108000 "$gas" 1 --set initial.parameters.cells=30
      melt sheet-80001 "$sheet" 12 --set initial.parameters.size=200
      record_shared small-gas gas-108000 1.5
      record_shared small-sheet sheet-80001 12.5
      for p in $(rank_counts 8); do
        record small-gas gas-108000 "$p" 1.5
        record small-sheet sheet-80001 "$p" 12.5
      done
      replay small-gas strong
      replay small-sheet strong
      plotted+=("gas 10^5, strong=$out/small-gas.json" "sheet 80 001, strong=$out/small-sheet.json") ;;
    cpu-check)
      melt gas-108000 "$gas" 1 --set initial.parameters.cells=30
      rm -rf "$out/cpu-check" && mkdir -p "$out/cpu-check"
      cp -rL "$out/melts/gas-108000" "$out/cpu-check/alone"
      "$exe" run --restart "$out/cpu-check/alone" --end-time 1.5 -q --record-rounds "$out/cpu-check/alone/records"
      for k in 1 2 3 4 5 6 7 8; do
        cp -rL "$out/melts/gas-108000" "$out/cpu-check/copy-$k"
        "$exe" run --restart "$out/cpu-check/copy-$k" --end-time 1.5 -q \
          --record-rounds "$out/cpu-check/copy-$k/records" &
      done
      wait
      "$TETHERSIM_PYTHON" - "$out/cpu-check" <<'PY' | tee "$out/cpu-check.txt"
import glob, json, os, sys
d = sys.argv[1]
rounds = lambda run: [r for r in map(json.loads, open(os.path.join(d, run, "records", "rank-00000.rounds.jsonl")))
                      if not r.get("loop")]
alone = rounds("alone")
total = sum(r["cpu"] for r in alone)
wall = sum(r["wall"] for r in alone)
print(f"CPU time with 8 runs sharing 2 cores against one run alone (gas of 108 000, t = 1 -> 1.5, {len(alone)} rounds)")
print(f"alone: {total:.3f} s CPU, {wall:.3f} s wall")
for k in range(1, 9):
    copy = rounds(f"copy-{k}")
    c = sum(r["cpu"] for r in copy)
    worst = max(abs(a["cpu"] / b["cpu"] - 1) for a, b in zip(copy, alone) if b["cpu"] > 0.05)
    print(f"copy {k}: {c:.3f} s CPU ({c / total:.3f} of alone), {sum(r['wall'] for r in copy):.3f} s wall; "
          f"largest difference in a round of over 0.05 s: {100 * worst:.1f}%")
PY
      continue ;;
    *) echo "scaling-replay: unknown case '$case'" >&2; exit 2 ;;
  esac
done

[[ ${#plotted[@]} -eq 0 ]] || "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_replay.py" plot "${plotted[@]}" -o "$out/scaling.png"
cat "$out"/*.txt > "$out/scaling.md"
echo "scaling-replay: tables in $out/scaling.md, plot in $out/scaling.png"
