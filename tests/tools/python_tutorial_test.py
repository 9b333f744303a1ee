#!/usr/bin/env python3
"""The Python tutorial runs: every ```python block of
docs/python-tutorial.md, in order, in one namespace, in an empty
directory, with the package of this repository and the given tethersim
program; a plain ``` block right after a python block is what that block
prints, exactly. A block marked <!-- docs-check: skip REASON --> is not
run (the markers of docs_examples_test.py). The python blocks of README.md
marked <!-- docs-check: python --> run too, each on its own.

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
# Pages whose python blocks run only when marked <!-- docs-check: python -->,
# each on its own (the others read runs made elsewhere).
MARKED_PAGES = (pathlib.Path(source) / "README.md",)


def run_blocks(page, chosen, failures, shared=True):
    """Runs the python blocks of `page` that chosen(markers) accepts, in
    order, in one namespace (shared) or each in its own; checks a plain
    fence right after a block against what it printed. Returns how many ran."""
    lines = page.read_text().splitlines()
    found, _ = blocks(lines)
    namespace = {"__name__": "__tutorial__"}
    ran = 0
    for k, (number, language, text, markers) in enumerate(found):
        if language != "python" or not chosen(markers):
            continue
        if not shared:
            namespace = {"__name__": "__tutorial__"}
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(text, f"{page.name}:{number}", "exec"), namespace)
        except Exception:
            failures.append(f"{page.name}:{number}: the block raised\n{traceback.format_exc()}")
            return ran
        ran += 1
        sys.stdout.write(printed.getvalue())
        follower = found[k + 1] if k + 1 < len(found) else None
        closing = number + text.count("\n")  # index of the closing fence's line
        if follower and follower[1] == "" and not any(line.strip() for line in lines[closing + 1:follower[0] - 1]):
            if printed.getvalue() != follower[2]:
                failures.append(f"{page.name}:{follower[0]}: the page shows\n{follower[2]}the block printed\n"
                                f"{printed.getvalue()}")
    return ran


def main():
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    failures = []
    ran = run_blocks(PAGE, lambda markers: not any(m[1] == "skip" for m in markers), failures)
    if ran < 5:
        failures.append(f"only {ran} python blocks of {PAGE.name} ran: the page or its fences changed")
    for picture in PICTURES:
        if not failures and (not os.path.isfile(picture) or images.image_foreground(picture)[0] < 0.02):
            failures.append(f"{picture} is missing or blank")
    for page in MARKED_PAGES:
        os.makedirs(os.path.join(work, page.stem))
        os.chdir(os.path.join(work, page.stem))
        marked = run_blocks(page, lambda markers: any(m[1] == "python" for m in markers), failures, shared=False)
        ran += marked
        if marked == 0:
            failures.append(f"no marked python block of {page.name} ran")
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    print(f"python tutorial: {ran} blocks ran" + ("" if failures else ", ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
