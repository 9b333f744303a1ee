# Sourced by jobs/local/*-scaling.sh and jobs/slurm/*-scaling.sh: their
# options, the model size of each point and the sweep record that
# tools/scaling_report.py reads.
#
# scaling_parse KIND LAUNCHER DEFAULT_RANKS DEFAULT_SIZE DEFAULT_END "$@"
# sets scaling_kind (strong|weak), ranks (array), out, model, run_args
# (array), weak_key, weak_base, weak_growth, and creates the sweep directory.
# DEFAULT_SIZE and DEFAULT_END describe the gas run when no model is given:
# the cells of the strong-scaling box (or of the weak-scaling box on one
# rank) and the end time.

scaling_die() { echo "${scaling_name:-scaling}: error: $*" >&2; exit 2; }

scaling_usage() {
  cat <<USAGE
Usage: $scaling_name [-r "1 2 4 8"] [-o DIR] ${1:+[-k KEY] [-b BASE] [-g cbrt|linear] }[MODEL.toml [tethersim run options]]

  -r, --ranks LIST   rank counts, one run each (default: $scaling_default_ranks)
  -o, --output DIR   the sweep directory, which must not exist yet or be
                     empty (default: ${scaling_kind}-scaling-DATE); each run
                     writes DIR/ranks-NNNN/summary.json
USAGE
  if [ -n "${1:-}" ]; then
    cat <<USAGE
  -k, --key KEY      the model value that grows with the rank count
                     (default: initial.parameters.cells, the gas lattice)
  -b, --base VALUE   its value on one rank (default: $scaling_default_size)
  -g, --growth HOW   cbrt: VALUE = round(BASE * n^(1/3)), for a lattice edge,
                     so that the particle count (4 cells^3) grows like n;
                     linear: VALUE = BASE * n, for a count (default: cbrt
                     for the default key, linear for any other)
USAGE
  fi
  cat <<USAGE

Without MODEL.toml: examples/gas.toml $(scaling_default_args_text).
With it, the tethersim run options given are used as they are.
USAGE
}

scaling_default_args_text() {
  if [ "$scaling_kind" = strong ]; then
    echo "with --set initial.parameters.cells=$scaling_default_size --end-time $scaling_default_end"
  else
    echo "with cells growing from $scaling_default_size on one rank, --end-time $scaling_default_end"
  fi
}

scaling_parse() {
  scaling_kind=$1; scaling_launcher=$2; scaling_default_ranks=$3; scaling_default_size=$4
  scaling_default_end=$5
  shift 5
  scaling_name=$(basename "$0")
  local ranks_text="$scaling_default_ranks" weak_flag=""
  [ "$scaling_kind" = weak ] && weak_flag=1
  out=""; model=""; run_args=()
  weak_key=""; weak_base=""; weak_growth=""
  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) scaling_usage "$weak_flag"; exit 0 ;;
      -r|--ranks) [ $# -ge 2 ] || scaling_die "$1 needs a list"; ranks_text=$2; shift 2 ;;
      -o|--output) [ $# -ge 2 ] || scaling_die "$1 needs a directory"; out=$2; shift 2 ;;
      -k|--key|-b|--base|-g|--growth)
        [ -n "$weak_flag" ] || scaling_die "$1 is an option of weak scaling"
        [ $# -ge 2 ] || scaling_die "$1 needs a value"
        case "$1" in
          -k|--key) weak_key=$2 ;;
          -b|--base) weak_base=$2 ;;
          *) weak_growth=$2 ;;
        esac
        shift 2 ;;
      -*) scaling_die "unknown option '$1' (tethersim run options go after MODEL.toml; see --help)" ;;
      *) model=$1; shift; run_args=("$@"); break ;;
    esac
  done

  read -r -a ranks <<<"${ranks_text//,/ }"
  [ ${#ranks[@]} -gt 0 ] || scaling_die "no rank counts given"
  local n
  for n in "${ranks[@]}"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || scaling_die "rank counts must be positive integers, got '$n'"
  done

  if [ -z "$model" ]; then
    model="$TETHERSIM_ROOT/examples/gas.toml"
    if [ "$scaling_kind" = strong ]; then
      run_args=(--set "initial.parameters.cells=$scaling_default_size" --end-time "$scaling_default_end")
    else
      run_args=(--end-time "$scaling_default_end")
    fi
  fi
  [ -f "$model" ] || scaling_die "no model file '$model'"
  model="$(cd "$(dirname "$model")" && pwd)/$(basename "$model")"
  if [ "$scaling_kind" = weak ]; then
    if [ -z "$weak_key" ]; then
      weak_key=initial.parameters.cells
      weak_growth=${weak_growth:-cbrt}
    fi
    weak_base=${weak_base:-$scaling_default_size}
    weak_growth=${weak_growth:-linear}
    case "$weak_growth" in cbrt|linear) ;; *) scaling_die "--growth must be cbrt or linear, got '$weak_growth'" ;; esac
    awk -v b="$weak_base" 'BEGIN { exit !(b + 0 > 0) }' || scaling_die "--base must be a positive number, got '$weak_base'"
  fi

  out="${out:-$PWD/$scaling_kind-scaling-$(date +%Y%m%d-%H%M%S)}"
  case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
  if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    scaling_die "$out already exists and is not empty; choose another -o"
  fi
  mkdir -p "$out"
}

