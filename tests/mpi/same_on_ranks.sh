#!/usr/bin/env bash
# same_on_ranks.sh EXE NP REF OUT [RUN ARGS...]
# Runs `tethersim run RUN ARGS` on NP ranks (0: without mpirun) into OUT and
# checks that it ends in the same state, bit for bit, as the run in REF.
# With RESTART="T NP2" the run stops at time T and a run on NP2 ranks
# continues it from the checkpoint, with RESTART_ARGS added to its own
# arguments (e.g. another window mode). With MIN_MIGRATIONS=k the ranks must
# have handed particles to each other at least k times; with
# MIN_BOUND_EXCHANGES=k phase 2 must have sent risen bounds again at least k
# times; with SPARSE=1 certificates must have examined under half the owned
# particles on average (the sparse start was used); with MIN_ROLLBACKS=k at
# least k speculative windows must have been undone (over all ranks); with
# MIN_PARTIAL_COMMITS=k at least k must have been kept up to their earliest
# violation; with MIN_MEMORY_CUTS=k at least k must have ended early with a
# full undo log (over all ranks); with MIN_JOURNALS_DROPPED=k at least k
# must have dropped their journal (undone only whole from then on); with
# MIN_PARTED=k at least k ghosts must have been run otherwise than by their
# owners (and put right at the commits). With MIN_TICKS_BETWEEN=k at least k
# periodic ticks must have run between speculative windows (on every
# rank, with no undo log). With RECORDS=DIR (the run's
# --record-rounds DIR) the round records must hold one trace per rank that
# SimGrid replays, and count exactly the run's events (with OWNER set, also
# replayed with only the waited-for receipts binding, in no more time). With
# MAX_ENGINE_SHARE=f no rank's engine may hold more than f times the bytes
# of the reference's (one rank's) engine: a rank holds its block and halo,
# never storage for the whole system. With MAX_START_SHARE=f no rank's
# start may hold more than f times the initial particles (a fresh run's
# window of its initial state, never the whole). With OWNER=k the run must
# have been made of owner-computes rounds that ran no event twice, and at
# least k outcomes must have come late to a rank (and undone it there), the
# instants their particles reached no more than those undone (at least one
# when k >= 100); with
# MIN_OWNER_ROUNDS=k at least k owner-computes rounds on every rank; with
# MIN_HELD_UNDOS=k at least k undos before an event a rank had held while
# later ones ran; with MIN_FORCED_UNDOS=k at least k undos forced by
# TETHERSIM_OWNER_FAIL_RATE.
set -euo pipefail
exe=$1 np=$2 ref=$3 out=$4
shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Ranks waiting for a neighbour give their core away: 8 ranks share 2 cores.
export OMPI_MCA_mpi_yield_when_idle=1
on_ranks() {
  local n=$1
  shift
  if [[ $n == 0 ]]; then "$exe" "$@"; else mpirun -np "$n" --oversubscribe "$exe" "$@"; fi
}
rm -rf "$out"
[[ -z "${RECORDS:-}" ]] || rm -rf "$RECORDS"
if [[ -n "${RESTART:-}" ]]; then
  read -r stop np2 <<<"$RESTART"
  on_ranks "$np" run "$@" -o "$out" -q --end-time "$stop"
  end=$(/usr/bin/python3 -c "import json,sys; print(repr(json.load(open(sys.argv[1]))['end_time']))" "$ref/summary.json")
  read -r -a restart_args <<<"${RESTART_ARGS:-}"
  on_ranks "$np2" run --restart "$out" -q --end-time "$end" "${restart_args[@]}"
else
  on_ranks "$np" run "$@" -o "$out" -q
fi
/usr/bin/python3 "$here/../common/same_state.py" "$ref" "$out"
if [[ -n "${MAX_ENGINE_SHARE:-}" ]]; then
  /usr/bin/python3 - "$ref/summary.json" "$out/summary.json" "$MAX_ENGINE_SHARE" <<'PY'
import json, sys
whole = json.load(open(sys.argv[1]))["memory"]["engine_bytes"]
ranks = json.load(open(sys.argv[2]))["memory"]["rank_engine_bytes"]
share = max(ranks) / whole
print(f"engine bytes per rank: {ranks}; one rank: {whole}; the largest share {share:.3f}")
if share > float(sys.argv[3]):
    sys.exit(f"a rank's engine holds {share:.3f} of the whole system's storage (at most {sys.argv[3]})")
PY
fi
if [[ -n "${MAX_START_SHARE:-}" ]]; then
  /usr/bin/python3 - "$out/summary.json" "$MAX_START_SHARE" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
held = summary["memory"]["rank_start_particles"]
whole = summary["initial"]["particles"]
share = max(held) / whole
print(f"initial particles held at the start per rank: {held}; of {whole}; the largest share {share:.3f}")
if share > float(sys.argv[2]):
    sys.exit(f"a rank's start held {share:.3f} of the initial particles (at most {sys.argv[2]})")
