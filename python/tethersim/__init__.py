"""Reading the output of `tethersim run` from Python.

    import tethersim
    run = tethersim.open_run("out")          # an output directory
    frame = run.frame(-1)                    # positions, ids, species of the last frame
    table = run.observables()                # pandas DataFrame, one row per sample
    edges = run.tethers(-1)                  # tethers of a frame as (id, id) pairs
    u = run.universe()                       # MDAnalysis Universe over the frames

The layout read here is described in docs/output-format.md. Needs h5py and
numpy; pandas for observables(), MDAnalysis for universe(), gsd for
export_gsd() (all Debian packages the setup script installs).
"""

from .run import Frame, Run, open_run
from .gsd_export import export_gsd

__all__ = ["Frame", "Run", "open_run", "export_gsd"]
