"""Building models and reading the output of `tethersim run` from Python.

    import tethersim
    m = tethersim.Model("chain", end_time=100.0)   # species, pairs, particles placed with ids counted
    ...                                           # (docs/python-tutorial.md)
    run = m.run("out")                       # writes the TOML, runs the program, opens the output
    run = tethersim.open_run("out")          # an output directory
    frame = run.frame(-1)                    # positions, ids, species of the last frame
    table = run.observables()                # pandas DataFrame, one row per sample
    edges = run.tethers(-1)                  # tethers of a frame as (id, id) pairs
    u = run.universe()                       # MDAnalysis Universe over the frames
    tethersim.plots.plot_observables(run, "obs.png")
    tethersim.plots.render_frame(run, -1, "frame.png")

The layout read here is described in docs/output-format.md, the model
files written in docs/model-format.md. Reading needs h5py and numpy;
pandas for observables(), MDAnalysis for universe(), gsd for export_gsd(),
matplotlib for tethersim.plots (all Debian packages the setup script
installs). Building a model needs the standard library only, and the
tethersim program to validate or run it.

The names below are loaded on first use, so that the command-line tools in
tools/ can import tethersim.commands and report a missing h5py or numpy in
one line instead of a traceback.
"""

import importlib as _importlib

__all__ = ["Model", "Group", "ModelError", "RunError", "find_tethersim", "Frame", "Run", "TrajectoryError",
           "open_run", "export_gsd", "plots", "readable_unit"]

# Where each public name lives: module and attribute (None: the module).
_SOURCES = {
    "Model": (".model", "Model"),
    "Group": (".model", "Group"),
    "ModelError": (".model_keys", "ModelError"),
    "RunError": (".program", "RunError"),
    "find_tethersim": (".program", "find_tethersim"),
    "Frame": (".run", "Frame"),
    "Run": (".run", "Run"),
    "TrajectoryError": (".run", "TrajectoryError"),
    "open_run": (".run", "open_run"),
    "export_gsd": (".gsd_export", "export_gsd"),
    "plots": (".plots", None),
    "readable_unit": (".units", "readable_unit"),
}


def __getattr__(name):
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _SOURCES[name]
    module = _importlib.import_module(module_name, __name__)
    return module if attribute is None else getattr(module, attribute)


def __dir__():
    """The public names (loaded on first use, so not yet in globals()),
    without the module's own helpers."""
    return sorted(set(__all__) | {n for n in globals() if n.startswith("__")})
