#!/usr/bin/env bash
# The Slurm job scripts on a real Slurm cluster of two nodes started here on
# localhost (two slurmd with their own names and ports; Debian's slurm-wlm +
# munge, installed when missing):
#  - run.sbatch runs a small presynaptic model on 2 tasks through
#    srun --mpi=pmix, and its result equals a run without Slurm; so does a
#    job on 2 nodes, which does not inherit the single-machine Open MPI
#    settings of jobs/local/env.sh (sourced here, as a user would);
#  - a plain 'srun tethersim' job stops with a checkpoint and exit 0 on
#    'scancel --signal=TERM' (Slurm signals the tasks);
#  - a job killed with SIGKILL leaves its lock file behind (here naming
#    another host, as after a node failure); the next job, on the other
#    node, continues its checkpoint and ends equal to an uninterrupted run;
#  - chain.sh splits the same run into 3 jobs linked by afterok, and the
#    chained files equal the single job's, bit for bit;
#  - 'scancel --signal=USR1 --batch' makes a job stop with a loadable
#    checkpoint, and run.sbatch continues it (exactly) when resubmitted;
#  - the job's own time limit (--signal=B:USR1@120) ends it with a checkpoint
#    rather than a kill.
# Needs root (the daemons run as root, munged is started as user munge).
# Everything the cluster writes is under a temporary directory; the daemons
# this script started are stopped by their PIDs when it exits, whatever
# happens; munged is stopped only if this script started it.
#   slurm_cluster_test.sh TETHERSIM SOURCE_DIR WORK_DIR
set -euo pipefail

src="$(cd "${2:-$(dirname "$0")/../..}" && pwd)"
exe="${1:-$src/build/release/src/app/tethersim}"
work="${3:-$PWD/slurm-cluster-test}"
skip() { echo "SKIP: $*"; exit 77; }
step() { echo "== $(date +%T) $*"; }
# shellcheck source=../io/lib.sh
source "$src/tests/io/lib.sh"   # fail, json_field, same_state
source "$src/jobs/local/env.sh" # Open MPI as root; TETHERSIM_PYTHON
exe="$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")"
[ -x "$exe" ] || fail "no tethersim program at $exe"

[ "$(id -u)" -eq 0 ] || skip "needs root to run slurmctld, slurmd and munged"

# A test run inside a real allocation must not talk to that cluster.
while read -r name; do unset "$name"; done < <(env | sed -n 's/^\(\(SLURM\|SBATCH\|SALLOC\|SRUN\)_[A-Za-z0-9_]*\)=.*/\1/p')

# ---------------------------------------------------------------- packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
   ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are missing and there is no apt-get to install them"
  step "installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

rm -rf "$work"; mkdir -p "$work"
# Short paths: slurmd and slurmstepd put Unix sockets in the spool directory.
tmp=$(mktemp -d /tmp/tethersim-slurm.XXXXXX)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"

