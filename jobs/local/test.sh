#!/usr/bin/env bash
# README command (2): install what is missing, build, and run the whole test
# suite - once in the CI configuration (Release, -Werror) and once with
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
source "$here/env.sh"
cd "$TETHERSIM_ROOT"

start=$(date +%s)
# Each phase says when it starts, in seconds since the start (CI's budget).
phase() { echo "== [$(( $(date +%s) - start )) s] $*"; }
phase "build (ci: Release, -Werror)"
"$here/build.sh" ci
phase "tests (ci)"
ctest --preset ci -j "$(parallel_jobs)" --timeout 900

phase "build (asan: ASan + UBSan)"
"$here/build.sh" asan
phase "tests (asan)"
# Leak detection stays on everywhere; Open MPI's and HDF5's process-lifetime
# allocations are suppressed by library (tests/sanitizers/lsan-mpi.supp).
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1" \
  LSAN_OPTIONS="suppressions=$TETHERSIM_ROOT/tests/sanitizers/lsan-mpi.supp:fast_unwind_on_malloc=0:print_suppressions=0" \
  ctest --preset asan -j "$(parallel_jobs)" --timeout 1800 -LE heavy

echo "== all tests passed in $(( $(date +%s) - start )) s"
