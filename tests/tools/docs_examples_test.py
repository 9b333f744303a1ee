#!/usr/bin/env python3
"""The documentation's examples run: every TOML snippet of README.md and
docs/*.md validates, and every quoted error is what the program says.

Markers (HTML comments, invisible on the rendered page) say how:

  <!-- docs-check: fragment -->        before a ```toml fence: the snippet is
                                       part of a model; it is appended to the
                                       minimal example (model-format.md,
                                       section 1) and the whole validated.
  <!-- docs-check: skip REASON -->     before a fence: neither validated nor
                                       its quoted errors checked, for the
                                       reason given.
  <!-- docs-check: error INPUT [ARGS] -->
      before a fence, one per quoted line: the fence's lines starting with
      "tethersim: error:" are, in order, exactly what `tethersim validate
      INPUT ARGS` prints (run in INPUT's directory, so that the message
      names the file as the doc does). Followed by text on the same line:
      the first `quoted` span after the marker is part of that message.

  <!-- docs-check: python -->          before a ```python fence of README.md:
                                       run by python_tutorial_test.py
                                       (which runs every python block of
                                       docs/python-tutorial.md unmarked).

INPUT paths are relative to the repository. An unmarked ```toml fence is a
complete model. Usage: docs_examples_test.py TETHERSIM REPOSITORY
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

MARKER = re.compile(r"<!--\s*docs-check:\s*(\w[\w-]*)\s*(.*?)\s*-->")
FENCE = re.compile(r"^\s*```(\w*)\s*$")


def validate(tethersim, model, args=(), cwd=None):
    """Exit code and the stderr of `tethersim validate model args`."""
    done = subprocess.run([tethersim, "validate", model, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stderr.strip()


def blocks(lines):
    """(line number, language, text, markers before it) of every fence, and
    the inline markers as (line number, marker, argument, rest of line)."""
    pending, inline, found = [], [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            j = i + 1
            while j < len(lines) and not FENCE.match(lines[j]):
                j += 1
            found.append((i + 1, fence.group(1), "\n".join(lines[i + 1:j]) + "\n", pending))
            pending = []
            i = j + 1
            continue
        for m in MARKER.finditer(line):
            rest = line[m.end():]
            if "`" in rest:
                inline.append((i + 1, m.group(1), m.group(2), rest))
            else:
                pending.append((i + 1, m.group(1), m.group(2)))
        i += 1
    return found, inline


def main():
    tethersim, root = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2]).resolve()
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    minimal = None
    failures, checked = [], {"snippets": 0, "fragments": 0, "skipped": 0, "errors": 0}
    work = pathlib.Path(tempfile.mkdtemp(prefix="tethersim-docs-"))

    def check_error(where, marker_argument, expected, contains):
        argv = shlex.split(marker_argument)
        if not argv:
            failures.append(f"{where}: error marker without an input")
            return
        path = root / argv[0]
        code, stderr = validate(tethersim, path.name, argv[1:], cwd=path.parent)
        checked["errors"] += 1
        if code != 2:
            failures.append(f"{where}: {argv[0]} gave exit code {code}, not 2 ({stderr!r})")
        elif (contains and expected not in stderr) or (not contains and stderr != expected):
            failures.append(f"{where}: the doc quotes\n    {expected}\n  the program says\n    {stderr}")

    for page in pages:
        name = page.relative_to(root)
        lines = page.read_text().splitlines()
        found, inline = blocks(lines)
        for number, marker, argument, rest in inline:
            if marker != "error":
                failures.append(f"{name}:{number}: marker '{marker}' must precede a fence")
                continue
            span = re.search(r"`([^`]+)`", rest)
            check_error(f"{name}:{number}", argument, span.group(1), contains=True)
        for number, language, text, markers in found:
            where = f"{name}:{number}"
            kinds = [m[1] for m in markers]
            if "skip" in kinds:
                checked["skipped"] += 1
                continue
            if language == "toml":
                if "fragment" in kinds:
                    if minimal is None:
                        failures.append(f"{where}: a fragment before the minimal example")
                        continue
                    text = minimal + "\n" + text
                    checked["fragments"] += 1
                else:
                    checked["snippets"] += 1
                    if minimal is None and page.name == "model-format.md":
                        minimal = text  # section 1 comes first
                model = work / f"snippet-{page.stem}-{number}.toml"
                model.write_text(text)
                code, stderr = validate(tethersim, str(model))
                if code != 0:
                    failures.append(f"{where}: the snippet does not validate: {stderr}")
            errors = [m for m in markers if m[1] == "error"]
            quoted = [line for line in text.splitlines() if line.startswith("tethersim: error:")]
            if errors and len(errors) != len(quoted):
                failures.append(f"{where}: {len(errors)} error markers for {len(quoted)} quoted errors")
                continue
            for (marker_line, _, argument), expected in zip(errors, quoted):
                check_error(f"{name}:{marker_line}", argument, expected, contains=False)
            if quoted and not errors:
                failures.append(f"{where}: quoted errors without their input (<!-- docs-check: error INPUT -->)")

    print(f"checked {checked}")
    if minimal is None:
        failures.append("docs/model-format.md has no minimal example")
    if checked["errors"] == 0 or checked["snippets"] == 0:
        failures.append("no snippet or no quoted error was found: the markers are not being read")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
