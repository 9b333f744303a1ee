#!/usr/bin/env python3
"""Check that a rendered image is not blank.

Usage:
    check_image.py PNG [--min-fraction F] [--tolerance D]

The background is taken to be the most common colour of the image. The
image passes when at least a fraction F (default 0.005) of its pixels
differ noticeably from it: by more than D (default 0.1, on a 0-1 scale) in
some colour or alpha channel. Meant for scripts that render pictures
(render_frame.py, render_paraview.py) and want to catch empty output.

Exit codes: 0 not blank (one line with the fraction is printed), 1 blank
(one line saying why), 2 bad input (missing or unreadable file).
"""

import argparse
import os
import sys

try:
    import numpy as np
except ImportError:  # reported by main() after --help had its chance
    np = None

PROGRAM = "check_image.py"


class UsageError(Exception):
    """A problem with the user's input: reported in one line, exit code 2."""


def parse_arguments():
    parser = argparse.ArgumentParser(prog=PROGRAM, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("png", metavar="PNG", help="image to check")
    parser.add_argument("--min-fraction", type=float, default=0.005, metavar="F",
                        help="smallest fraction of non-background pixels (default 0.005)")
    parser.add_argument("--tolerance", type=float, default=0.1, metavar="D",
                        help="channel difference (0-1) that counts as different (default 0.1)")
    args = parser.parse_args()
    if not 0 <= args.min_fraction <= 1:
        parser.error("--min-fraction must lie between 0 and 1")
    if not 0 <= args.tolerance < 1:
        parser.error("--tolerance must lie in [0, 1)")
    return args


def read_pixels(path):
    """The image as a float array [height, width, channels] scaled to 0-1."""
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    try:
        import matplotlib.image
    except ImportError:
        raise UsageError(f"matplotlib is not available to {sys.executable}; "
                         "install python3-matplotlib or run with /usr/bin/python3") from None
    try:
        image = matplotlib.image.imread(path)
    except Exception as error:  # PIL and matplotlib raise various types
        raise UsageError(f"{path}: cannot read as an image ({error})") from None
    image = np.asarray(image)
    if image.dtype.kind in "ui":
        image = image / np.iinfo(image.dtype).max
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3 or image.size == 0:
        raise UsageError(f"{path}: unexpected image shape {image.shape}")
    return image.astype(np.float32)


def background_colour(pixels):
    """The most common colour (channels quantised to 8 bits)."""
    channels = pixels.shape[2]
    flat = np.round(pixels.reshape(-1, channels) * 255).astype(np.uint64)
    packed = np.zeros(len(flat), dtype=np.uint64)  # one integer per colour
    for c in range(channels):
        packed = (packed << np.uint64(8)) | flat[:, c]
    values, counts = np.unique(packed, return_counts=True)
    mode = int(values[np.argmax(counts)])
    colour = [(mode >> (8 * (channels - 1 - c))) & 0xFF for c in range(channels)]
    return np.array(colour, dtype=np.float32) / 255


def foreground_fraction(pixels, background, tolerance):
    """Fraction of pixels with some channel farther than `tolerance` from the background."""
    differs = (np.abs(pixels - background) > tolerance).any(axis=2)
    return float(differs.mean())


def main():
    args = parse_arguments()
    if np is None:
        raise UsageError(f"numpy is not available to {sys.executable}; "
                         "install python3-numpy or run with /usr/bin/python3")
    pixels = read_pixels(args.png)
    background = background_colour(pixels)
    fraction = foreground_fraction(pixels, background, args.tolerance)
    colour = "(" + ", ".join(f"{c:.2f}" for c in background) + ")"
    if fraction < args.min_fraction:
        print(f"{args.png}: blank: only {fraction:.4%} of pixels differ from the background "
              f"colour {colour} (need {args.min_fraction:.4%})")
        return 1
    print(f"{args.png}: ok: {fraction:.2%} of pixels differ from the background colour {colour}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except UsageError as error:
        print(f"{PROGRAM}: error: {error}", file=sys.stderr)
        sys.exit(2)
