"""Calling the tethersim program (`tethersim validate`, `tethersim run`)
from Python.

The program is found, in this order: the path given, $TETHERSIM (what the
Slurm scripts use too), `tethersim` on PATH, then the Release and CI
builds of the repository this package sits in (build/release,
build/ci), so that a checkout works without installing anything.
"""

import os
import shutil
import subprocess

from .model_keys import ModelError

_REPOSITORY = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
_BUILDS = ("release", "ci")


class RunError(RuntimeError):
    """The program is missing or failed at run time (exit code 1: I/O, a
    stall, an internal error)."""


def find_tethersim(path=None):
    """The tethersim executable to call (see the module's docstring)."""
    if path is not None:
        candidates = [os.fspath(path)]
    elif os.environ.get("TETHERSIM"):
        candidates = [os.environ["TETHERSIM"]]
    else:
        candidates = [shutil.which("tethersim") or ""]
        candidates += [os.path.join(_REPOSITORY, "build", b, "src", "app", "tethersim") for b in _BUILDS]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise RunError(f"no tethersim program at {candidates[0]!r}" if path is not None or os.environ.get("TETHERSIM")
                   else "no tethersim program: put it on PATH, set $TETHERSIM or build the repository "
                        "(jobs/local/build.sh release)")


def call(arguments, tethersim=None, cwd=None):
    """Runs `tethersim ARGUMENTS` and returns its standard output. Exit
    code 2 (bad input) raises ModelError with the program's error line,
    any other failure RunError."""
    executable = find_tethersim(tethersim)
    done = subprocess.run([executable, *map(os.fspath, arguments)], cwd=cwd, capture_output=True, text=True)
    if done.returncode == 0:
        return done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("tethersim: error:")]
    message = (errors or lines or [f"exit code {done.returncode}"])[-1]
    if done.returncode == 2:
        raise ModelError(message.removeprefix("tethersim: error: "))
    raise RunError(f"tethersim {arguments[0]} failed with exit code {done.returncode}: {message}")
