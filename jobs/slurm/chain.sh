#!/usr/bin/env bash
# Submits one long run as N Slurm jobs, each continuing the previous one's
# checkpoint in one output directory:
#
#   jobs/slurm/chain.sh [chain options] MODEL.toml N [tethersim run options]
#   jobs/slurm/chain.sh -n 8 -t 12:00:00 examples/presynaptic.toml 4 --end-time 3600
#   jobs/slurm/chain.sh -N 4 -n 512 -p compute -A myproject -t 24:00:00 \
#     -m "gcc openmpi hdf5/parallel" big.toml 10
#
# Chain options (each becomes the sbatch option of every job):
#   -n, --ntasks N       MPI ranks (default: run.sbatch's, 2)
#   -N, --nodes N        nodes (default: as many as Slurm needs for the tasks)
#   -p, --partition P    partition
#   -A, --account A      account charged
#   -t, --time T         time limit of each job (default: run.sbatch's, 1 hour)
#   -m, --modules LIST   environment modules each job loads (TETHERSIM_MODULES)
#
# Job k runs to k/N of the end time (--end-time, else the model's
# run.end_time) and starts only when job k-1 succeeded (afterok). A restart
# is exact, so the last job's files equal one uninterrupted run's, bit for
# bit. A job that reaches its wall limit first stops with a checkpoint (see
# run.sbatch) and the next job simply continues from there; if the last one
# stops early, submit run.sbatch once more with the same output directory.
#
# Environment: TETHERSIM_OUTPUT the output directory (default
# chain-MODEL-DATE in the current directory; it must not hold a run yet),
# SBATCH_OPTIONS further sbatch options for every job, TETHERSIM the program.
# Without --end-time, the model's run.end_time is read with python3 (3.11 or
# newer, or an older one with the tomli package).
set -euo pipefail

die() { echo "chain.sh: error: $*" >&2; exit 2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

usage="usage: $0 [-n TASKS] [-N NODES] [-p PARTITION] [-A ACCOUNT] [-t TIME] [-m MODULES] MODEL.toml N [tethersim run options]"
chain_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) echo "$usage"; exit 0 ;;
    -n|--ntasks|-N|--nodes|-p|--partition|-A|--account|-t|--time|-m|--modules)
      [ $# -ge 2 ] || die "$1 needs a value"
      case "$1" in
        -n|--ntasks) chain_options+=(--ntasks="$2") ;;
        -N|--nodes) chain_options+=(--nodes="$2") ;;
        -p|--partition) chain_options+=(--partition="$2") ;;
        -A|--account) chain_options+=(--account="$2") ;;
        -t|--time) chain_options+=(--time="$2") ;;
        *) export TETHERSIM_MODULES="$2" ;;
      esac
      shift 2 ;;
    -*) die "unknown option '$1' ($usage)" ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || die "$usage"
model=$1; jobs=$2; shift 2
[ -f "$model" ] || die "no model file '$model'"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, got '$jobs'"
model="$(cd "$(dirname "$model")" && pwd)/$(basename "$model")"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"

exe="${TETHERSIM:-}"
if [ -z "$exe" ]; then
  if command -v tethersim >/dev/null 2>&1; then exe=tethersim; else exe="$repo/build/release/src/app/tethersim"; fi
fi
command -v "$exe" >/dev/null 2>&1 || die "no tethersim program at '$exe'; build it (jobs/local/build.sh) or set TETHERSIM"
exe="$(command -v "$exe")"

# The end time comes out of the options (each job gets its own) and the
# output directory is given to the jobs by the environment.
args=(); sets=(); end_time=""; set_end_time=""
while [ $# -gt 0 ]; do
  case "$1" in
    --end-time) [ $# -ge 2 ] || die "--end-time needs a value"; end_time=$2; shift 2 ;;
    --end-time=*) end_time=${1#--end-time=}; shift ;;
    -o|--output|--output=*) die "give the output directory as TETHERSIM_OUTPUT=DIR, not $1" ;;
    --restart|--restart=*) die "a chain starts from a model; to continue a directory, submit run.sbatch with TETHERSIM_OUTPUT=DIR" ;;
    --set)
      [ $# -ge 2 ] || die "--set needs KEY=VALUE"
      sets+=(--set "$2"); args+=(--set "$2")
      case "$2" in run.end_time=*) set_end_time=${2#run.end_time=} ;; esac
      shift 2 ;;
    --set=*)
      sets+=("$1"); args+=("$1")
      case "${1#--set=}" in run.end_time=*) set_end_time=${1#--set=run.end_time=} ;; esac
      shift ;;
    *) args+=("$1"); shift ;;
  esac
