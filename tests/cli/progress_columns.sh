#!/usr/bin/env bash
# The progress lines are a table: a header of one token per column (the
# observables among them named as in the trajectory, each item of
# output.cluster_species and output.tethered_pairs its own column), and
# every line below it with as many tokens, the observables' values among
# them equal to the final sample in observables.jsonl.
#   progress_columns.sh TETHERSIM MODEL OUTPUT_DIR
set -euo pipefail
exe=$1
model=$2
output=$3
rm -rf "$output"
"$exe" run "$model" -o "$output" --end-time 2 --set output.progress_seconds=0.001 --set output.observables_interval=1 >"$output.stdout"
python3 - "$output.stdout" "$output/observables.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
at = next(k for k, line in enumerate(lines) if line.split()[:2] == ["time", "done"])
header = lines[at].split()
rows = []
for line in lines[at + 1:]:
    if not line.strip():
        break
    rows.append(line.split())
problems = []
if not rows:
    problems.append("no progress line under the header")
for row in rows:
    if len(row) != len(header):
        problems.append(f"{len(row)} tokens under a header of {len(header)}: {row}")
want = ["kinetic_energy", "particles", "clusters_V", "tethered_V_D"]
if header[4:-1] != want:
    problems.append(f"observable columns {header[4:-1]}, expected {want}")
final = json.loads(open(sys.argv[2]).read().splitlines()[-1])
last = dict(zip(header, rows[-1])) if rows else {}
for name in want:
    if name in last and float(last[name]) != float(f"{float(final[name]):.8g}"):
        problems.append(f"{name}: the last line shows {last[name]}, the final sample {final[name]}")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
PY
