"""The commands behind the scripts in tools/: each takes the script's parsed
arguments (an argparse Namespace), does the work with the package's
functions, prints the path it wrote and returns the exit code.

Bad input (a missing directory, a file that is not a tethersim trajectory,
a frame that does not exist, a missing Python module) is one line on stderr,
"PROGRAM: error: ...", and exit code 2, never a traceback. This module
imports nothing beyond the standard library until a command runs, so that
a missing h5py or numpy is reported that way too.
"""

import importlib.util
import os
import sys


class _Refusal(Exception):
    pass


def _program():
    return os.path.basename(sys.argv[0]) or "tethersim"


def _require(*names):
    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if missing:
        raise _Refusal(f"{', '.join(missing)} not available to {sys.executable}; "
                       "install the Debian python3-* packages or run with /usr/bin/python3")


def _guarded(work, *modules):
    """Runs work() after checking modules; maps input errors to exit code 2."""
    program = _program()
    try:
        _require(*modules)
        from .images import ImageError
        errors = (ImageError,)
        if "h5py" in modules:
            from .run import TrajectoryError
            errors += (TrajectoryError,)
        try:
            return work()
        except errors as error:
            raise _Refusal(str(error)) from None
        except KeyError as error:  # h5py: a dataset or group the layout promises is missing
            raise _Refusal("incomplete tethersim trajectory: "
                           f"{error.args[0] if error.args else error}") from None
        except OSError as error:  # h5py: a damaged file (e.g. a crash during a write)
            raise _Refusal(f"cannot read the trajectory: {error}") from None
    except _Refusal as refusal:
        print(f"{program}: error: {refusal}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def plot_observables(args):
    """tools/plot_observables.py: DIR [-o OUT.png] [--energy MODE] [--dpi N]."""
    def work():
        from . import plots
        from .run import Run
        with Run(args.directory) as run:
            path = args.output or os.path.join(run.directory, "observables.png")
            plots.plot_observables(run, path, energy=args.energy, dpi=args.dpi)
        print(path)
        return 0
    return _guarded(work, "numpy", "h5py", "matplotlib", "pandas")


def render_frame(args):
    """tools/render_frame.py: DIR [--frame K | --time T] [-o OUT.png] [options]."""
    def work():
        from . import plots
        from .run import Run
        with Run(args.directory) as run:
            k = run.frame_index(args.frame, args.time)
            path = args.output or os.path.join(run.directory, f"frame_{k}.png")
            plots.render_frame(run, k, path, max_points=args.max_points, max_tethers=args.max_tethers,
                               all_tethers=args.all_tethers, no_tethers=args.no_tethers, fit=args.fit,
                               dpi=args.dpi)
        print(path)
        return 0
    return _guarded(work, "numpy", "h5py", "matplotlib")


def check_image(args):
    """tools/check_image.py: PNG [--min-fraction F] [--tolerance D]; exit 1 when blank."""
    def work():
        from .images import image_foreground
        fraction, background = image_foreground(args.png, args.tolerance)
        colour = "(" + ", ".join(f"{c:.2f}" for c in background) + ")"
        if fraction < args.min_fraction:
            print(f"{args.png}: blank: only {fraction:.4%} of pixels differ from the background "
                  f"colour {colour} (need {args.min_fraction:.4%})")
            return 1
        print(f"{args.png}: ok: {fraction:.2%} of pixels differ from the background colour {colour}")
        return 0
    return _guarded(work, "numpy", "matplotlib")


def scaling_report(args):
    """tools/scaling_report.py: DIR... [-o PREFIX] [--dpi N]."""
    # report() prints its own one-line refusals (exit 2); it reads no HDF5.
    from .scaling import report
    try:
        return report(args.directories, args.output, args.dpi)
    except KeyboardInterrupt:
        return 130
