#!/usr/bin/env python3
"""Render one frame of a tethersim trajectory as a matplotlib picture.

Usage:
    render_frame.py DIR [--frame K | --time T] [-o OUT.png] [options]

DIR is a run's output directory (or its trajectory.h5). The frame is the
last one unless --frame K (an index; negative counts from the end) or
--time T (the frame nearest to simulated time T) is given.

Particles are coloured by species, with the species names in the legend,
and sized by the species radius taken from the model text stored in the
trajectory (with any species.X.radius override recorded for the run).
Species whose particles are large next to the box (membrane shells, active
zones) are drawn as outlines, and tethers to them are left out unless
--all-tethers is given. Absent particles (escaped: NaN rows, id -1) are
skipped. Tethers are thin grey segments. 3-D data give a 3-D scatter with
equal axis scaling, 2-D data a flat scatter, and 1-D data plot x against
the particle row. Above --max-points particles and --max-tethers tethers a
random subset is drawn and the title says so.

The image goes to DIR/frame_<K>.png unless -o is given; the path written is
printed. Exit codes: 0 written, 2 bad input (missing file, not a tethersim
trajectory, no such frame).

The drawing is tethersim.plots.render_frame (python/tethersim).
"""

import argparse
import os
import sys

# The package next to this script, so that the script runs from any
# directory without installing it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
from tethersim import commands  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", metavar="DIR", help="run output directory (or its trajectory.h5)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--frame", type=int, metavar="K", help="frame index (default: the last; negative counts from the end)")
    which.add_argument("--time", type=float, metavar="T", help="the frame nearest to simulated time T")
    parser.add_argument("-o", "--output", metavar="OUT.png", help="image to write (default DIR/frame_<K>.png)")
    parser.add_argument("--max-points", type=int, default=200000, metavar="N",
                        help="draw a random subset above N particles (default 200000)")
    parser.add_argument("--max-tethers", type=int, default=20000, metavar="N",
                        help="draw a random subset above N tethers (default 20000)")
    parser.add_argument("--all-tethers", action="store_true",
                        help="also draw tethers to particles shown as outlines")
    parser.add_argument("--no-tethers", action="store_true", help="draw no tethers")
    parser.add_argument("--fit", action="store_true", help="zoom to the particles instead of the whole box")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the image (default 110)")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(commands.render_frame(parse_arguments()))