done

# The model must be valid before N jobs wait in the queue for it.
"$exe" validate "$model" "${sets[@]+"${sets[@]}"}" -q || die "the model does not validate (above)"

if [ -z "$end_time" ]; then end_time=$set_end_time; fi
if [ -z "$end_time" ]; then
  # 'tethersim validate' prints the end time rounded; read the exact value.
  python="${TETHERSIM_PYTHON:-python3}"
  command -v "$python" >/dev/null 2>&1 || die "reading run.end_time from $model needs python3; give --end-time T instead"
  "$python" -c 'import tomllib' 2>/dev/null || "$python" -c 'import tomli' 2>/dev/null ||
    die "reading run.end_time from $model needs Python 3.11 or newer (tomllib) or the tomli package, and $python is $("$python" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo unknown); give --end-time T instead"
  end_time=$("$python" - "$model" <<'EOF' 2>/dev/null || true
import sys
try:
    import tomllib
except ImportError:
    import tomli as tomllib
with open(sys.argv[1], "rb") as f:
    print(repr(float(tomllib.load(f)["run"]["end_time"])))
EOF
)
  [ -n "$end_time" ] || die "cannot read run.end_time from $model; give --end-time T"
fi
awk -v t="$end_time" 'BEGIN { exit !(t + 0 > 0) }' || die "the end time must be positive, got '$end_time'"

# End times of the segments: k/N of the whole, printed so that they read back
# as the same doubles; the last is the given text itself, so that the chain
# ends exactly where one run would.
mapfile -t ends < <(awk -v t="$end_time" -v n="$jobs" 'BEGIN {
  prev = 0
  for (k = 1; k < n; ++k) {
    e = t * k / n
    if (e <= prev) { print "error"; exit }
    printf "%.17g\n", e; prev = e
  } }')
for e in "${ends[@]+"${ends[@]}"}"; do
  [ "$e" != error ] || die "the end time $end_time is too small to split into $jobs parts"
done
ends+=("$end_time")

stem=$(basename "$model" .toml)
out="${TETHERSIM_OUTPUT:-$PWD/chain-$stem-$(date +%Y%m%d-%H%M%S)}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
for f in checkpoint.h5 checkpoint.prev.h5 trajectory.h5 summary.json; do
  [ ! -e "$out/$f" ] || die "$out already holds a run ($f); choose another TETHERSIM_OUTPUT, or continue it with run.sbatch"
done
mkdir -p "$out"

# Word splitting of SBATCH_OPTIONS is wanted: it holds several options.
read -r -a sbatch_options <<<"${SBATCH_OPTIONS:-}"
export TETHERSIM_OUTPUT="$out" TETHERSIM="$exe" TETHERSIM_ROOT="$repo"

ids=(); previous=""
{
  echo "# chain of $jobs jobs: $model ${args[*]+"${args[*]}"}"
  echo "# job_id end_time"
} >"$out/chain.txt"
for k in $(seq 1 "$jobs"); do
  dependency=()
  [ -z "$previous" ] || dependency=(--dependency="afterok:$previous")
  submitted=$(sbatch --parsable --job-name="tethersim-$stem-${k}of$jobs" --output="$out/slurm-%j.out" \
    "${dependency[@]+"${dependency[@]}"}" "${chain_options[@]+"${chain_options[@]}"}" \
    "${sbatch_options[@]+"${sbatch_options[@]}"}" \
    "$here/run.sbatch" "$model" "${args[@]+"${args[@]}"}" --end-time "${ends[$((k - 1))]}") ||
    die "sbatch refused job $k (above); jobs already submitted: ${ids[*]:-none}"
  previous=${submitted%%;*}
  ids+=("$previous")
  echo "$previous ${ends[$((k - 1))]}" >>"$out/chain.txt"
  echo "chain.sh: job $k/$jobs: $previous, to t = ${ends[$((k - 1))]}${dependency:+ (after ${ids[$((k - 2))]})}"
done
joined=$(IFS=,; echo "${ids[*]}")
echo "chain.sh: $jobs jobs into $out"
echo "  follow:  squeue -j $joined"
echo "  states:  scontrol show job $previous"
echo "  cancel:  scancel $joined"
echo "  result:  $out/summary.json (state_hash compares runs)"
