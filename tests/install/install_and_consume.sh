#!/usr/bin/env bash
# cmake --install of this build into a scratch prefix, then a project from
# outside the tree (consumer/) configured against nothing but that prefix:
# its find_package(tethersim CONFIG), the installed headers and libraries
# must be enough to run a model, and the result must be the installed
# command's own for the same run.
#   install_and_consume.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR VERSION C_COMPILER CXX_COMPILER
set -euo pipefail
cmake=$1 build=$2 source=$3 work=$4 version=$5 cc=$6 cxx=$7
python=${TETHERSIM_PYTHON:-/usr/bin/python3}

fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" ||
  fail "cmake --install failed: $(tail -5 "$work/install.log")"

for file in bin/tethersim include/tethersim/version.hpp include/tethersim/engine/engine.hpp \
    lib/cmake/tethersim/tethersimConfig.cmake lib/cmake/tethersim/tethersimConfigVersion.cmake; do
  [ -e "$prefix/$file" ] || fail "the install has no $file"
done
# A package that names the source or build tree works here and nowhere else.
if grep -rlF -e "$source/" -e "$build/" "$prefix/lib/cmake" "$prefix/include"; then
  fail "installed files name the source or build tree (above)"
fi

version_text=$("$prefix/bin/tethersim" --version)
[ "$version_text" = "tethersim $version" ] || fail "tethersim --version says '$version_text', expected 'tethersim $version'"

# The consumer sees the prefix only: no package registry, no build tree.
"$cmake" -S "$source/tests/install/consumer" -B "$work/consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  > "$work/consumer-configure.log" 2>&1 ||
  fail "the consumer does not configure: $(cat "$work/consumer-configure.log")"
found=$(sed -n 's/^tethersim_DIR:PATH=//p' "$work/consumer/CMakeCache.txt")
[ "$found" = "$prefix/lib/cmake/tethersim" ] || fail "the consumer found tethersim in '$found', not in the prefix"
"$cmake" --build "$work/consumer" -j 2 > "$work/consumer-build.log" 2>&1 ||
  fail "the consumer does not build: $(cat "$work/consumer-build.log")"

# The gas example shrunk to 32 particles: the library and the command run
# the same events to t = 5.
settings=(initial.parameters.cells=2)
end_time=5
consumer_text=$("$work/consumer/gas_energy" "$source/examples/gas.toml" "$end_time" "${settings[@]}") ||
  fail "the consumer's run failed: $consumer_text"
echo "$consumer_text"
"$prefix/bin/tethersim" run "$source/examples/gas.toml" -o "$work/run" -q --end-time "$end_time" \
  "${settings[@]/#/--set=}" > "$work/run.log" 2>&1 || fail "tethersim run failed: $(cat "$work/run.log")"

printf '%s\n' "$consumer_text" > "$work/consumer.txt"
"$python" - "$work/run/summary.json" "$work/consumer.txt" "$version" <<'PY' || fail "the consumer and the command disagree"
import json, sys
summary = json.load(open(sys.argv[1]))
fields = dict(line.split(" ", 1) for line in open(sys.argv[2]).read().splitlines())
start_energy, end_energy = (float(x) for x in fields["kinetic_energy"].split(" -> "))
checks = [
    ("version", fields["version"], sys.argv[3]),
    ("model", fields["model"], summary["model"]),
    ("particles", int(fields["particles"]), summary["final"]["particles"]),
    ("events", int(fields["events"]), summary["events"]),
    ("initial kinetic energy", start_energy, summary["initial"]["kinetic_energy"]),
    ("final kinetic energy", end_energy, summary["final"]["kinetic_energy"]),
]
bad = [c for c in checks if c[1] != c[2]]
for name, ours, theirs in bad:
    print(f"{name}: consumer {ours!r}, tethersim run {theirs!r}", file=sys.stderr)
if int(fields["events"]) == 0:
    bad.append("no events")
    print("the consumer ran no events", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "install and consumer: OK"