PY
fi
if [[ -n "${RECORDS:-}" ]]; then
  /usr/bin/python3 "$here/../../tools/scaling_replay.py" "$RECORDS" --reference "$RECORDS" --json "$RECORDS.json"
  /usr/bin/python3 - "$RECORDS.json" "$out/summary.json" "$np" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
summary = json.load(open(sys.argv[2]))
ranks = max(int(sys.argv[3]), 1)
events = summary["events_this_run"]
print(f"records: {row['ranks']} ranks, {row['rounds']} rounds, {row['events_committed']} events committed "
      f"(the run: {events}), projected {row['projected_seconds']:.4g} s")
if row["ranks"] != ranks or row["events_committed"] != events or row["rounds"] < 1:
    sys.exit("the round records do not match the run")
PY
  if [[ -n "${OWNER:-}" ]]; then
    # Owner-computes records: binding only the receipts a rank waited for
    # is the lower bound, never above every receipt binding.
    /usr/bin/python3 "$here/../../tools/scaling_replay.py" "$RECORDS" --reference "$RECORDS" --bind waits \
      --json "$RECORDS-waits.json"
    /usr/bin/python3 - "$RECORDS.json" "$RECORDS-waits.json" <<'PY'
import json, sys
every, waits = (json.load(open(p))["rows"][0]["projected_seconds"] for p in sys.argv[1:])
print(f"projected: every receipt binding {every:.4g} s, only waits {waits:.4g} s")
if not 0 < waits <= every * (1 + 1e-9):
    sys.exit("binding only the waits projected more time than binding every receipt")
PY
  fi
fi
counter() {
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['distribution']['per_rank'][sys.argv[2]][sys.argv[3]])" "$out/summary.json" "$1" "$2"
}
# at_least VARIABLE COUNTER STATISTIC WHAT: when VARIABLE is set, the
# counter's statistic over the ranks (total, min, mean) must be at least
# its value.
at_least() {
  local least=${!1:-}
  [[ -n $least ]] || return 0
  local value
  value=$(counter "$2" "$3")
  echo "$4: $value"
  /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)" "$value" "$least" ||
    { echo "expected at least $least ($4)"; exit 1; }
}
at_least MIN_MIGRATIONS migrations total "migrations between ranks"
at_least MIN_BOUND_EXCHANGES bound_exchanges total "extra bound exchanges"
at_least MIN_ROLLBACKS rollbacks total "speculative windows undone"
if [[ -n "${OWNER:-}" ]]; then
  rounds=$(counter owner_rounds total) duplicated=$(counter events_duplicated total) late=$(counter late_outcomes total)
  echo "owner-computes rounds: $rounds; events run twice: $duplicated; late outcomes: $late"
  /usr/bin/python3 -c "import sys; r, d, l, k = map(float, sys.argv[1:]); sys.exit(0 if r >= 1 and d == 0 and l >= k else 1)" \
    "$rounds" "$duplicated" "$late" "$OWNER" ||
    { echo "expected owner-computes rounds, no event run twice and at least $OWNER late outcomes"; exit 1; }
  # What the late outcomes' undos took back, and what their particles
  # reached of it: never more than was taken back, and with many late
  # outcomes, some of it.
  instants=$(counter late_undo_instants total) reached=$(counter late_undo_instants_reached total)
  echo "instants undone by late outcomes: $instants; reached by their particles: $reached"
  /usr/bin/python3 -c "import sys; i, r, k = map(float, sys.argv[1:]); sys.exit(0 if r <= i and (k < 100 or r >= 1) else 1)" \
    "$instants" "$reached" "$OWNER" ||
    { echo "expected the instants reached within those undone (and some reached with $OWNER late outcomes)"; exit 1; }
fi
at_least MIN_OWNER_ROUNDS owner_rounds min "owner-computes rounds (fewest on a rank)"
at_least MIN_HELD_UNDOS held_undos total "undos before a held event"
at_least MIN_FORCED_UNDOS forced_undos total "undos forced by the testing switch"
at_least MIN_PARTIAL_COMMITS partial_commits total "windows kept up to their earliest violation"
at_least MIN_MEMORY_CUTS memory_cuts total "windows ended early with a full undo log"
at_least MIN_JOURNALS_DROPPED journals_dropped total "windows that dropped their journal"
at_least MIN_PARTED parted_particles total "ghosts run otherwise than by their owners"
at_least MIN_TICKS_BETWEEN ticks_between_windows min "ticks run between windows (fewest on a rank)"
if [[ -n "${SPARSE:-}" ]]; then
  examined=$(counter examined_owned mean) certifications=$(counter certifications mean) owned=$(counter owned mean)
  echo "per rank: $examined owned particles examined in $certifications certifications, $owned owned"
  /usr/bin/python3 -c "import sys; e, c, o = map(float, sys.argv[1:]); sys.exit(0 if c > 0 and e / c < 0.5 * o else 1)" \
    "$examined" "$certifications" "$owned" || { echo "expected a sparse certificate"; exit 1; }
fi
