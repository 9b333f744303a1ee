#!/usr/bin/env python3
"""Render the pictures of docs/gallery.md: each example model of
examples/ run for a short time, and one of its frames drawn with
tethersim.plots.render_frame.

Usage:
    render_gallery.py [-o DIR] [--work DIR] [--tethersim PATH] [--dpi N]

Writes DIR/gallery-<example>.png (default docs/images of this repository),
with a palette of 128 colours to keep them small, and prints each path
with its size. Runs go to --work (default a
temporary directory, removed afterwards). The program is the one
--tethersim names, else $TETHERSIM, tethersim on PATH or the repository's
build (tethersim.find_tethersim). The runs are deterministic, so the
pictures change only when the examples, the engine or the drawing do.
Exit codes: 0 written, 1 a run or a picture failed, 2 bad input.
"""

import argparse
import os
import shutil
import sys
import tempfile

REPOSITORY = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
sys.path.insert(0, os.path.join(REPOSITORY, "python"))
from tethersim import ModelError, RunError, plots  # noqa: E402
from tethersim.program import call  # noqa: E402

# Each example: the settings of its short run (tethersim run --set ...),
# its end time and the frame drawn (a time), and render_frame options.
# The examples run as shipped, but for the gas: 500 of its 10 976
# particles, so that the picture shows particles rather than a block.
GALLERY = {
    "presynaptic": (["output.frame_interval=50"], 700.0, 650.0, {}),
    "membrane-sphere": (["output.frame_interval=2"], 10.0, 8.0, {"fit": True}),
    "membrane-sheet": (["output.frame_interval=2"], 16.0, 14.0, {"fit": True}),
    "gas": (["output.frame_interval=1", "initial.parameters.cells=5"], 2.0, 2.0, {}),
    "thermal-proteins": ([], 5.0, 5.0, {}),
}

# Bytes a committed picture may take.
MAX_BYTES = 100_000


def render(name, work, output, tethersim, dpi):
    settings, end_time, when, options = GALLERY[name]
    run_directory = os.path.join(work, name)
    arguments = ["run", os.path.join(REPOSITORY, "examples", f"{name}.toml"), "--output", run_directory,
                 "--end-time", repr(end_time), "--overwrite", "--quiet"]
    for setting in settings:
        arguments += ["--set", setting]
    call(arguments, tethersim)
    path = os.path.join(output, f"gallery-{name}.png")
    plots.render_frame(run_directory, path=path, time=when, dpi=dpi, **options)
    shrink(path)
    return path


def shrink(path):
    """Rewrites a PNG with a palette of 128 colours: a third of the bytes,
    and no difference to see in pictures of a few flat colours. Pillow
    comes with matplotlib."""
    from PIL import Image
    with Image.open(path) as image:
        quantized = image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    quantized.save(path, optimize=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", default=os.path.join(REPOSITORY, "docs", "images"), metavar="DIR")
    parser.add_argument("--work", metavar="DIR", help="where the runs go (default: a temporary directory)")
    parser.add_argument("--tethersim", metavar="PATH", help="the tethersim program")
    parser.add_argument("--dpi", type=int, default=70, help="resolution of the pictures (default 70)")
    parser.add_argument("examples", nargs="*", metavar="EXAMPLE", help=f"some of {', '.join(GALLERY)} (default all)")
    args = parser.parse_args()
    unknown = [e for e in args.examples if e not in GALLERY]
    if unknown:
        print(f"render_gallery.py: error: unknown example {unknown[0]!r} (known: {', '.join(GALLERY)})",
              file=sys.stderr)
        return 2
    os.makedirs(args.output, exist_ok=True)
    work = args.work or tempfile.mkdtemp(prefix="tethersim-gallery-")
    status = 0
    try:
        for name in args.examples or GALLERY:
            path = render(name, work, args.output, args.tethersim, args.dpi)
            size = os.path.getsize(path)
            print(f"{path} {size} bytes")
            if size > MAX_BYTES:
                print(f"render_gallery.py: {path} is {size} bytes, more than {MAX_BYTES}: lower --dpi",
                      file=sys.stderr)
                status = 1
    except (ModelError, RunError) as error:
        print(f"render_gallery.py: error: {error}", file=sys.stderr)
        status = 1
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
