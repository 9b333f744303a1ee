#!/usr/bin/env python3
"""The layers import and link one way only.

Usage: layering_test.py SOURCE_DIR
       layering_test.py --self-test

Every C++ file belongs to a layer: include/tethersim/<layer>/, src/<layer>/,
io/ or decomposition/. A file may include the headers of its own layer and
of the layers ALLOWED lists for it, nothing above, and no private header of
another folder through "../". The order, bottom to top:

    physics -> model -> scenario -> engine -> io, decomposition
      -> runtime (src/runtime) -> app (src/app, the command line)
    mpi (the shared MPI collectives and session) under io, decomposition
      and runtime

io and decomposition are siblings: neither includes the other. Every form
of include is checked:
  - "tethersim/<layer>/..." and <tethersim/<layer>/...>: the layer named;
  - "name.hpp" without the prefix: the file next to the includer, else the
    source folder of whichever layer holds a file of that name (runtime
    exports its folder, so app's "run_session.hpp" is runtime's);
  - the libraries only some layers may use (EXTERNAL): <mpi.h> from mpi
    upwards, <hdf5.h> in io alone.
The CMake link graph keeps the same order: every target_link_libraries of a
layer's library (tethersim_<layer>) names only libraries of its own or an
allowed layer.

Exit 0 when everything keeps to this, 1 naming each place that does not
(path:line). --self-test runs the checks over a small tree with one fault
of each kind and fails unless each is found.
"""

import os
import re
import sys
import tempfile

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
# System libraries that belong to some layers only.
EXTERNAL = {
    "mpi.h": {"mpi", "io", "decomposition", "runtime", "app"},
    "hdf5.h": {"io"},
}
# Where each layer's sources (and private headers) are.
SOURCE_FOLDERS = {
    "physics": "src/physics",
    "model": "src/model",
    "scenario": "src/scenario",
    "engine": "src/engine",
    "io": "io",
    "decomposition": "decomposition",
    "runtime": "src/runtime",
    "app": "src/app",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+(["<])([^">]+)[">]')
LINK = re.compile(r"target_link_libraries\s*\(\s*(\S+)([^)]*)\)", re.S)
LAYER_TARGET = re.compile(r"^tethersim_([a-z]+)$")


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "include" and len(parts) > 3 and parts[1] == "tethersim":
        return parts[2]
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[0] in ("io", "decomposition"):
        return parts[0]
    return None


def included_layers(source, path, bracket, target):
    """The layers an include may resolve to, or None when it names no layer
    (a standard or third-party header, the generated version.hpp)."""
    pieces = target.split("/")
    if pieces[0] == "tethersim" and len(pieces) >= 3:
        return {pieces[1]}
    if bracket == "<":
        return None
    if os.path.exists(os.path.join(source, os.path.dirname(path), target)):
        return {layer_of(path)}
    found = {layer for layer, folder in SOURCE_FOLDERS.items()
             if os.path.exists(os.path.join(source, folder, target))}
    return found or None


def include_problems(source, path, layer):
    problems = []
    with open(os.path.join(source, path), encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            bracket, target = match.groups()
            where = f"{path}:{number}"
            if target.startswith("../") or "/../" in target:
                problems.append(f"{where}: includes a private header of another folder: {target}")
                continue
            if bracket == "<" and target in EXTERNAL:
                if layer not in EXTERNAL[target]:
                    problems.append(f"{where}: the {layer} layer includes <{target}>")
                continue
            others = included_layers(source, path, bracket, target)
            if others is None:
                continue
            allowed = {layer} | ALLOWED[layer]
            if not others & allowed:
                names = ", ".join(sorted(others))
                problems.append(f"{where}: the {layer} layer includes the {names} layer ({target})")
    return problems


def link_problems(source):
    problems = []
    for directory, folders, names in os.walk(source):
        # Not the build trees, nor hidden folders, inside the source.
        folders[:] = [f for f in folders if not f.startswith((".", "build"))]
        if "CMakeLists.txt" not in names:
            continue
        path = os.path.relpath(os.path.join(directory, "CMakeLists.txt"), source)
        with open(os.path.join(source, path), encoding="utf-8") as text:
            content = text.read()
        for match in LINK.finditer(content):
            target = LAYER_TARGET.match(match.group(1))
            if not target or target.group(1) not in ALLOWED:
                continue
            layer = target.group(1)
            number = content.count("\n", 0, match.start()) + 1
            for token in re.split(r"[\s$<>:]+", match.group(2)):
                other = LAYER_TARGET.match(token)
                if other and other.group(1) in ALLOWED and other.group(1) != layer \
                        and other.group(1) not in ALLOWED[layer]:
                    problems.append(f"{path}:{number}: tethersim_{layer} links tethersim_{other.group(1)}")
    return problems


def check(source):
    """(files checked, problems)"""
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
                problems += include_problems(source, path, layer)
    return files, problems + link_problems(source)


def self_test():
    """One fault of each kind in a small tree: each must be reported."""
    tree = {
        "include/tethersim/engine/engine.hpp": '#include "tethersim/io/trajectory_file.hpp"\n',
        "include/tethersim/model/model.hpp": "#include <mpi.h>\n",
        "src/engine/engine.cpp": '#include "run_session.hpp"\n#include "own.hpp"\n',
        "src/engine/own.hpp": "",
        "src/runtime/run_session.hpp": '#include "tethersim/engine/engine.hpp"\n',
        "src/app/main.cpp": '#include "run_session.hpp"\n#include <mpi.h>\n',
        "decomposition/CMakeLists.txt": "target_link_libraries(tethersim_decomposition PUBLIC tethersim_io)\n",
        "src/app/CMakeLists.txt": "target_link_libraries(tethersim_app PUBLIC tethersim_runtime)\n",
    }
    expected = [
        "include/tethersim/engine/engine.hpp:1: the engine layer includes the io layer",
        "include/tethersim/model/model.hpp:1: the model layer includes <mpi.h>",
        "src/engine/engine.cpp:1: the engine layer includes the runtime layer",
        "decomposition/CMakeLists.txt:1: tethersim_decomposition links tethersim_io",
    ]
    with tempfile.TemporaryDirectory() as source:
        for path, text in tree.items():
            os.makedirs(os.path.join(source, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(source, path), "w", encoding="utf-8") as out:
                out.write(text)
        _, problems = check(source)
    missed = [e for e in expected if not any(p.startswith(e) for p in problems)]
    extra = [p for p in problems if not any(p.startswith(e) for e in expected)]
    for m in missed:
        print(f"FAIL: not found: {m}", file=sys.stderr)
    for x in extra:
        print(f"FAIL: found where there is none: {x}", file=sys.stderr)
    if not missed and not extra:
        print(f"{len(expected)} faults found, none reported where there is none")
    return 1 if missed or extra else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    source = sys.argv[1]
    files, problems = check(source)
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if files < 100:
        print(f"FAIL: only {files} files found under {source}", file=sys.stderr)
        return 1
    if not problems:
        print(f"{files} files: every include and link goes down the layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
