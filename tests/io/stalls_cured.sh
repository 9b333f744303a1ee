#!/usr/bin/env bash
# Every family of runs that stalled (simulated time stopped, events without
# end) now runs to its end time or is refused before it starts
# (docs/engine.md, "Stalls"; the refusals are in stalls_and_signals.sh):
# - the loops at one instant that were defects run to their end as they are:
#   c = 0 with a restitution delay (the max schedule's halfway point rounded
#   down to now), c = 0 without one (resting contact), and the presynaptic
#   terminal started from a saved state with a longer restitution delay;
# - inelastic collapse runs to its end with the TC model
#   (physics.tc_elastic_time) and stalls without it.
# The stall watch is on throughout (2 * 10^6 events), so a stall fails the
# run with exit code 1.
#   stalls_cured.sh TETHERSIM SOURCE_DIR WORK_DIR
source "$(dirname "$0")/lib.sh"
exe=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"

# runs_to_end NAME END MODEL ARGS...: the run exits 0 at t = END.
runs_to_end() {
  local name=$1 end=$2 code=0; shift 2
  timeout -k 10 600 "$exe" run "$@" --end-time "$end" --stall-events 2000000 -q -o "$name" 2> "$name.err" || code=$?
  [ "$code" -eq 0 ] || fail "$name exited $code: $(cat "$name.err")"
  [ "$(json_field "$name/summary.json" end_time)" = "$end" ] || fail "$name did not reach t = $end"
  [ "$(json_field "$name/summary.json" interrupted)" = "False" ] || fail "$name was interrupted"
}

gas=("$src/examples/gas.toml" --set initial.parameters.cells=6)
presynaptic="$src/examples/presynaptic.toml"

# Defects: c = 0 with restitution delays of 0.01 (the issue's gas of 10 976
# stalled at t = 0.13), 0.1 and 1, and without one; c = 0.1 without one.
runs_to_end gas-delay-0.01 1 "$src/examples/gas.toml" --set pair.0.c=0.0 --set physics.restitution_delay=0.01
for delay in 0.1 1.0; do
  runs_to_end "gas-delay-$delay" 5 "${gas[@]}" --set pair.0.c=0.0 --set physics.restitution_delay=$delay
done
for c in 0.0 0.1; do runs_to_end "gas-c-$c" 5 "${gas[@]}" --set pair.0.c=$c; done

# The presynaptic terminal from a saved state at t = 100 with a restitution
# delay of 1/32 (stalled at t = 168 among an S and two Vs), and with the
# loaded groups capped at 2 and at 3 under both schedules.
"$exe" run "$presynaptic" --end-time 100 -q -o saved 2> saved.err || fail "saved: $(cat saved.err)"
/usr/bin/python3 - "$presynaptic" <<'PY'
import sys
text = open(sys.argv[1]).read()
head, rest = text.split("[initial]\n", 1)
open("from-saved.toml", "w").write(head + '[initial]\nfrom = "saved/checkpoint.h5"\n\n' + rest[rest.index("[output]"):])
PY
runs_to_end presynaptic-from-saved 200 from-saved.toml --set physics.restitution_delay=0.03125
for cap in 2 3; do
  for schedule in max min; do
    runs_to_end "presynaptic-cap-$cap-$schedule" 100 "$presynaptic" --set physics.max_group_size=$cap \
      --set "physics.restitution_schedule=\"$schedule\""
  done
done
runs_to_end presynaptic-c-0 300 "$presynaptic" --set pair_defaults.c=0.0

# Inelastic collapse: a gas at density 1.3 with c = 0.1 crawls (t = 0.5 in
# 20 s of some 10^6 events per second); with the TC model it runs to its end.
dense=("${gas[@]}" --set initial.parameters.density=1.3 --set pair.0.c=0.1)
code=0
timeout -k 10 600 "$exe" run "${dense[@]}" --end-time 2 --max-walltime 0.001 -q -o dense 2> dense.err || code=$?
[ "$code" -eq 0 ] || fail "the dense gas exited $code: $(cat dense.err)"
[ "$(json_field dense/summary.json interrupted)" = "True" ] || fail "the dense gas reached its end without the TC model"
runs_to_end dense-tc 2 "${dense[@]}" --set physics.tc_elastic_time=0.001
echo "stalls_cured: ok"