munged_pid=""; slurmctld_pid=""; slurmd_pids=""
cleanup() {
  local code=$?
  set +e
  trap - EXIT INT TERM HUP
  if [ -n "$slurmctld_pid" ]; then
    # Jobs first, so that no slurmstepd outlives the cluster.
    scancel --quiet --user=root >/dev/null 2>&1
    for _ in $(seq 1 40); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  for pid in $slurmd_pids $slurmctld_pid; do
    kill "$pid" 2>/dev/null
  done
  for pid in $slurmd_pids $slurmctld_pid; do
    wait "$pid" 2>/dev/null
  done
  if [ -n "$munged_pid" ]; then
    kill "$munged_pid" 2>/dev/null
    for _ in $(seq 1 20); do kill -0 "$munged_pid" 2>/dev/null || break; sleep 0.2; done
  fi
  # Keep what explains a failure next to the results.
  cp -r "$tmp/log" "$work/slurm-logs" 2>/dev/null
  cp "$tmp"/slurm*.conf "$tmp/jobcomp.log" "$work/slurm-logs/" 2>/dev/null
  rm -rf "$tmp"
  if [ "$code" -ne 0 ]; then echo "slurm cluster test failed; daemon logs in $work/slurm-logs" >&2; fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ------------------------------------------------------------------- munge
munge_works() { munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; }
if [ ! -f /etc/munge/munge.key ]; then
  step "creating /etc/munge/munge.key"
  install -d -o munge -g munge -m 700 /etc/munge
  (umask 277; dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none)
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi
if munge_works; then
  step "munged already running: using it"
else
  step "starting munged"
  # /run/munge comes from systemd-tmpfiles, which containers do not run.
  install -d -o munge -g munge -m 755 /run/munge
  runuser -u munge -- munged --pid-file=/run/munge/munged.pid
  munged_pid=$(cat /run/munge/munged.pid)
  for _ in $(seq 1 50); do munge_works && break; sleep 0.1; done
  munge_works || fail "munged started but does not answer"
fi

# ------------------------------------------------------------------- slurm
host=$(hostname -s)
# Two nodes on this machine: each slurmd has its node name, port, spool
# directory and (through TmpFS, where the PMIx plugin makes its per-step
# directory) temporary directory.
nodes=(tsnode1 tsnode2)
# Free ports, so that a cluster already on this machine is not disturbed.
read -r ctld_port port1 port2 < <("$TETHERSIM_PYTHON" -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
: >"$tmp/plugstack.conf"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=tethersimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
# Accounting (and so sacct) needs slurmdbd and a database; the job
# completion log is the text record that works without them.
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/jobcomp.log
# The node's CPU count is the configured one, whatever the machine has.
SlurmdParameters=config_overrides
ReturnToService=2
# Finished jobs stay visible to scontrol for the whole test.
MinJobAge=3600
KillWait=30
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
PlugStackConfig=$tmp/plugstack.conf
# The nodes' files differ in TmpFS only: no warnings about it.
DebugFlags=NO_CONF_HASH
NodeName=${nodes[0]} NodeHostname=$host NodeAddr=127.0.0.1 Port=$port1 CPUs=2 State=UNKNOWN
NodeName=${nodes[1]} NodeHostname=$host NodeAddr=127.0.0.1 Port=$port2 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=${nodes[0]},${nodes[1]} Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"

step "starting slurmctld and two slurmd (ports $ctld_port, $port1, $port2)"
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
slurmctld_pid=$!
for node in "${nodes[@]}"; do
  mkdir -p "$tmp/spool/$node" "$tmp/tmp-$node"
  { cat "$SLURM_CONF"; echo "TmpFS=$tmp/tmp-$node"; } >"$tmp/slurm-$node.conf"
  slurmd -D -f "$tmp/slurm-$node.conf" -N "$node" >"$tmp/log/slurmd-$node.out" 2>&1 &
  slurmd_pids+=" $!"
done
idle=""
for _ in $(seq 1 60); do
  idle=$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | paste -sd' ' || true)
  [ "$idle" = "${nodes[*]}" ] && break
  kill -0 "$slurmctld_pid" 2>/dev/null || fail "slurmctld exited: $(tail -n 5 "$tmp/log/slurmctld.log" "$tmp/log/slurmctld.out" 2>/dev/null)"
  for pid in $slurmd_pids; do
    kill -0 "$pid" 2>/dev/null || fail "a slurmd exited: $(tail -n 5 "$tmp"/log/slurmd-* 2>/dev/null)"
  done
  sleep 1
done
[ "$idle" = "${nodes[*]}" ] || fail "idle nodes after 60 s: '$idle', not '${nodes[*]}'"
srun --mpi=list 2>&1 | grep -q pmix || fail "this Slurm has no pmix plugin: $(srun --mpi=list 2>&1 | tr '\n' ' ')"

# ------------------------------------------------------------------- jobs
# job_field ID KEY: one field of 'scontrol show job'.
job_field() { scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# wait_job ID TIMEOUT_S: waits until the job has ended, fails after TIMEOUT_S.
wait_job() {
  local id=$1 limit=$2 waited=0 s
  while :; do
    s=$(job_field "$id" JobState)
    case "$s" in
      PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|RESIZING|SIGNALING|STAGE_OUT) ;;
      "") fail "job $id is unknown to slurmctld" ;;
      *) return 0 ;;
    esac
    [ "$waited" -lt "$limit" ] || { scancel "$id"; fail "job $id still $s after $limit s"; }
    sleep 1; waited=$((waited + 1))
  done
}
# expect_completed ID: ended in state COMPLETED with exit code 0:0.
expect_completed() {
  local s e
  s=$(job_field "$1" JobState); e=$(job_field "$1" ExitCode)
  if [ "$s" != COMPLETED ] || [ "$e" != 0:0 ]; then
    fail "job $1 ended $s with exit code $e: $(tail -n 5 "$(job_field "$1" StdOut)" 2>/dev/null)"
  fi
}
submit() { sbatch --parsable "$@" | cut -d';' -f1; }
# wait_for_run ID DIR: waits until job ID runs and its run has begun DIR.
wait_for_run() {
  for _ in $(seq 1 120); do
    [ "$(job_field "$1" JobState)" = RUNNING ] && [ -f "$2/trajectory.h5" ] && break
    sleep 1
  done
  [ -f "$2/trajectory.h5" ] || fail "job $1 did not start its run within 120 s"
  sleep 1
}

