#!/usr/bin/env bash
# Two particles in a box of 10^9 sectors (tests/data/sparse_box.toml): the
# sector grid keeps the occupied sectors only, so the run needs the memory
# of its particles (a dense grid would take 4 GB), collides them like any
# other run, and gives the same bits on 2 ranks.
#   sparse_box.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
model="$src/tests/data/sparse_box.toml"
text=$("$exe" validate "$model") || fail "the sparse box does not validate: $text"
printf '%s\n' "$text" | grep -q "= 1000000000 (sparse: occupied sectors only)" || fail "validate does not call the grid sparse: $text"
"$exe" run "$model" -o "$work/one" -q
peak=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['memory']['peak_resident_bytes'] // 2**20)" "$work/one/summary.json")
[ "$peak" -lt 400 ] || fail "a run of two particles peaked at $peak MiB"
[ "$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['events_by_kind']['blocking'])" "$work/one/summary.json")" = 1 ] ||
  fail "the two particles did not collide once"
if command -v mpirun > /dev/null; then
  mpirun -np 2 "$exe" run "$model" -o "$work/two" -q --lean-fallback off
  same_state "$work/one" "$work/two"
fi
echo "sparse box: ok"
