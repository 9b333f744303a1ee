#!/usr/bin/env python3
"""The examples gallery (docs/gallery.md) shows every example, and its
pictures can be made again.

    gallery_test.py TETHERSIM SOURCE_DIR WORK_DIR

Checks: every examples/*.toml has its section in docs/gallery.md with its
picture, committed in docs/images, at most 100 kB, not blank; every
picture the page shows is there; tools/render_gallery.py runs the
examples with the given program and renders pictures of the same size in
pixels, not blank and at most 100 kB; an unknown example is refused with
exit code 2.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

exe, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(source, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402
from tethersim import images  # noqa: E402

MAX_BYTES = 100_000
root = pathlib.Path(source)
check = Checks("gallery")


def picture_ok(path, what):
    if not check(path.is_file(), f"{what}: {path} is missing"):
        return
    check(path.stat().st_size <= MAX_BYTES, f"{what}: {path} is {path.stat().st_size} bytes, more than {MAX_BYTES}")
    check(images.image_foreground(str(path))[0] > 0.02, f"{what}: {path} is blank")


page = (root / "docs" / "gallery.md").read_text()
examples = sorted(p.stem for p in (root / "examples").glob("*.toml"))
check(len(examples) >= 4, f"examples {examples}")
shown = re.findall(r"!\[[^\]]*\]\((images/[^)]+)\)", page)
for name in examples:
    check(f"`examples/{name}.toml`" in page, f"docs/gallery.md does not describe examples/{name}.toml")
    check(f"images/gallery-{name}.png" in shown, f"docs/gallery.md does not show images/gallery-{name}.png")
for image in shown:
    picture_ok(root / "docs" / image, "committed")

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = [sys.executable, str(root / "tools" / "render_gallery.py")]
environment = dict(os.environ, TETHERSIM=exe)
done = subprocess.run(script + ["-o", os.path.join(work, "images"), "--work", os.path.join(work, "runs")],
                      env=environment, capture_output=True, text=True)
check(done.returncode == 0, f"render_gallery.py: exit {done.returncode}: {done.stderr.strip()}")
print(done.stdout, end="")
for name in examples:
    made = pathlib.Path(work) / "images" / f"gallery-{name}.png"
    picture_ok(made, "rendered")
    committed = root / "docs" / "images" / f"gallery-{name}.png"
    if made.is_file() and committed.is_file():
        shapes = images.read_pixels(str(made)).shape, images.read_pixels(str(committed)).shape
        check(shapes[0] == shapes[1], f"gallery-{name}.png: rendered {shapes[0]}, committed {shapes[1]}")

done = subprocess.run(script + ["-o", os.path.join(work, "images"), "no-such-example"], env=environment,
                      capture_output=True, text=True)
check(done.returncode == 2 and "unknown example 'no-such-example'" in done.stderr,
      f"unknown example: exit {done.returncode}, {done.stderr.strip()!r}")

sys.exit(check.finish())