model="$src/examples/presynaptic.toml"
small=(--set initial.parameters.vesicles=30 --set initial.parameters.synapsin_dimers=90
       --set initial.parameters.docking_sites=10 --set output.frame_interval=5.0
       --set "action_potential.windows=[{ start = 40.0, end = 55.0 }]")
export TETHERSIM="$exe"
cd "$work"

step "reference run without Slurm (1 process)"
"$exe" run "$model" "${small[@]}" --end-time 200 -o "$work/serial" -q

step "run.sbatch: the small presynaptic model on 2 tasks"
single=$(TETHERSIM_OUTPUT="$work/single" submit --ntasks=2 --output="$work/single.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 200)
wait_job "$single" 180
expect_completed "$single"
[ "$(json_field "$work/single/summary.json" ranks)" = 2 ] ||
  fail "the job ran on $(json_field "$work/single/summary.json" ranks) rank(s), not 2: srun --mpi=pmix did not join the tasks"
grep -q "fresh run" "$work/single.out" || fail "run.sbatch did not report a fresh run"
same_state "$work/serial" "$work/single"

step "run.sbatch on 2 nodes, without jobs/local/env.sh's loopback settings"
[ "${OMPI_MCA_btl_tcp_if_include:-}" = lo ] || fail "the test expects jobs/local/env.sh's settings in its environment"
two=$(TETHERSIM_OUTPUT="$work/two-nodes" submit --nodes=2 --ntasks-per-node=1 --output="$work/two-nodes.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 200)
wait_job "$two" 180
expect_completed "$two"
[ "$(job_field "$two" NumNodes)" = 2 ] || fail "job $two ran on $(job_field "$two" NumNodes) node(s), not 2"
grep -q "not passing on the single-machine Open MPI settings of jobs/local/env.sh: .*OMPI_MCA_btl_tcp_if_include" \
  "$work/two-nodes.out" || fail "run.sbatch passed env.sh's loopback settings into the job: $(head -3 "$work/two-nodes.out")"
[ "$(json_field "$work/two-nodes/summary.json" ranks)" = 2 ] || fail "the 2-node job did not run on 2 ranks"
same_state "$work/serial" "$work/two-nodes"

step "srun: 'scancel --signal=TERM' makes the tasks write a checkpoint and exit 0"
# A job script of the plainest kind, as a user writes one: srun, nothing else.
cat >"$work/plain.sbatch" <<EOF
#!/usr/bin/env bash
srun --mpi=pmix $(printf '%q ' "$exe" run "$model" "${small[@]}") --end-time 100000 -o "$work/termed"
EOF
termed=$(submit --nodes=2 --ntasks=2 --output="$work/termed.out" "$work/plain.sbatch")
wait_for_run "$termed" "$work/termed"
scancel --signal=TERM "$termed"
wait_job "$termed" 120
expect_completed "$termed"
# Both tasks get the signal; rank 0 says which it saw first (its own, or
# another rank's stop request).
grep -Eq "stopped by (SIGTERM|a signal to another rank)" "$work/termed.out" || fail "tethersim did not see the SIGTERM: $(tail -3 "$work/termed.out")"
[ "$(json_field "$work/termed/summary.json" interrupted)" = True ] || fail "the SIGTERM'd run is not marked interrupted"
"$exe" info "$work/termed/checkpoint.h5" >/dev/null || fail "the checkpoint of the SIGTERM'd run does not verify"

step "chain.sh: the same run as 3 jobs linked by afterok"
TETHERSIM_OUTPUT="$work/chain" "$src/jobs/slurm/chain.sh" -n 2 "$model" 3 "${small[@]}" --end-time 200 \
  >"$work/chain-submit.out"
cat "$work/chain-submit.out"
mapfile -t chain < <(grep -v '^#' "$work/chain/chain.txt" | cut -d' ' -f1)
[ "${#chain[@]}" -eq 3 ] || fail "chain.sh submitted ${#chain[@]} jobs, not 3"
# While job 1 runs, the others wait for it (unless it was already done).
for k in 1 2; do
  line=$(scontrol -o show job "${chain[$k]}" | tr ' ' '\n' | grep -E '^(JobId|JobState|Reason|Dependency)=' | paste -sd' ')
  echo "  $line"
  case "$line" in
    *"JobState=PENDING"*) [[ "$line" == *"Dependency=afterok:${chain[$((k - 1))]}"* ]] ||
                            fail "job ${chain[$k]} does not wait for job ${chain[$((k - 1))]}: $line" ;;
  esac
done
for id in "${chain[@]}"; do wait_job "$id" 240; done
for id in "${chain[@]}"; do
  expect_completed "$id"
  scontrol -o show job "$id" | tr ' ' '\n' |
    grep -E '^(JobId|JobName|JobState|ExitCode|Dependency|SubmitTime|StartTime|EndTime|NumTasks)=' | paste -sd' '
done
# Each job ran its own part: fresh to 66.67, then two restarts.
grep -q "fresh run" "$work/chain/slurm-${chain[0]}.out" || fail "the first chain job did not start fresh"
for id in "${chain[1]}" "${chain[2]}"; do
  grep -q "restart run" "$work/chain/slurm-$id.out" || fail "chain job $id did not continue the checkpoint"
done
grep -q "t = 0 -> 66.66" "$work/chain/slurm-${chain[0]}.out" || fail "the first chain job did not stop at 200/3"
grep -q -- "-> 200 on 2 ranks" "$work/chain/slurm-${chain[2]}.out" || fail "the last chain job did not reach t = 200"
[ "$(json_field "$work/chain/summary.json" restarted)" = True ] || fail "the chain's summary is not a restart"
same_state "$work/single" "$work/chain"
if [ -f "$tmp/jobcomp.log" ]; then
  for id in "${chain[@]}"; do
    grep "JobId=$id " "$tmp/jobcomp.log" | grep -q "JobState=COMPLETED" ||
      fail "the job completion log has no COMPLETED record of job $id"
  done
fi

step "a job that stops early still lets the next one (afterok) continue it exactly"
# --max-walltime stops the first job after about 1 s of running; the model
# runs to t = 200 in about 1 s here, so t = 2000 is out of reach for it
# however fast the machine. The second job, queued behind it, continues to
# t = 2000, which must equal one uninterrupted run.
first=$(TETHERSIM_OUTPUT="$work/cut" submit --ntasks=2 --output="$work/cut-1.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 2000 --max-walltime 0.0003)
second=$(TETHERSIM_OUTPUT="$work/cut" submit --ntasks=2 --output="$work/cut-2.out" --dependency="afterok:$first" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 2000)
"$exe" run "$model" "${small[@]}" --end-time 2000 -o "$work/serial-2000" -q
wait_job "$first" 180
wait_job "$second" 300
expect_completed "$first"
expect_completed "$second"
grep -q "stopped early" "$work/cut-1.out" || fail "the first job did not stop at its --max-walltime"
grep -q "restart run" "$work/cut-2.out" || fail "the second job did not continue the first one's checkpoint"
same_state "$work/serial-2000" "$work/cut"

step "a job killed with SIGKILL: the next one, on the other node, continues it exactly"
# The first job runs on one node with a checkpoint every 25 time units and
# is killed (SIGKILL, no chance to clean up, as after an out-of-memory kill
# or a node failure) once it has one. The next job waits for it (afterany,
# held until the lock file is made to name another host, as a node that
# failed would leave it) and runs on the other node.
periodic=(--set output.checkpoint_interval=25)
victim=$(TETHERSIM_OUTPUT="$work/killed" submit --ntasks=2 --nodelist="${nodes[0]}" --output="$work/killed-1.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" "${periodic[@]}" --end-time 600)
successor=$(TETHERSIM_OUTPUT="$work/killed" submit --ntasks=2 --nodelist="${nodes[1]}" --output="$work/killed-2.out" \
  --dependency="afterany:$victim" --hold "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" "${periodic[@]}" --end-time 600)
for _ in $(seq 1 600); do
  [ -f "$work/killed/checkpoint.h5" ] && break
  [ "$(job_field "$victim" JobState)" = COMPLETED ] && break
  sleep 0.2
done
# 'scancel --signal=KILL' would cancel the job, which sends SIGTERM first:
# the ranks themselves get SIGKILL, found by their command line (which
# names this test's own output directory).
ranks=()
for _ in $(seq 1 100); do
  mapfile -t ranks < <(pgrep -f -- "^$exe run .*--output $work/killed " || true)
  [ "${#ranks[@]}" -ge 2 ] && break
  sleep 0.1
done
[ "${#ranks[@]}" -eq 2 ] || fail "found ${#ranks[@]} ranks of job $victim, not 2"
kill -KILL "${ranks[@]}"
"$exe" run "$model" "${small[@]}" --end-time 600 -o "$work/serial-600" -q
wait_job "$victim" 120
[ "$(job_field "$victim" JobState)" != COMPLETED ] || fail "job $victim completed before it could be killed"
[ -f "$work/killed/checkpoint.h5" ] || fail "job $victim wrote no checkpoint before it was killed"
[ -f "$work/killed/tethersim.lock" ] || fail "the killed job left no lock file"
read -r dead_pid _ <"$work/killed/tethersim.lock"
echo "$dead_pid node-a-17.invalid" >"$work/killed/tethersim.lock"
scontrol release "$successor"
wait_job "$successor" 300
expect_completed "$successor"
[ "$(job_field "$successor" NodeList)" = "${nodes[1]}" ] || fail "job $successor ran on $(job_field "$successor" NodeList)"
grep -q "restart run" "$work/killed-2.out" || fail "the next job did not continue the killed job's checkpoint: $(tail -3 "$work/killed-2.out")"
[ ! -e "$work/killed/tethersim.lock" ] || fail "the next job left the lock file behind"
same_state "$work/serial-600" "$work/killed"

step "scancel --signal=USR1 --batch: a checkpoint, then run.sbatch continues it"
long=$(TETHERSIM_OUTPUT="$work/signalled" submit --ntasks=2 --output="$work/signalled.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 100000)
wait_for_run "$long" "$work/signalled"
scancel --signal=USR1 --batch "$long"
wait_job "$long" 120
expect_completed "$long"
grep -q "USR1 received" "$work/signalled.out" || fail "run.sbatch did not see the USR1"
[ "$(json_field "$work/signalled/summary.json" interrupted)" = True ] || fail "the signalled run is not marked interrupted"
"$exe" info "$work/signalled/checkpoint.h5" >/dev/null || fail "the checkpoint of the signalled run does not verify"
stopped=$(json_field "$work/signalled/summary.json" end_time)
# Continued a little further, it must equal one uninterrupted run to there
# (made without Slurm: the rank count does not change the bits, see above).
target=$(awk -v t="$stopped" 'BEGIN { printf "%.17g", t + 30 }')
"$exe" run "$model" "${small[@]}" --end-time "$target" -o "$work/serial-$target" -q
resumed=$(TETHERSIM_OUTPUT="$work/signalled" submit --ntasks=2 --output="$work/resumed.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time "$target")
wait_job "$resumed" 180
expect_completed "$resumed"
grep -q "restart run" "$work/resumed.out" || fail "run.sbatch did not continue the checkpoint"
[ "$(json_field "$work/signalled/summary.json" interrupted)" = False ] || fail "the continued run was interrupted"
[ "$(json_field "$work/signalled/summary.json" start_time)" = "$stopped" ] ||
  fail "the continued run started at $(json_field "$work/signalled/summary.json" start_time), not at the checkpoint ($stopped)"
same_state "$work/serial-$target" "$work/signalled"
# Resubmitting a finished segment does nothing and succeeds.
again=$(TETHERSIM_OUTPUT="$work/signalled" submit --ntasks=2 --output="$work/again.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time "$target")
wait_job "$again" 120
expect_completed "$again"
grep -q "nothing to do" "$work/again.out" || fail "a finished segment ran again"

step "the time limit: --signal=B:USR1@120 stops a 3-minute job with a checkpoint"
limited=$(TETHERSIM_OUTPUT="$work/limited" submit --ntasks=2 --time=00:03:00 --output="$work/limited.out" \
  "$src/jobs/slurm/run.sbatch" "$model" "${small[@]}" --end-time 100000)
wait_job "$limited" 240
expect_completed "$limited"
grep -q "USR1 received" "$work/limited.out" || fail "the time-limit signal did not reach run.sbatch"
[ "$(json_field "$work/limited/summary.json" interrupted)" = True ] || fail "the time-limited run is not marked interrupted"
"$exe" info "$work/limited/checkpoint.h5" >/dev/null || fail "the checkpoint of the time-limited run does not verify"

echo "job completion log:"
cat "$tmp/jobcomp.log"
echo "slurm cluster: ok"
