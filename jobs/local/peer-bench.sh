#!/usr/bin/env bash
# The serial engine against the fastest published event-driven code for hard
# spheres we know of: F. Smallenburg, "Efficient event-driven simulations of
# hard spheres", Eur. Phys. J. E 45, 22 (2022), public source
# github.com/FSmallenburg/EDMD, its "Single" variant (neighbour lists, one
# event per particle, a calendar of a near-future tree plus linear lists).
#   jobs/local/peer-bench.sh [-d PEER_DIR] [-s SOURCE] [-C "14 30 63"] [-r REPEATS] [-o FILE]
# SOURCE: where to clone the peer from (default its GitHub address; a local
# clone will do).
#
# The recipe (docs/benchmarks.md records its figures):
# - The peer is cloned into PEER_DIR (default /tmp/tethersim-peers, outside
#   the repository) at the commit below, and built as its Makefile builds it
#   (gcc -Wall -Ofast -funroll-loops -march=native).
# - Its parameters are set for the gas `tethersim bench` times: N = 4 C^3,
#   an FCC start, number density 0.5 with diameter 1 (packing fraction
#   pi/12), mass 1 and kT = 1 (its own velocity draw), thermostat off, no
#   output. Its main() is given a melt of 5 collisions per particle (N 5 / 2
#   collisions, as `tethersim bench --melt 5`), then times 10^7 collisions
#   with the monotonic clock and prints collisions per second: only main()
#   changes, never its event loop.
# - Each size runs A B A B (tethersim bench, the peer) REPEATS times,
#   alternating, each process alone on the machine; the script prints every
#   run, the median rates, their ratio and each program's peak resident
#   memory per particle (/usr/bin/time -f %M).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/env.sh"
peer_dir=/tmp/tethersim-peers source=https://github.com/FSmallenburg/EDMD.git sizes="14 30 63" repeats=3 out=
while [[ $# -gt 0 ]]; do
  case $1 in
    -d) peer_dir=$2; shift 2 ;;
    -s) source=$2; shift 2 ;;
    -C) sizes=$2; shift 2 ;;
    -r) repeats=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    *) echo "usage: $0 [-d PEER_DIR] [-s SOURCE] [-C \"14 30 63\"] [-r REPEATS] [-o FILE]" >&2; exit 2 ;;
  esac
done
exe=${TETHERSIM:-$TETHERSIM_ROOT/build/release/src/app/tethersim}
[[ -x $exe ]] || { echo "peer-bench: no tethersim at $exe (run jobs/local/build.sh release)" >&2; exit 1; }
commit=2d0c862  # FSmallenburg/EDMD, the version measured
src=$peer_dir/EDMD
if [[ ! -d $src ]]; then
  mkdir -p "$peer_dir"
  git clone -q "$source" "$src"
fi
git -C "$src" checkout -q "$commit"

# One binary per N: N, the packing fraction and the switches are globals
# of the source, set before it is compiled.
build_peer() {
  local cells=$1 n=$((4 * $1 * $1 * $1)) dir=$peer_dir/single-$1
  [[ -x $dir/md ]] && return
  rm -rf "$dir" && mkdir -p "$dir" && cp "$src"/Single/* "$dir"/
  "$TETHERSIM_PYTHON" - "$dir/mdSingle.c" "$n" <<'PY'
import re, sys
path, n = sys.argv[1], int(sys.argv[2])
s = open(path).read()
def sub(pattern, replacement):
    global s
    s, k = re.subn(pattern, lambda m: replacement, s, count=1, flags=re.S)
    if k != 1:
        sys.exit(f"peer-bench: the peer's source changed ({pattern!r} not found)")
sub(r"double maxtime = [^;]*;", "double maxtime = 1e300;")
sub(r"double writeinterval = [^;]*;", "double writeinterval = 1e300;")
sub(r"int initialconfig = [^;]*;", "int initialconfig = 1;")
sub(r"double packfrac = [^;]*;", "double packfrac = 0.26179938779914941;  /* pi/12: number density 0.5 */")
sub(r"int N = [^;]*;", f"int N = {n};")
sub(r"const int usethermostat = [^;]*;", "const int usethermostat = 0;")
# main(): melt, then time 10^7 collisions; nothing else of the program changes.
sub(r"int main\(\)\n\{.*?\n\}\n", """#include <time.h>
int main()
{
    init();
    unsigned int melt = 5u * (unsigned int)N / 2u, timed = 10000000u;
    while (colcounter < melt) step();
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    unsigned int start = colcounter;
    while (colcounter - start < timed) step();
    clock_gettime(CLOCK_MONOTONIC, &b);
    double seconds = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    printf("peer: N %d collisions %u seconds %.6f collisions/s %.1f\\n", N, colcounter - start, seconds,
           (colcounter - start) / seconds);
    return 0;
}
""")
open(path, "w").write(s)
PY
  # As its Makefile builds it.
  make -s -C "$dir" >/dev/null
}

rate_of_peer() { sed -n 's/.*collisions\/s \([0-9.e+]*\).*/\1/p'; }
rate_of_ours() { sed -n 's/^ *collisions\/s *\([0-9.e+]*\).*/\1/p'; }
# tethersim bench reports its peak above the process's own start-up (MPI,
# HDF5 and the binary: about 14 MB); the peer's is its whole resident size.
bytes_of_ours() { sed -n 's/^ *peak memory bytes\/particle *\([0-9.]*\).*/\1/p'; }

report=$(mktemp)
for cells in $sizes; do
  build_peer "$cells"
  n=$((4 * cells * cells * cells))
  for ((k = 1; k <= repeats; k++)); do
    ours=$( { /usr/bin/time -f "peak_kib %M" "$exe" bench -C "$cells" 2>&1; } )
    theirs=$( { cd "$peer_dir/single-$cells" && /usr/bin/time -f "peak_kib %M" ./md 2>&1; } )
    echo "$n tethersim $(rate_of_ours <<<"$ours") $(bytes_of_ours <<<"$ours")" | tee -a "$report"
    echo "$n peer $(rate_of_peer <<<"$theirs") $(( $(sed -n 's/peak_kib //p' <<<"$theirs") * 1024 / n ))" | tee -a "$report"
  done
done
"$TETHERSIM_PYTHON" - "$report" <<'PY' | tee ${out:+"$out"}
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print("| N | tethersim collisions/s | peer collisions/s | ratio | tethersim peak B/particle (above start-up) | peer peak B/particle (whole process) |")
print("|---|---|---|---|---|---|")
for n in sorted({int(r[0]) for r in rows}):
    def median(who, k):
        return statistics.median(float(r[k]) for r in rows if int(r[0]) == n and r[1] == who)
    ours, theirs = median("tethersim", 2), median("peer", 2)
    print(f"| {n} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f} | "
          f"{median('tethersim', 3):.0f} | {median('peer', 3):.0f} |")
PY
rm -f "$report"
