#!/usr/bin/env bash
# Owner-computes rounds (--windows owner) stopped in the middle, with ranks
# undone at random (TETHERSIM_OWNER_FAIL_RATE) and batches held back
# (TETHERSIM_OWNER_DELAY) so that the stop finds ranks ahead of the agreed
# floor and messages in flight:
# - SIGTERM to the ranks (as a batch system sends before the time limit): exit
#   code 0, the stop message, a summary marked interrupted, a checkpoint at
#   the stop; continued on 3 ranks in speculative windows, the uninterrupted
#   one-rank run's bits;
# - kill -9 of the whole session after a checkpoint: the restart from what
#   it left, on 2 ranks in owner rounds again, gives the same bits;
# - a stop in front of a gravity tick that the agreed floor has reached
#   (TETHERSIM_OWNER_SIGNAL_AT_TICK: rank 1 signals itself there, before it
#   runs the tick, while rank 0 may have run it): the ranks hand back one
#   state (Engine::finish_ticks_at), and the restart gives the bits of the
#   uninterrupted run of the membrane sheet.
#   stopped_during_owner_rounds.sh TETHERSIM SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_MCA_mpi_yield_when_idle=1
export TETHERSIM_OWNER_PREVIEW=1
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$here/run_control.sh"
json_field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
rm -rf "$work" && mkdir -p "$work"
model=("$src/examples/gas.toml" --set initial.parameters.cells=10 --set run.end_time=6
       --set output.frame_interval=1 --set output.checkpoint_interval=0.25)

"$exe" run "${model[@]}" -o "$work/straight" -q

# --- SIGTERM to both ranks (as srun or the batch system delivers it to the
# tasks; mpirun itself, signalled, passes the signal on but ends with exit
# code 1 whatever its ranks do): they agree on a floor and stop there
# together.
TETHERSIM_OWNER_FAIL_RATE=0.01 TETHERSIM_OWNER_DELAY=0.2 \
  mpirun -np 2 --oversubscribe "$exe" run "${model[@]}" --windows owner -o "$work/term" -q 2>"$work/term.err" &
pid=$!
after_first_checkpoint "$work/term" "$pid"
pkill -TERM -P "$pid" || fail "SIGTERM: no rank to signal"
# A guard against a hang, not a timing test: a stop takes a fraction of a
# second.
deadline=$((SECONDS + 60))
while kill -0 "$pid" 2>/dev/null; do
  ((SECONDS < deadline)) || { kill -9 "$pid"; fail "SIGTERM: the ranks still ran after 60 s"; }
  sleep 0.05
done
code=0; wait "$pid" || code=$?
[[ $code -eq 0 ]] || fail "SIGTERM: exit code $code: $(cat "$work/term.err")"
grep -q "stopped by SIGTERM at t = " "$work/term.err" || fail "no stop message: $(cat "$work/term.err")"
[[ $(json_field "$work/term/summary.json" interrupted) == True ]] || fail "summary not marked interrupted"
stopped=$(json_field "$work/term/summary.json" end_time)
echo "stopped by SIGTERM at t = $stopped"
mpirun -np 3 --oversubscribe "$exe" run --restart "$work/term" -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/straight" "$work/term"

# --- kill -9 of the session (mpirun and both ranks at once, as a node
# failure would), then a restart in owner rounds.
TETHERSIM_OWNER_FAIL_RATE=0.01 TETHERSIM_OWNER_DELAY=0.2 \
  setsid mpirun -np 2 --oversubscribe "$exe" run "${model[@]}" --windows owner -o "$work/killed" -q &
pid=$!
after_first_checkpoint "$work/killed" "$pid"
kill_session "$pid"
echo "killed after the checkpoint at t = $(newest_checkpoint "$work/killed")"
mpirun -np 2 --oversubscribe "$exe" run --restart "$work/killed" --windows owner -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/straight" "$work/killed"

# --- A stop at a tick's agreement, on the membrane sheet (gravity ticks
# every 0.05).
sheet=("$src/examples/membrane-sheet.toml" --set initial.parameters.size=12 --set run.end_time=1
       --set output.frame_interval=0.5)
"$exe" run "${sheet[@]}" -o "$work/sheet-straight" -q
code=0
TETHERSIM_OWNER_SIGNAL_AT_TICK=1 mpirun -np 2 --oversubscribe -x TETHERSIM_OWNER_SIGNAL_AT_TICK \
  "$exe" run "${sheet[@]}" --windows owner -o "$work/at-tick" -q 2>"$work/at-tick.err" || code=$?
[[ $code -eq 0 ]] || fail "stop at a tick: exit code $code: $(cat "$work/at-tick.err")"
[[ $(json_field "$work/at-tick/summary.json" interrupted) == True ]] || fail "stop at a tick: not marked interrupted"
stopped=$(json_field "$work/at-tick/summary.json" end_time)
/usr/bin/python3 -c "import sys; t = float(sys.argv[1]) / 0.05; sys.exit(0 if 0 < t and abs(t - round(t)) < 1e-9 else 1)" \
  "$stopped" || fail "the stop at a tick came at t = $stopped, not at a tick"
echo "stopped in front of the tick at t = $stopped"
mpirun -np 2 --oversubscribe "$exe" run --restart "$work/at-tick" -q
/usr/bin/python3 "$here/../common/same_state.py" "$work/sheet-straight" "$work/at-tick"
