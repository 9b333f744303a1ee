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
# Leak detection stays on everywhere. Open MPI's and HDF5's process-lifetime
# allocations are suppressed by library (tests/sanitizers/lsan-mpi.supp); the
# sanitizer build keeps the modules they load loaded until exit
# (tests/sanitizers/modules_stay_loaded.cpp), so the fast unwinder names them
# (a full unwind of every allocation made the MPI tests 2.3 times slower).
# The Python tools and the install tests run in the Release pass only:
# they drive the same program through the same paths as the other tests.
asan_env=(ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1")
suppress="suppressions=$TETHERSIM_ROOT/tests/sanitizers/lsan-mpi.supp:print_suppressions=0"
env "${asan_env[@]}" LSAN_OPTIONS="$suppress" \
  ctest --preset asan -j "$(parallel_jobs)" --timeout 1800 -LE "heavy|tools|install"

echo "== all tests passed in $(( $(date +%s) - start )) s"
