# Helpers shared by the I/O test scripts (sourced).
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_exit CODE CMD...: runs CMD, checks its exit code; stderr in $stderr_text.
expect_exit() {
  local expected=$1; shift
  local code=0
  stderr_text=$("$@" 2>&1 >/dev/null) || code=$?
  [ "$code" -eq "$expected" ] || fail "'$*' exited $code, expected $expected: $stderr_text"
}

# expect_one_line TEXT PATTERN
expect_one_line() {
  local lines
  lines=$(printf '%s\n' "$1" | grep -c . || true)
  [ "$lines" -eq 1 ] || fail "expected one line, got $lines: $1"
  printf "%s\n" "$1" | grep -qE -e "$2" || fail "message does not match '$2': $1"
}

json_field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# same_state DIR_A DIR_B: identical frames, observables and checkpoint state.
same_state() {
  local a=$1 b=$2
  for object in /particles/all/position/value /particles/all/velocity/value /particles/all/id/value \
                /particles/all/position/time /connectivity/tethers/value /observables/kinetic_energy/value \
                /observables/event_counts/value /parameters/tethersim/tether_counts; do
    h5diff "$a/trajectory.h5" "$b/trajectory.h5" "$object" >/dev/null || fail "$object differs: $a vs $b"
  done
  for object in /checkpoint/particles /checkpoint/tethers /checkpoint/loaded_edges /checkpoint/escapes \
                /checkpoint/releases /checkpoint/periodic_ticks; do
    h5diff "$a/checkpoint.h5" "$b/checkpoint.h5" "$object" >/dev/null || fail "$object differs: $a vs $b"
  done
  [ "$(json_field "$a/summary.json" state_hash)" = "$(json_field "$b/summary.json" state_hash)" ] ||
    fail "state hashes differ: $a vs $b"
}
