# Helpers of the MPI tests that stop runs from outside, sourced by them
# (they need `fail MESSAGE` defined).

# after_first_checkpoint DIR PID: waits until DIR holds a checkpoint while
# PID runs, then a moment more (inside some window or round).
after_first_checkpoint() {
  local dir=$1 pid=$2 deadline=$((SECONDS + 120))
  until [[ -e $dir/checkpoint.h5 ]]; do
    kill -0 "$pid" 2>/dev/null || fail "the run in $dir ended before its first checkpoint"
    ((SECONDS < deadline)) || fail "no checkpoint in $dir within 120 s"
    sleep 0.01
  done
  sleep "0.$((RANDOM % 5 + 1))"
  kill -0 "$pid" 2>/dev/null || fail "the run in $dir finished before it was stopped (make it longer)"
}

# kill_session PID: kill -9 of the session PID leads (started with setsid:
# mpirun and every rank at once, as a node failure or the batch system's
# last resort would; Open MPI puts each rank in a process group of its
# own, so the kill goes to the session), and waits until nothing of it is
# left (a rank left alive would go on rotating checkpoints under a
# restart).
kill_session() {
  local pid=$1
  pkill -KILL -s "$pid" 2>/dev/null || kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 30))
  while pgrep -s "$pid" >/dev/null; do
    ((SECONDS < deadline)) || fail "processes of the killed run still alive after 30 s"
    pkill -KILL -s "$pid" 2>/dev/null || true
    sleep 0.05
  done
}

# newest_checkpoint DIR: the checkpoint --restart takes (between the two
# renames of a checkpoint write only the previous one is there), and its
# time.
newest_checkpoint() {
  local newest=$1/checkpoint.h5
  [[ -e $newest ]] || newest=$1/checkpoint.prev.h5
  /usr/bin/python3 -c "import h5py,sys; print(h5py.File(sys.argv[1],'r')['checkpoint'].attrs['time'])" "$newest"
}
