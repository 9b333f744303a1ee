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

The check is tethersim.images (python/tethersim).
"""

import argparse
import os
import sys

# The package next to this script, so that the script runs from any
# directory without installing it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
from tethersim import commands  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(prog="check_image.py", description=__doc__,
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


if __name__ == "__main__":
    sys.exit(commands.check_image(parse_arguments()))
