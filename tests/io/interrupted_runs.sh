#!/usr/bin/env bash
# Interrupted runs: checkpoints on signals, kill -9, --max-walltime.
# - SIGTERM and SIGUSR1 stop a running run at a safe point with exit code 0,
#   a checkpoint that `tethersim info` verifies, and a summary marked
#   interrupted; continuing it with --restart gives exactly the uninterrupted
#   run (same state hash, same frames and observables, same checkpoint state).
# - kill -9 at any moment, also in the middle of a checkpoint write, leaves
#   the outputs already written intact: every checkpoint present and the
#   trajectory verify with `tethersim info`, the newest checkpoint never goes
#   back in time, and the run continued to the end equals the uninterrupted one.
#   interrupted_runs.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"

# identical_runs DIR_A DIR_B: the shared same_state checks, plus what h5diff
# lets through (it exits 0 for datasets of different shapes): every dataset
# of the trajectory with the same shape and the same bytes, every state
# dataset and attribute of the final checkpoint, and the summaries' counts.
identical_runs() {
  same_state "$1" "$2"
  /usr/bin/python3 - "$1" "$2" <<'EOF' || fail "runs differ: $1 vs $2"
import json, sys
import h5py

a, b = sys.argv[1], sys.argv[2]
problems = []

def datasets(f):
    found = {}
    f.visititems(lambda name, obj: found.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return found

def compare(name, skip=()):
    with h5py.File(f"{a}/{name}", "r") as fa, h5py.File(f"{b}/{name}", "r") as fb:
        da, db = datasets(fa), datasets(fb)
        for key in sorted(set(da) | set(db)):
            if any(key.endswith(s) for s in skip):
                continue
            if key not in da or key not in db:
                problems.append(f"{name}:/{key} only in one run")
                continue
            x, y = da[key], db[key]
            if x.shape != y.shape or x.dtype != y.dtype:
                problems.append(f"{name}:/{key} shape {x.shape} {x.dtype} vs {y.shape} {y.dtype}")
            elif x[()].tobytes() != y[()].tobytes():
                problems.append(f"{name}:/{key} values differ")
        return fa, fb

compare("trajectory.h5")
# Work counters (predictions, pair tests) and the command-line overrides
# (output directory) legitimately differ; the state does not.
compare("checkpoint.h5", skip=("model_overrides", "statistics"))
with h5py.File(f"{a}/checkpoint.h5", "r") as fa, h5py.File(f"{b}/checkpoint.h5", "r") as fb:
    for attr in ("time", "particles", "seed", "model_hash", "physics_hash", "active_window", "complete"):
        if fa["checkpoint"].attrs.get(attr) != fb["checkpoint"].attrs.get(attr):
            problems.append(f"checkpoint attribute {attr}: {fa['checkpoint'].attrs.get(attr)} vs "
                            f"{fb['checkpoint'].attrs.get(attr)}")
sa, sb = (json.load(open(f"{d}/summary.json")) for d in (a, b))
for key in ("state_hash", "end_time", "events", "collisions", "events_by_kind", "loadings", "escapes"):
    if sa.get(key) != sb.get(key):
        problems.append(f"summary.json {key}: {sa.get(key)} vs {sb.get(key)}")
for p in problems:
    print(f"FAIL: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
}

# verified_times FILE...: one `tethersim info` over the files (it fails on a
# damaged one); every checkpoint among them must report a verified content
# hash. Prints "FILE TIME" per checkpoint.
verified_times() {
  local text
  text=$("$exe" info "$@" 2>&1) || fail "tethersim info rejects one of $*: $text"
  printf '%s\n' "$text" | awk '
    /^[^ ].*: / { file = $1; sub(/:$/, "", file); checkpoint = ($2 == "tethersim" && $3 == "checkpoint") }
    checkpoint && $1 == "time" { time[file] = $2 }
    checkpoint && /^  integrity    content hash verified$/ { ok[file] = 1 }
    END { for (f in time) { if (!ok[f]) { print "unverified " f; exit 1 } print f, time[f] } }' ||
    fail "a checkpoint is not verified: $text"
}

# checkpoint_time FILE: the simulated time of a verified checkpoint.
checkpoint_time() {
  local line
  line=$(verified_times "$1")
  [ -n "$line" ] || fail "$1 is not a checkpoint"
  echo "${line##* }"
}

# outputs_intact DIR: every checkpoint present and the trajectory verify;
# at least one checkpoint exists. Prints the newest checkpoint time.
outputs_intact() {
  local dir=$1 files=() name listing
  for name in checkpoint.h5 checkpoint.prev.h5; do
    [ -e "$dir/$name" ] && files+=("$dir/$name")
  done
  [ "${#files[@]}" -gt 0 ] || fail "$dir holds no checkpoint"
  listing=$(verified_times "${files[@]}" "$dir/trajectory.h5")
  [ "$(printf '%s\n' "$listing" | grep -c .)" -eq "${#files[@]}" ] || fail "unexpected info output: $listing"
  printf '%s\n' "$listing" | awk '{ print $2 }' | sort -g | tail -1
}

before() {  # before A B WHAT: A < B
  /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2" ||
    fail "$3: stopped at t = $1, not before t = $2"
}

not_before() {  # not_before A B WHAT: A >= B
  /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)" "$1" "$2" ||
    fail "$3: newest checkpoint at t = $1, before t = $2"
}

# wait_for_write DIR PID: returns as soon as the run is writing a checkpoint
# (a temporary file created after this call, next to a completed checkpoint),
# or fails when the run ends or after 60 s.
wait_for_write() {
  local dir=$1 pid=$2 deadline=$((SECONDS + 60))
  touch "$work/marker"
  until [ -e "$dir/checkpoint.h5" ] && [ "$dir/checkpoint.h5.tmp" -nt "$work/marker" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the run in $dir ended before it was interrupted"
    [ "$SECONDS" -lt "$deadline" ] || fail "no checkpoint write in $dir within 60 s"
    sleep 0.002
  done
}

kill9() { kill -9 "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# --- SIGTERM, as a batch system sends before the wall-time limit.
sheet=(--set initial.parameters.size=16 --set output.frame_interval=2.0)
"$exe" run "$src/examples/membrane-sheet.toml" "${sheet[@]}" -o "$work/straight" --end-time 40 -q
"$exe" run "$src/examples/membrane-sheet.toml" "${sheet[@]}" -o "$work/term" --end-time 40 -q 2>"$work/term.err" &
pid=$!
# Once the run is under way (run.log is opened after set-up), whatever
# the machine's load.
deadline=$((SECONDS + 60))
until [ -e "$work/term/run.log" ]; do
  kill -0 "$pid" 2>/dev/null || fail "the run ended before SIGTERM was sent"
  [ "$SECONDS" -lt "$deadline" ] || fail "the run did not start within 60 s"
  sleep 0.01
done
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "the run finished before SIGTERM was sent (make it longer)"
kill -TERM "$pid"
code=0; wait "$pid" || code=$?
[ "$code" -eq 0 ] || fail "SIGTERM: exit code $code"
grep -q "stopped by SIGTERM at t = " "$work/term.err" || fail "no stop message: $(cat "$work/term.err")"
[ "$(json_field "$work/term/summary.json" interrupted)" = "True" ] || fail "summary not marked interrupted"
stopped_at=$(json_field "$work/term/summary.json" end_time)
before "$stopped_at" 40 "SIGTERM"
t=$(outputs_intact "$work/term")
/usr/bin/python3 -c "import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))" "$t" "$stopped_at" ||
  fail "SIGTERM: newest checkpoint at t = $t, summary says $stopped_at"
"$exe" run --restart "$work/term" -q
identical_runs "$work/straight" "$work/term"

# --- A signal during set-up (MPI_Init, building a large system) is kept
# and honoured at the first safe point: exit 0, a checkpoint, a summary
# marked interrupted. A second Ctrl-C then ends the process at once.
big=(--set initial.parameters.cells=40 --end-time 5)
"$exe" run "$src/examples/gas.toml" "${big[@]}" -o "$work/early" -q 2>"$work/early.err" &
pid=$!
caught_signal "$pid" 15
kill -TERM "$pid"
code=0; wait "$pid" || code=$?
[ "$code" -eq 0 ] || fail "SIGTERM during set-up: exit code $code"
grep -q "stopped by SIGTERM at t = " "$work/early.err" || fail "SIGTERM during set-up: $(cat "$work/early.err")"
[ "$(json_field "$work/early/summary.json" interrupted)" = "True" ] || fail "SIGTERM during set-up: not marked interrupted"
echo "SIGTERM during set-up: stopped at t = $(json_field "$work/early/summary.json" end_time)"
outputs_intact "$work/early" >/dev/null
"$exe" run "$src/examples/gas.toml" "${big[@]}" -o "$work/twice" -q 2>"$work/twice.err" &
pid=$!
caught_signal "$pid" 2
kill -INT "$pid"
sleep 0.01
kill -INT "$pid"
code=0; wait "$pid" || code=$?
[ "$code" -eq 130 ] || fail "a second Ctrl-C: exit code $code, not 130 (ended by SIGINT)"

# --- kill -9 in the middle of checkpoint writes, at random moments and
# during start-up; then --max-walltime and SIGUSR1 (what `#SBATCH --signal`
# sends) on the same run, which finally goes on to the end.
gas=(--set initial.parameters.cells=16 --set output.checkpoint_interval=0.02 --set output.frame_interval=0.5)
"$exe" run "$src/examples/gas.toml" "${gas[@]}" -o "$work/gas-straight" --end-time 2 -q
"$exe" run "$src/examples/gas.toml" "${gas[@]}" -o "$work/killed" --end-time 2 -q &
pid=$!
wait_for_write "$work/killed" "$pid"
kill9 "$pid"
mid_write=0
[ -e "$work/killed/checkpoint.h5.tmp" ] && mid_write=$((mid_write + 1))
newest=$(outputs_intact "$work/killed")
# restart_and_kill DELAY: continues the run, kills it with -9 as soon as it
# writes a checkpoint (DELAY "write") or after DELAY seconds, and checks
# what it left.
kills=1
restart_and_kill() {
  local delay=$1
  "$exe" run --restart "$work/killed" -q &
  pid=$!
  if [ "$delay" = write ]; then wait_for_write "$work/killed" "$pid"; else sleep "$delay"; fi
  kill9 "$pid"
  # Still there: the write was cut short.
  if [ "$delay" = write ]; then
    kills=$((kills + 1))
    [ -e "$work/killed/checkpoint.h5.tmp" ] && mid_write=$((mid_write + 1))
  fi
  previous=$newest
  newest=$(outputs_intact "$work/killed")
  not_before "$newest" "$previous" "kill -9 (delay $delay)"
}
for delay in write 0.07 write 0.4; do restart_and_kill "$delay"; done
# A kill sent as a write begins can still land after it ends on a busy
# machine: up to five more tries for the two cut short this part needs.
while [ "$mid_write" -lt 2 ] && [ "$kills" -lt 8 ]; do restart_and_kill write; done
echo "kill -9: $mid_write of $kills kills landed during a checkpoint write; newest checkpoint at t = $newest"
[ "$mid_write" -ge 2 ] || fail "only $mid_write of $kills kills landed during a checkpoint write"
# 1e-5 h = 36 ms: far less than the rest of the run takes on any machine
# (a second was not: a fast machine finished the run inside it).
"$exe" run --restart "$work/killed" --max-walltime 1e-5 -q
[ "$(json_field "$work/killed/summary.json" interrupted)" = "True" ] || fail "--max-walltime did not stop the run"
previous=$newest
newest=$(outputs_intact "$work/killed")
not_before "$newest" "$previous" "--max-walltime"
# A margin of all but 36 ms of a one-hour limit stops the run the same way.
"$exe" run --restart "$work/killed" --max-walltime 1 --walltime-margin 59.9994 -q
[ "$(json_field "$work/killed/summary.json" interrupted)" = "True" ] || fail "--walltime-margin did not stop the run"
previous=$newest
newest=$(outputs_intact "$work/killed")
not_before "$newest" "$previous" "--walltime-margin"
"$exe" run --restart "$work/killed" -q 2>"$work/usr1.err" &
pid=$!
wait_for_write "$work/killed" "$pid"
kill -USR1 "$pid"
code=0; wait "$pid" || code=$?
[ "$code" -eq 0 ] || fail "SIGUSR1: exit code $code"
grep -q "stopped by SIGUSR1 at t = " "$work/usr1.err" || fail "SIGUSR1: no stop message: $(cat "$work/usr1.err")"
[ "$(json_field "$work/killed/summary.json" interrupted)" = "True" ] || fail "SIGUSR1: summary not marked interrupted"
stopped_at=$(json_field "$work/killed/summary.json" end_time)
t=$(outputs_intact "$work/killed")
/usr/bin/python3 -c "import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))" "$t" "$stopped_at" ||
  fail "SIGUSR1: newest checkpoint at t = $t, summary says $stopped_at"
not_before "$stopped_at" "$newest" "SIGUSR1"
"$exe" run --restart "$work/killed" -q
[ "$(json_field "$work/killed/summary.json" interrupted)" = "False" ] || fail "the continued run did not finish"
identical_runs "$work/gas-straight" "$work/killed"

# --- Stopped at once in a sparse gas, where the next event often lies
# beyond the next frame: the stop must not lose that frame.
sparse=(--set initial.parameters.cells=2 --set output.frame_interval=0.01)
"$exe" run "$src/examples/gas.toml" "${sparse[@]}" -o "$work/sparse-straight" --end-time 3 -q
"$exe" run "$src/examples/gas.toml" "${sparse[@]}" -o "$work/sparse" --end-time 3 --max-walltime 1e-9 -q
[ "$(json_field "$work/sparse/summary.json" interrupted)" = "True" ] || fail "the sparse run was not stopped"
checkpoint_time "$work/sparse/checkpoint.h5" >/dev/null
"$exe" run --restart "$work/sparse" -q
identical_runs "$work/sparse-straight" "$work/sparse"
echo "interrupted runs: ok"