# scaling_point_args N: sets point_args (the extra options of the run on N
# ranks) and point_value (the weak-scaling value, empty for strong).
scaling_point_args() {
  local n=$1
  point_args=(); point_value=""
  [ "$scaling_kind" = weak ] || return 0
  if [ "$weak_growth" = cbrt ]; then
    point_value=$(awk -v b="$weak_base" -v n="$n" 'BEGIN { printf "%d", b * exp(log(n) / 3) + 0.5 }')
  else
    point_value=$(awk -v b="$weak_base" -v n="$n" 'BEGIN { v = b * n; if (v == int(v)) printf "%d", v; else printf "%.17g", v }')
  fi
  point_args=(--set "$weak_key=$point_value")
}

# scaling_json FILE KEY=VALUE...: a flat JSON object; values that read as
# numbers or true/false stay so, "a b c" after @ becomes a list of words.
scaling_json() {
  local file=$1; shift
  "$TETHERSIM_PYTHON" - "$file" "$@" <<'PY'
import json, sys
def number(v):
    try:
        return int(v)
    except ValueError:
        return None
def value(v):
    if v.startswith("@"):
        words = [w for w in v[1:].split("\x1f") if w != ""]
        numbers = [number(w) for w in words]
        return numbers if None not in numbers else words
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v)
    except ValueError:
        pass
    try:
        return float(v)
    except ValueError:
        return v
record = {}
for item in sys.argv[2:]:
    key, _, v = item.partition("=")
    record[key] = value(v)
with open(sys.argv[1], "w") as f:
    json.dump(record, f, indent=1)
    f.write("\n")
PY
}

# scaling_list WORDS...: the @-list form of scaling_json.
scaling_list() { local IFS=$'\x1f'; echo "@$*"; }

scaling_write_sweep() {
  local extra=()
  if [ "$scaling_kind" = weak ]; then
    extra=("weak_key=$weak_key" "weak_base=$weak_base" "weak_growth=$weak_growth")
  fi
  scaling_json "$out/sweep.json" "kind=$scaling_kind" "launcher=$scaling_launcher" "model=$model" \
    "run_options=$(scaling_list "${run_args[@]+"${run_args[@]}"}")" "ranks=$(scaling_list "${ranks[@]}")" \
    "host=$(hostname)" "cores=$(physical_cores)" "date=$(date -Iseconds)" "${extra[@]+"${extra[@]}"}"
}

# Physical cores: Open MPI places one rank per core, not per hardware thread.
physical_cores() {
  local c
  c=$(lscpu -p=CORE,SOCKET 2>/dev/null | grep -v '^#' | sort -u | wc -l)
  [ "${c:-0}" -gt 0 ] 2>/dev/null || c=$(nproc 2>/dev/null || echo 1)
  echo "$c"
}

# 1, 2, 4 ... up to the physical cores: the default rank counts on one machine.
local_rank_counts() {
  local counts=1 n
  for ((n = 2; n <= $(physical_cores); n *= 2)); do counts+=" $n"; done
  echo "$counts"
}

# The tethersim program: $TETHERSIM, else 'tethersim' on PATH, else this
# repository's Release build.
scaling_exe() {
  local exe="${TETHERSIM:-}"
  if [ -z "$exe" ]; then
    if command -v tethersim >/dev/null 2>&1; then exe=tethersim; else exe="$TETHERSIM_ROOT/build/release/src/app/tethersim"; fi
  fi
  command -v "$exe" >/dev/null 2>&1 || scaling_die "no tethersim program at '$exe'; build it (jobs/local/build.sh) or set TETHERSIM"
  command -v "$exe"
}

scaling_point_dir() { printf '%s/ranks-%04d%s' "$out" "$1" "${2:-}"; }

