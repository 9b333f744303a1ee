#!/usr/bin/env bash
# The output directory belongs to one run at a time (tethersim.lock):
# - while a run goes, a second run on its directory is refused with one line
#   and exit code 2, whether fresh, with --overwrite (which used to delete
#   the running run's trajectory) or with --restart, and the running run's
#   files are untouched;
# - the lock goes when the run ends (here by SIGTERM, with a checkpoint);
# - it is a kernel lock: a lock file left by a run killed with SIGKILL is
#   taken over by the next --continue, whatever process and host it names
#   (a dead one here, another host, or a live process that holds no lock),
#   and a live kernel lock held by another program is refused.
#   output_lock.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"

# No frames: the long runs below are stopped by the test, and frames to their
# end time would need more disk than a test machine may have free.
gas=("$src/examples/gas.toml" --set initial.parameters.cells=6 --set output.frame_interval=inf -q)

# start_long_run DIR: a run into DIR in the background ($pid), once it has
# locked DIR and written a checkpoint.
start_long_run() {
  "$exe" run "${gas[@]}" --end-time 1e6 --set output.checkpoint_interval=0.2 -o "$1" &
  pid=$!
  local deadline=$((SECONDS + 60))
  until [ -e "$1/tethersim.lock" ] && [ -e "$1/checkpoint.h5" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the run into $1 ended early"
    [ $SECONDS -lt $deadline ] || fail "the run into $1 did not lock its directory and write a checkpoint"
    sleep 0.1
  done
}

start_long_run "$work/busy"
read -r holder host < "$work/busy/tethersim.lock"
[ "$holder" = "$pid" ] || fail "the lock names process $holder, not $pid"
[ "$host" = "$(hostname)" ] || fail "the lock names host $host, not $(hostname)"

expect_exit 2 "$exe" run "${gas[@]}" --end-time 1 -o "$work/busy"
expect_one_line "$stderr_text" "in use by another run \\(process $pid on host"
expect_exit 2 "$exe" run "${gas[@]}" --end-time 1 -o "$work/busy" --overwrite
expect_one_line "$stderr_text" "in use by another run"
[ -e "$work/busy/trajectory.h5" ] || fail "--overwrite deleted the running run's trajectory"
expect_exit 2 "$exe" run --restart "$work/busy" --end-time 2e6 -q
expect_one_line "$stderr_text" "in use by another run"

kill -TERM "$pid"
code=0; wait "$pid" || code=$?
[ "$code" -eq 0 ] || fail "the first run exited $code after SIGTERM"
[ ! -e "$work/busy/tethersim.lock" ] || fail "the lock outlived its run"
stop=$(verified_checkpoint_time "$work/busy/checkpoint.h5")

# A run killed with SIGKILL leaves its lock file: the next --continue takes
# it over and continues the checkpoint.
start_long_run "$work/killed"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
[ -e "$work/killed/tethersim.lock" ] || fail "SIGKILL removed the lock file (the test needs it left behind)"
killed_at=$(verified_checkpoint_time "$work/killed/checkpoint.h5")
end=$(/usr/bin/python3 -c "import sys; print(float(sys.argv[1]) + 0.01)" "$killed_at")
expect_exit 0 "$exe" run "${gas[@]}" --end-time "$end" -o "$work/killed" --continue
[ ! -e "$work/killed/tethersim.lock" ] || fail "the lock left by the killed run was not taken over and released"

# Lock files naming a dead process on this host, a process on another host
# (a node that failed), and a live process holding no lock: all left-overs.
dead=$(/usr/bin/python3 -c 'import os
pid = 4000000
while True:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        print(pid); break
    except PermissionError:
        pass
    pid += 1')
for holder in "$dead $(hostname)" "99999 node-a-17.invalid" "$$ $(hostname)"; do
  echo "$holder" > "$work/busy/tethersim.lock"
  end=$(/usr/bin/python3 -c "import sys; print(float(sys.argv[1]) + 0.01)" "$stop")
  expect_exit 0 "$exe" run "${gas[@]}" --end-time "$end" -o "$work/busy" --continue
  [ ! -e "$work/busy/tethersim.lock" ] || fail "the lock file '$holder' was not taken over and released"
  stop=$end
done

# Another program holding a kernel lock on the file (a classic fcntl lock:
# it conflicts with tethersim's, which a plain file does not): refused with
# the process and host the file names, for a fresh run, --overwrite,
# --continue and a restart, and nothing is touched.
fifo="$work/holder.fifo"; mkfifo "$fifo"
/usr/bin/python3 -c '
import fcntl, sys
f = open(sys.argv[1], "w")
fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
f.write("12345 node-b-03.invalid\n"); f.flush()
print("locked", flush=True)
sys.stdin.read()' "$work/busy/tethersim.lock" <"$fifo" >"$work/holder.out" &
holder_pid=$!
exec 3>"$fifo"
deadline=$((SECONDS + 30))
until grep -q locked "$work/holder.out" 2>/dev/null; do
  kill -0 "$holder_pid" 2>/dev/null || fail "the lock holder did not start"
  [ $SECONDS -lt $deadline ] || fail "the lock holder did not lock"
  sleep 0.1
done
expect_exit 2 "$exe" run "${gas[@]}" --end-time 1 -o "$work/busy" --overwrite
expect_one_line "$stderr_text" "is in use by another run \\(process 12345 on host node-b-03.invalid, tethersim.lock\\)"
expect_exit 2 "$exe" run "${gas[@]}" --end-time 1e6 -o "$work/busy" --continue
expect_one_line "$stderr_text" "process 12345 on host node-b-03.invalid"
expect_exit 2 "$exe" run --restart "$work/busy" --end-time 1e6 -q
expect_one_line "$stderr_text" "process 12345 on host node-b-03.invalid"
[ -e "$work/busy/trajectory.h5" ] || fail "a refused --overwrite deleted files"
[ "$(cat "$work/busy/tethersim.lock")" = "12345 node-b-03.invalid" ] || fail "a refused run rewrote the lock file"
exec 3>&-
wait "$holder_pid"
# Its holder gone, the same file is a left-over.
expect_exit 0 "$exe" run "${gas[@]}" --end-time "$(/usr/bin/python3 -c "import sys; print(float(sys.argv[1]) + 0.01)" "$stop")" \
  -o "$work/busy" --continue
echo "output_lock: ok"
