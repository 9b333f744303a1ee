#!/usr/bin/env python3
"""The Python tutorial runs: every ```python block of
docs/python-tutorial.md, in order, in one namespace, in an empty
directory, with the package of this repository and the given tethersim
program; a plain ``` block right after a python block is what that block
prints, exactly. A block marked <!-- docs-check: skip REASON --> is not
run (the markers of docs_examples_test.py).

    python_tutorial_test.py TETHERSIM SOURCE_DIR WORK_DIR

Fails on the first block that raises, on printed output that differs from
the page, and when the page has no python blocks or pictures it says it
draws are blank.
"""

import contextlib
import io
import os
import pathlib
import shutil
import sys
import traceback

exe, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(source, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["TETHERSIM"] = exe
from docs_examples_test import blocks  # noqa: E402
from tethersim import images  # noqa: E402

PAGE = pathlib.Path(source) / "docs" / "python-tutorial.md"
PICTURES = ("chain-out/observables.png", "chain-out/last.png")


def main():
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    lines = PAGE.read_text().splitlines()
    found, _ = blocks(lines)
    namespace = {"__name__": "__tutorial__"}
    ran, failures = 0, []
    for k, (number, language, text, markers) in enumerate(found):
        if language != "python" or any(m[1] == "skip" for m in markers):
            continue
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(text, f"{PAGE.name}:{number}", "exec"), namespace)
        except Exception:
            failures.append(f"{PAGE.name}:{number}: the block raised\n{traceback.format_exc()}")
            break
        ran += 1
        sys.stdout.write(printed.getvalue())
        follower = found[k + 1] if k + 1 < len(found) else None
        # The output block: a plain fence, with only blank lines between.
        closing = number + text.count("\n")  # index of the closing fence's line
        if follower and follower[1] == "" and not any(line.strip() for line in lines[closing + 1:follower[0] - 1]):
            if printed.getvalue() != follower[2]:
                failures.append(f"{PAGE.name}:{follower[0]}: the page shows\n{follower[2]}the block printed\n"
                                f"{printed.getvalue()}")
    if ran < 5:
        failures.append(f"only {ran} python blocks ran: the page or its fences changed")
    for picture in PICTURES:
        if not failures and (not os.path.isfile(picture) or images.image_foreground(picture)[0] < 0.02):
            failures.append(f"{picture} is missing or blank")
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    print(f"python tutorial: {ran} blocks ran" + ("" if failures else ", ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
