#!/usr/bin/env python3
"""Checks DIR/observables.jsonl against the observables of DIR/trajectory.h5:
every line one JSON object, one per sample, with time, step and every
observable of the trajectory under its name, all equal to the file's (exact:
the text must read back as the same doubles). Exit 0 when they agree, else
one line per problem and exit 1.

    check_observables_log.py DIR
"""
import json
import sys

import h5py

problems = []


def need(condition, message):
    if not condition:
        problems.append(message)


def main(directory):
    with open(f"{directory}/observables.jsonl") as stream:
        text = stream.read()
    need(text.endswith("\n") or not text, "the last line has no newline")
    samples = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            sample = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"line {number} is not JSON: {e}")
            continue
        need(isinstance(sample, dict), f"line {number} is not an object")
        samples.append(sample)
    with h5py.File(f"{directory}/trajectory.h5", "r") as f:
        observables = f["observables"]
        names = list(observables)
        times = observables["kinetic_energy/time"][()]
        steps = observables["kinetic_energy/step"][()]
        need(len(samples) == len(times), f"{len(samples)} lines, {len(times)} samples in the trajectory")
        event_kinds = [c.decode() if isinstance(c, bytes) else str(c)
                       for c in observables["event_counts/value"].attrs["columns"]]
        # The trajectory lists its groups alphabetically; the file in layout order.
        expected_keys = {"time", "step", *names}
        for k, sample in enumerate(samples[:len(times)]):
            need(set(sample) == expected_keys, f"sample {k}: keys {sorted(sample)}, expected {sorted(expected_keys)}")
            need(list(sample)[:2] == ["time", "step"], f"sample {k}: time and step do not come first")
            need(sample.get("time") == times[k], f"sample {k}: time {sample.get('time')!r} != {times[k]!r}")
            need(sample.get("step") == steps[k], f"sample {k}: step {sample.get('step')} != {steps[k]}")
            for name in names:
                stored = observables[f"{name}/value"][k]
                value = sample.get(name)
                if name == "event_counts":
                    value = [value.get(kind) for kind in event_kinds] if isinstance(value, dict) else value
                    need(isinstance(sample.get(name), dict) and list(sample[name]) == event_kinds,
                         f"sample {k}: event_counts keys are not the event kinds {event_kinds}")
                if stored.shape:
                    need(value == list(stored), f"sample {k}: {name} {value} != {list(stored)}")
                else:
                    need(value == stored, f"sample {k}: {name} {value!r} != {stored!r}")
                # Counts are JSON integers, never 3.0.
                if stored.dtype.kind == "i":
                    for v in (value if isinstance(value, list) else [value]):
                        need(isinstance(v, int), f"sample {k}: {name} is not an integer: {v!r}")
    for p in problems[:20]:
        print(f"{directory}/observables.jsonl: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
