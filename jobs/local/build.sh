#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release):
#   jobs/local/build.sh [release|debug|asan|ci]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
preset="${1:-release}"
cd "$TETHERSIM_ROOT"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(parallel_jobs)"
