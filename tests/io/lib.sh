# Helpers shared by the I/O test scripts (sourced).
set -euo pipefail

# Under the sanitizers, no leak check in these scripts' runs: each script
# starts dozens of short runs, and the leak check needs slow stack unwinding
# on every allocation (to suppress Open MPI's and HDF5's process-lifetime
# allocations by library), which took most of the sanitizer pass's time.
# Leaks are checked in the unit tests and the multi-rank runs; everything
# else AddressSanitizer and UBSan check stays on here.
if [[ ${ASAN_OPTIONS:-} == *detect_leaks=1* ]]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS//detect_leaks=1/detect_leaks=0}"
fi

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

# verified_checkpoint_time FILE: the simulated time of a checkpoint that
# verifies (`tethersim info` checks its content hash); $exe is the binary.
verified_checkpoint_time() {
  local text
  text=$("$exe" info "$1" 2>&1) || fail "tethersim info rejects $1: $text"
  printf '%s\n' "$text" | grep -q "content hash verified" || fail "$1 does not verify: $text"
  printf '%s\n' "$text" | awk '$1 == "time" { print $2; exit }'
}

# caught_signal PID SIGNAL_NUMBER: waits until PID has its own handler for
# the signal (bit SIGNAL-1 of SigCgt in /proc/PID/status), or fails after
# 60 s or when PID ends. A signal sent before that (the binary still being
# loaded on a busy machine) would end the process instead of being kept.
caught_signal() {
  local pid=$1 signal=$2 deadline=$((SECONDS + 60)) mask
  for (( ; ; )); do
    mask=$(awk '$1 == "SigCgt:" { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$mask" ] || fail "process $pid ended before it handled signal $signal"
    (( (16#$mask >> (signal - 1)) & 1 )) && return 0
    [ "$SECONDS" -lt "$deadline" ] || fail "process $pid did not handle signal $signal within 60 s"
    sleep 0.002
  done
}

json_field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# same_state DIR_A DIR_B: identical frames, observables and checkpoint state,
# bit for bit (shapes included: h5diff passes datasets of other shapes).
same_state() {
  local report
  report=$(/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../common/same_state.py" "$1" "$2") ||
    fail "runs differ: $(printf '%s' "$report" | head -3 | tr '\n' ';')"
}
