#!/usr/bin/env python3
"""The layers import one way only.

Usage: layering_test.py SOURCE_DIR

Every C++ file belongs to a layer: include/tethersim/<layer>/, src/<layer>/,
io/ or decomposition/. A file may include the public headers of its own
layer and of the layers ALLOWED lists for it, nothing above, and no private
header of another folder through "../". The order, bottom to top:

    physics -> model -> scenario -> engine -> io, decomposition
      -> runtime (src/runtime) -> app (src/app, the command line)
    mpi (the shared MPI collectives) under io, decomposition and runtime

io and decomposition are siblings: neither includes the other. Exit 0 when
every include keeps to this, 1 naming each one that does not (path:line).
"""

import os
import re
import sys

BELOW_ENGINE = {"physics", "model", "scenario"}
ALLOWED = {
    "physics": set(),
    "mpi": set(),
    "model": {"physics"},
    "scenario": {"physics", "model"},
    "engine": BELOW_ENGINE,
    "io": BELOW_ENGINE | {"engine", "mpi"},
    "decomposition": BELOW_ENGINE | {"engine", "mpi"},
    "runtime": BELOW_ENGINE | {"engine", "mpi", "io", "decomposition"},
    "app": BELOW_ENGINE | {"engine", "mpi", "io", "decomposition", "runtime"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "include" and len(parts) > 3 and parts[1] == "tethersim":
        return parts[2]
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[0] in ("io", "decomposition"):
        return parts[0]
    return None


def main():
    source = sys.argv[1]
    problems = []
    files = 0
    for top in ("include", "src", "io", "decomposition"):
        for directory, _, names in os.walk(os.path.join(source, top)):
            for name in sorted(names):
                if not name.endswith((".hpp", ".cpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(directory, name), source)
                layer = layer_of(path)
                if layer is None:
                    continue
                if layer not in ALLOWED:
                    problems.append(f"{path}: layer '{layer}' is not in the layer table of this test")
                    continue
                files += 1
                with open(os.path.join(source, path), encoding="utf-8") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = match.group(1)
                        if target.startswith("../") or "/../" in target:
                            problems.append(f"{path}:{number}: includes a private header of another folder: {target}")
                            continue
                        pieces = target.split("/")
                        if len(pieces) < 3 or pieces[0] != "tethersim":
                            continue  # its own folder's private header, or version.hpp
                        other = pieces[1]
                        if other != layer and other not in ALLOWED[layer]:
                            problems.append(f"{path}:{number}: the {layer} layer includes the {other} layer ({target})")
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if files < 100:
        print(f"FAIL: only {files} files found under {source}", file=sys.stderr)
        return 1
    if not problems:
        print(f"{files} files: every include goes down the layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