# One mpirun per rank count, one after the other on this machine. More ranks
# than physical cores run with --oversubscribe; their directory names end in
# -oversubscribed and their launch.json says so, because their timings
# measure time sharing rather than scaling.
scaling_run_local() {
  local exe cores n dir over failed=0 report
  exe=$(scaling_exe)
  cores=$(physical_cores)
  scaling_write_sweep
  for n in "${ranks[@]}"; do
    scaling_point_args "$n"
    over=false
    [ "$n" -le "$cores" ] || over=true
    if $over; then dir=$(scaling_point_dir "$n" -oversubscribed); else dir=$(scaling_point_dir "$n"); fi
    mkdir -p "$dir"
    local command=(mpirun -np "$n")
    if $over; then command+=(--oversubscribe); fi
    command+=("$exe" run "$model" "${run_args[@]+"${run_args[@]}"}" "${point_args[@]+"${point_args[@]}"}" --output "$dir")
    scaling_json "$dir/launch.json" launcher=mpirun "ranks=$n" "cores=$cores" "oversubscribed=$over" \
      "command=$(scaling_list "${command[@]}")" ${point_value:+"weak_value=$point_value"}
    printf '%s: %d rank(s)%s%s ... ' "$scaling_name" "$n" "${point_value:+, $weak_key=$point_value}" \
      "$($over && echo ", oversubscribed ($cores cores)")"
    if "${command[@]}" >"$dir/tethersim.log" 2>&1; then
      "$TETHERSIM_PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%.2f s, %.4g events/s" % (d["wall_seconds"], d["events_per_second"]))' "$dir/summary.json"
    else
      echo "failed (exit $?): $dir/tethersim.log"
      failed=$((failed + 1))
    fi
  done
  report="$out/report"
  "$TETHERSIM_PYTHON" "$TETHERSIM_ROOT/tools/scaling_report.py" "$out" -o "$report" ||
    echo "$scaling_name: the report failed (above)" >&2
  [ "$failed" -eq 0 ] || scaling_die "$failed of ${#ranks[@]} runs failed"
}

# One sbatch of run.sbatch per rank count. Nodes: enough for the ranks at
# $TASKS_PER_NODE (default: the CPUs of a node as sinfo reports them). All
# jobs of a sweep share a name, so SBATCH_OPTIONS="--dependency=singleton"
# runs them one at a time.
scaling_submit_slurm() {
  local exe tpn n dir nodes id ids=() sbatch_options=()
  command -v sbatch >/dev/null || scaling_die "sbatch not found: run this on a Slurm login node"
  exe=$(scaling_exe)
  tpn=${TASKS_PER_NODE:-$(sinfo -h -o %c 2>/dev/null | head -n 1 | grep -o '^[0-9]*' || true)}
  [[ "${tpn:-}" =~ ^[1-9][0-9]*$ ]] || scaling_die "cannot tell the CPUs per node from sinfo; set TASKS_PER_NODE"
  # Word splitting of SBATCH_OPTIONS is wanted: it holds several options.
  read -r -a sbatch_options <<<"${SBATCH_OPTIONS:-}"
  scaling_write_sweep
  for n in "${ranks[@]}"; do
    scaling_point_args "$n"
    dir=$(scaling_point_dir "$n")
    nodes=$(( (n + tpn - 1) / tpn ))
    mkdir -p "$dir"
    id=$(TETHERSIM_OUTPUT="$dir" TETHERSIM="$exe" \
      sbatch --parsable --ntasks="$n" --nodes="$nodes" --job-name="tethersim-$scaling_kind" \
        --output="$dir/slurm-%j.out" "${sbatch_options[@]+"${sbatch_options[@]}"}" \
        "$TETHERSIM_ROOT/jobs/slurm/run.sbatch" "$model" "${run_args[@]+"${run_args[@]}"}" \
        "${point_args[@]+"${point_args[@]}"}") ||
      scaling_die "sbatch refused the $n-rank job (above); submitted so far: ${ids[*]:-none}"
    id=${id%%;*}
    ids+=("$id")
    scaling_json "$dir/launch.json" launcher=srun "ranks=$n" "nodes=$nodes" "job_id=$id" oversubscribed=false \
      ${point_value:+"weak_value=$point_value"}
    echo "$scaling_name: $n rank(s) on $nodes node(s)${point_value:+, $weak_key=$point_value}: job $id"
  done
  echo "$scaling_name: ${#ids[@]} jobs into $out"
  echo "  follow:  squeue -j $(IFS=,; echo "${ids[*]}")"
  echo "  then:    ${TETHERSIM_PYTHON:-python3} $TETHERSIM_ROOT/tools/scaling_report.py $out -o $out/report"
}
