"""Reading the output of `tethersim run` from Python.

    import tethersim
    run = tethersim.open_run("out")          # an output directory
    frame = run.frame(-1)                    # positions, ids, species of the last frame
    table = run.observables()                # pandas DataFrame, one row per sample
    edges = run.tethers(-1)                  # tethers of a frame as (id, id) pairs
    u = run.universe()                       # MDAnalysis Universe over the frames
    tethersim.plots.plot_observables(run, "obs.png")
    tethersim.plots.render_frame(run, -1, "frame.png")

The layout read here is described in docs/output-format.md. Needs h5py and
numpy; pandas for observables(), MDAnalysis for universe(), gsd for
export_gsd(), matplotlib for tethersim.plots (all Debian packages the setup
script installs).

The names below are loaded on first use, so that the command-line tools in
tools/ can import tethersim.commands and report a missing h5py or numpy in
one line instead of a traceback.
"""

import importlib

__all__ = ["Frame", "Run", "TrajectoryError", "open_run", "export_gsd", "plots"]

_FROM_RUN = ("Frame", "Run", "TrajectoryError", "open_run")


def __getattr__(name):
    if name in _FROM_RUN:
        return getattr(importlib.import_module(".run", __name__), name)
    if name == "export_gsd":
        return importlib.import_module(".gsd_export", __name__).export_gsd
    if name == "plots":
        return importlib.import_module(".plots", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
