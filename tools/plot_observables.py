#!/usr/bin/env python3
"""Plot the observables of a tethersim run over simulated time.

Usage:
    plot_observables.py DIR [-o OUT.png] [--energy auto|value|drift|both] [--dpi N]

DIR is a run's output directory (or its trajectory.h5). The figure has one
panel each for the kinetic energy, the particles present and escaped, the
tether count, all clusters_* observables, all tethered_* observables, the
events since t = 0 and the event rate: events per unit simulated time from
the differences of the cumulative /observables/event_counts, in total and
for blocking, tethering, restitution and random impulses separately. Axis
labels carry the model's units; count panels have integer ticks. A kinetic
energy conserved to 1e-6 (elastic models) is shown as its relative drift
(E - E0) / |E0|; --energy chooses. Action-potential windows from the stored
model text are shaded. DIR/summary.json, when present, adds run details to
the title.

The figure goes to DIR/observables.png unless -o is given; the path written
is printed. Exit codes: 0 written, 2 bad input (missing file, not a
tethersim trajectory, no observable samples).

The drawing is tethersim.plots.plot_observables (python/tethersim).
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
    parser.add_argument("-o", "--output", metavar="OUT.png", help="image to write (default DIR/observables.png)")
    parser.add_argument("--energy", choices=("auto", "value", "drift", "both"), default="auto",
                        help="kinetic energy panel: the energy, its relative drift (E - E0) / |E0|, both, "
                             "or (auto, the default) the drift when the energy is conserved to 1e-6")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the image (default 110)")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(commands.plot_observables(parse_arguments()))
