#!/usr/bin/env bash
# The output directory belongs to one run at a time (tethersim.lock):
# - while a run goes, a second run on its directory is refused with one line
#   and exit code 2, whether fresh, with --overwrite (which used to delete
#   the running run's trajectory) or with --restart, and the running run's
#   files are untouched;
# - the lock goes when the run ends (here by SIGTERM, with a checkpoint);
# - a stale lock (its process gone, on this host) is taken over; one from
#   another host is refused (its process cannot be checked from here).
#   output_lock.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"

gas=("$src/examples/gas.toml" --set initial.parameters.cells=6 -q)

"$exe" run "${gas[@]}" --end-time 1e6 --set output.checkpoint_interval=0.2 -o "$work/busy" &
pid=$!
deadline=$((SECONDS + 60))
until [ -e "$work/busy/tethersim.lock" ] && [ -e "$work/busy/checkpoint.h5" ]; do
  kill -0 "$pid" 2>/dev/null || fail "the first run ended early"
  [ $SECONDS -lt $deadline ] || fail "the first run never locked its directory"
  sleep 0.1
done
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

# A stale lock on this host: the process is gone.
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
echo "$dead $(hostname)" > "$work/busy/tethersim.lock"
end=$(/usr/bin/python3 -c "import sys; print(float(sys.argv[1]) + 0.01)" "$stop")
expect_exit 0 "$exe" run --restart "$work/busy" --end-time "$end" -q
[ ! -e "$work/busy/tethersim.lock" ] || fail "the stale lock was not taken over and released"

# A lock from another host cannot be judged stale.
echo "1 some-other-host.invalid" > "$work/busy/tethersim.lock"
expect_exit 2 "$exe" run "${gas[@]}" --end-time 1 -o "$work/busy" --overwrite
expect_one_line "$stderr_text" "process 1 on host some-other-host.invalid"
[ -e "$work/busy/trajectory.h5" ] || fail "a refused --overwrite deleted files"
echo "output_lock: ok"
