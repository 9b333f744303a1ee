#!/usr/bin/env python3
"""The repository stands alone: no file cites a document it does not hold.

Usage: standalone_test.py SOURCE_DIR

Reads every tracked file (`git ls-files` when SOURCE_DIR is a git checkout,
otherwise a walk of the tree without build directories) and fails, naming
each hit as path:line, when a line cites a design document, specification,
memo or thesis section that a reader of the repository cannot open. The
physics is in docs/physics.md (with the published sources in its
References); the engine, distribution and file formats are in docs/.
"""

import os
import re
import subprocess
import sys

# Each pattern: what it finds, and the words of the message. Built from
# pieces so that this file does not cite what it forbids.
CITATIONS = [
    (re.compile(r"DESIGN" r"\.md"), "a design document the repository does not hold"),
    (re.compile(r"TPS-" r"SPEC"), "a specification the repository does not hold"),
    (re.compile(r"SYNC-" r"CIW"), "a design memo the repository does not hold"),
    (re.compile(r"\.\./" r"shared|/work/" r"shared"), "a directory outside the repository"),
    (re.compile(r"\b(?:design|the) " r"memo\b", re.IGNORECASE),
     "a memo the repository does not hold"),
    # "thesis 6.1", "thesis section 5.2", "thesis Fig. 23", "thesis's
    # Appendix E", "thesis B.4": section numbers of a document the reader
    # cannot open. Cite it in docs/physics.md (References) and point there.
    (re.compile(r"\bthesis(?:'s)?,?\s+(?:sections?\b|sec\.|§|fig(?:ure)?s?\b\.?|appendix\b|"
                r"appendices\b|table\b|chapter\b|\d|[A-E]\.\d)", re.IGNORECASE),
     "thesis sections as if the thesis were a file (point at docs/physics.md)"),
    (re.compile(r"\bSPEC \d"), "sections of a specification the repository does not hold"),
    # Erratum numbers of that specification: "(F10)", "(F7);", "F11: mu_RI".
    (re.compile(r"(?:\(|; |, )F\d{1,2}(?:\)|:|;|,)"),
     "an erratum number of a specification the repository does not hold"),
]

# Numbered parts of the published sources: only docs/physics.md, whose
# References section names the sources, may cite them.
SOURCE_SECTIONS = [
    (re.compile(r"\bpaper(?:'s)?,?\s+(?:sections?\s+)?\d", re.IGNORECASE),
     "sections of the paper as if it were a file (point at docs/physics.md)"),
    (re.compile(r"\bAppendix [A-E]\b"),
     "an appendix of a source the repository does not hold (point at docs/physics.md)"),
]
SOURCES_PAGE = "docs/physics.md"

# Lines the patterns must flag and lines they must leave alone: if these
# fail, the check itself is broken.
MUST_FLAG = [
    "// Loaded edges (" "TPS-" "SPEC section 4): the forest",
    "# Layering (" "DESIGN" ".md section 1): physics",
    "// Certified isolation windows (design/" "SYNC-" "CIW.md):",
    "The physics is in `.." "/shared`-style terms",
    "Projected with the cost model of the design " "memo from these rates",
    "// Tethering candidates: the tether network (thesis " "6.1).",
    "// (thesis section 5.2, Figure 25). Gravity",
    "description = \"membrane hit by a projectile (thesis " "Fig. 23)\"",
    "// Written as in thesis " "B.4 so that one infinite mass",
    "// The presynaptic nerve terminal of the thesis (section 5.1, Appendix E):",
    "- The group walk never enters an infinite-mass particle (SPEC 4: hubs split",
    "  // |v_w| = 0 and c_retract = 0: the revolve is undefined (F10).",
    "#    (F7);",
    "// intervals (paper section 3.5).",
    "# Units: nm and thesis time units. Differences from Appendix E, on purpose:",
]
MUST_PASS = [
    "// Tethering candidates: the tether network (docs/physics.md, \"Event detection\").",
    "the scheme the thesis implemented ([2], section 4.1)",
    "(sustained contacts, the TPS weak spot the thesis describes)",
    "# presynaptic.toml - the presynaptic nerve terminal of Goldstein's thesis",
    "Units: nm and the time units of the thesis.",
]


def line_hits(line, path=""):
    hits = [message for pattern, message in CITATIONS if pattern.search(line)]
    if path != SOURCES_PAGE:
        hits += [message for pattern, message in SOURCE_SECTIONS if pattern.search(line)]
    # "the thesis (section 5.1, ...)": the section list right after the word.
    if re.search(r"\bthesis\b[^.;\n]{0,3}\((?:sections?|appendix|fig)", line, re.IGNORECASE):
        hits.append("thesis sections as if the thesis were a file (point at docs/physics.md)")
    return hits


def check_patterns():
    broken = [f"not flagged: {s}" for s in MUST_FLAG if not line_hits(s)]
    broken += [f"flagged wrongly: {s}" for s in MUST_PASS if line_hits(s)]
    # The page that lists the sources may cite their sections, and only it.
    cited = "loaded groups ([2], Appendix B.4; [1], section 3.4)"
    if line_hits(cited, SOURCES_PAGE):
        broken.append(f"flagged wrongly in {SOURCES_PAGE}: {cited}")
    if not line_hits("Appendix B.4 of the thesis", "src/physics/loading.cpp"):
        broken.append("not flagged outside " + SOURCES_PAGE + ": Appendix B.4")
    return broken


def tracked_files(root):
    if os.path.exists(os.path.join(root, ".git")):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    files = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs
                            if not d.startswith(".") and not d.startswith("build"))
        for name in sorted(names):
            files.append(os.path.relpath(os.path.join(directory, name), root))
    return files


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    broken = check_patterns()
    if broken:
        print("the check's own patterns are broken:", *broken, sep="\n  ")
        return 1
    # This file names what it forbids: it is the one file not read.
    this_file = os.path.join("tests", "tools", os.path.basename(__file__))
    hits = 0
    files = tracked_files(root)
    for path in files:
        if path == this_file:
            continue
        try:
            with open(os.path.join(root, path), "rb") as f:
                data = f.read()
        except (FileNotFoundError, IsADirectoryError):
            continue  # deleted but not yet committed, or a submodule
        if b"\0" in data:
            continue  # binary
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for message in line_hits(line, path):
                print(f"{path}:{number}: cites {message}: {line.strip()}")
                hits += 1
    if hits:
        print(f"{hits} citation(s) of documents outside the repository in "
              f"{len(files)} files; write what the code relies on in docs/ and point there")
        return 1
    print(f"{len(files)} files cite nothing outside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
