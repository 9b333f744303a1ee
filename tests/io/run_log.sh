#!/usr/bin/env bash
# DIR/run.log, the progress lines (one token per column header, no repeated
# last line, also under mpirun) and continuing a finished run (exit 0).
#   run_log.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"
# Progress at every stop: the end's line comes both from the loop and from
# the end of the run, which must print it once.
small=(--set initial.parameters.cells=3 --set output.frame_interval=0.5 --set output.progress_seconds=1e-9)
"$exe" run "$src/examples/gas.toml" "${small[@]}" -o run --end-time 2 > stdout.txt
[ -f run/run.log ] || fail "no run.log"
head -n 1 run/run.log | grep -qE '^# tethersim [^ ]+, started .* UTC on 1 MPI rank$' || fail "log header: $(head -n 1 run/run.log)"
# The log holds what stdout showed.
tail -n +2 run/run.log | cmp -s - stdout.txt || fail "run.log differs from stdout"
/usr/bin/python3 - run/run.log <<'PY' || fail "progress lines"
import sys
lines = open(sys.argv[1]).read().splitlines()
header = next(k for k, line in enumerate(lines) if line.split()[:2] == ["time", "done"])
names = lines[header].split()
assert names == ["time", "done", "events", "events_per_s", "kinetic_energy", "particles", "ETA"], names
rows = []
for line in lines[header + 1:]:
    cells = line.split()
    if len(cells) != len(names):
        break
    rows.append(cells)
times = [float(r[0]) for r in rows]
assert times and times[-1] == 2.0, times
assert len(times) == len(set(times)), f"a progress line repeats: {times}"
PY
# summary.json counts the frames this run wrote and what they added.
/usr/bin/python3 - run/summary.json <<'PY' || fail "frame_writes in summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
w = s["frame_writes"]
assert s["frames"] == 5 and w["written"] == 5, (s["frames"], w)
assert w["bytes"] > 5 * 108 * 56 and w["seconds"] > 0 and w["megabytes_per_second"] > 0, w
PY
# Under mpirun too (the second line came with 0 events/s).
if command -v mpirun > /dev/null; then
  mpirun -np 2 "$exe" run "$src/examples/gas.toml" "${small[@]}" -o mpi --end-time 2 > mpi.txt
  /usr/bin/python3 - mpi/run.log <<'PY' || fail "progress lines under mpirun"
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].endswith("on 2 MPI ranks"), lines[0]
header = next(k for k, line in enumerate(lines) if line.split()[:2] == ["time", "done"])
times = []
for line in lines[header + 1:]:
    cells = line.split()
    if len(cells) != 7:
        break
    times.append(float(cells[0]))
assert times[-1] == 2.0 and len(times) == len(set(times)), times
PY
fi
# tethersim info --json: one object per file, for scripts.
"$exe" info --json run/checkpoint.h5 run/trajectory.h5 > info.json
/usr/bin/python3 - info.json <<'PY' || fail "info --json"
import json, sys
checkpoint, trajectory = [json.loads(line) for line in open(sys.argv[1])]
assert checkpoint["kind"] == "checkpoint" and checkpoint["time"] == 2.0 and checkpoint["particles"] == 108, checkpoint
assert trajectory["kind"] == "trajectory" and trajectory["frames"] == 5 and trajectory["last_time"] == 2.0, trajectory
assert trajectory["layout"] == 2
PY
# Continuing a finished run: nothing to do, exit 0 (an afterok chain goes on).
"$exe" run --restart run > again.txt || fail "continuing a finished run failed"
grep -q "nothing to do" again.txt || fail "no 'nothing to do': $(cat again.txt)"
# A continuation appends its part to the log.
"$exe" run --restart run --end-time 3 -q > quiet.txt
[ "$(grep -c '^# tethersim' run/run.log)" -eq 2 ] || fail "the continuation did not append to run.log"
# --quiet keeps the terminal quiet and the log complete.
[ ! -s quiet.txt ] || fail "--quiet printed: $(cat quiet.txt)"
grep -q '^continuing model' run/run.log && grep -q '^run summary: .*t = 2 -> 3' run/run.log ||
  fail "--quiet left run.log without the continuation's output: $(tail -n 5 run/run.log)"
grep -q '^# tethersim .*, continued ' run/run.log || fail "no 'continued' header"
# The continuation wrote two frames (2.5 and 3); the file holds seven.
[ "$(json_field run/summary.json frames)" = "7" ] || fail "frames after the continuation"
/usr/bin/python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["frame_writes"]; assert w["written"] == 2, w' \
  run/summary.json || fail "frame_writes of the continuation"
# --continue: one command line starts, continues and ends a run.
cont=("$exe" run "$src/examples/gas.toml" --set initial.parameters.cells=3 -o cont --continue -q)
"${cont[@]}" --end-time 1 || fail "--continue starting a run"
"${cont[@]}" --end-time 2 || fail "--continue continuing a run"
[ "$(json_field cont/summary.json restarted)" = "True" ] && [ "$(json_field cont/summary.json end_time)" = "2" ] ||
  fail "--continue did not continue the run"
"${cont[@]}" --end-time 2 || fail "--continue of a finished run"
echo "run log: ok"
