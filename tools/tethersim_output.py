"""Shared reading helpers for the tethersim output tools.

Not a command of its own: plot_observables.py and render_frame.py import it
(and render_paraview.py when h5py is available) to open an output
directory, check that trajectory.h5 really is a tethersim trajectory and
read the small things every tool needs (species names and radii, model
name, frame times, summary.json).

Errors meant for the user are raised as UsageError; `run_main` turns them
into one line on stderr and exit code 2.
"""

import json
import os
import sys
import tomllib

# So that the trajectory of a running simulation (file still open for
# writing) can be read where HDF5 file locking is enforced.
os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

TRAJECTORY_NAME = "trajectory.h5"
SUMMARY_NAME = "summary.json"
CHECKPOINT_NAME = "checkpoint.h5"

# Columns of /observables/event_counts/value, in file order.
EVENT_KINDS = (
    "action_potential",
    "restitution",
    "periodic_impulse",
    "random_impulse",
    "blocking",
    "tethering",
    "wall",
    "escape",
    "sector_crossing",
)


class UsageError(Exception):
    """A problem with the user's input: reported in one line, exit code 2."""


def run_main(main):
    """Calls main() and maps UsageError to a one-line message and exit 2."""
    program = os.path.basename(sys.argv[0])
    try:
        sys.exit(main())
    except UsageError as error:
        print(f"{program}: error: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyError as error:  # h5py: a dataset or group the layout promises is missing
        print(f"{program}: error: incomplete tethersim trajectory: {error.args[0] if error.args else error}",
              file=sys.stderr)
        sys.exit(2)
    except OSError as error:  # h5py: damaged file (e.g. a crash during a write)
        print(f"{program}: error: cannot read the trajectory: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)


def require_modules(*names):
    """Exits with a one-line message (code 2) if a needed module is missing."""
    import importlib.util
    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if missing:
        program = os.path.basename(sys.argv[0])
        print(f"{program}: error: {', '.join(missing)} not available to {sys.executable}; "
              "install the Debian python3-* packages or run with /usr/bin/python3", file=sys.stderr)
        sys.exit(2)


def import_h5py():
    """Returns the h5py module, or raises UsageError naming the package."""
    try:
        import h5py
    except ImportError:
        raise UsageError(
            f"h5py is not available to {sys.executable}; install python3-h5py "
            "or run the tool with /usr/bin/python3"
        ) from None
    return h5py


def trajectory_path(directory):
    """The trajectory file of an output directory (a .h5 path is accepted as is)."""
    if os.path.isfile(directory):
        return directory
    if not os.path.isdir(directory):
        raise UsageError(f"{directory}: no such output directory")
    path = os.path.join(directory, TRAJECTORY_NAME)
    if not os.path.isfile(path):
        raise UsageError(f"{directory}: no {TRAJECTORY_NAME} in this directory")
    return path


def output_directory(directory):
    """The directory holding the trajectory (for summary.json and outputs)."""
    if os.path.isfile(directory):
        return os.path.dirname(directory) or "."
    return directory


def open_trajectory(directory):
    """Opens DIR/trajectory.h5 read-only after checking it is a tethersim trajectory."""
    h5py = import_h5py()
    path = trajectory_path(directory)
    try:
        f = h5py.File(path, "r")
    except OSError as error:
        raise UsageError(f"{path}: cannot open as HDF5 ({error})") from None
    creator = f.get("h5md/creator")
    name = decode(creator.attrs.get("name", b"")) if creator is not None else ""
    required = ("particles/all/position/value", "particles/all/species", "parameters/tethersim")
    if name != "tethersim" or any(key not in f for key in required):
        f.close()
        raise UsageError(f"{path}: not a tethersim trajectory (no tethersim H5MD layout)")
    return f


def decode(value):
    """An HDF5 string attribute (bytes, str or numpy scalar) as str."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "tolist"):
        value = value.tolist()
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
    return str(value)


def model_name(f):
    return decode(f["parameters/tethersim"].attrs.get("model_name", "?"))


def species_names(f):
    """Species names by index, from the "names" attribute of /particles/all/species."""
    names = f["particles/all/species"].attrs.get("names")
    if names is None:
        return []
    return [decode(n) for n in names]


def dimensions(f):
    """Spatial dimensions D of the stored positions."""
    return int(f["particles/all/position/value"].shape[2])


def frame_times(f):
    return f["particles/all/position/time"][:]


def layout(f):
    """The trajectory layout: 2 and later store positions in the box frame
    and tethers as particle ids; 1 (older files) absolute positions and rows."""
    return int(f["parameters/tethersim"].attrs.get("layout", 1))


def unit(dataset):
    """The H5MD unit attribute of a dataset ("" when the model names none)."""
    return decode(dataset.attrs["unit"]) if "unit" in dataset.attrs else ""


def with_unit(label, text):
    """An axis label with its unit in brackets, when there is one."""
    return f"{label} [{text}]" if text else label


def box_offset(f):
    """The box corner lo (model coordinates = stored positions + offset in layout 2)."""
    import numpy as np
    box = f["particles/all/box"]
    d = dimensions(f)
    return box["offset"][:d].astype(float) if "offset" in box else np.zeros(d)


def box_edges(f, k=0):
    """Edge lengths of the box at frame k (a vector in layout 1, a matrix per frame in 2)."""
    import numpy as np
    edges = f["particles/all/box/edges"]
    if isinstance(edges, type(f["particles/all"])):  # a group: time-dependent [F, D, D]
        values = edges["value"]
        if values.shape[0] == 0:
            return np.full(dimensions(f), np.nan)
        return np.diagonal(values[min(k, values.shape[0] - 1)]).astype(float)
    return edges[:].astype(float)


def positions(f, k):
    """Positions [N, D] of frame k in the model's coordinates (NaN rows: gone)."""
    value = f["particles/all/position/value"][k]
    return value + box_offset(f) if layout(f) >= 2 else value


def tether_rows(f, k):
    """Tethers of frame k as row pairs [M, 2] (rows index the particle datasets)."""
    import numpy as np
    if "connectivity/tethers/value" not in f:
        return np.zeros((0, 2), dtype=np.int64)
    source = f["connectivity/tethers/value"]
    if layout(f) >= 2 and "parameters/tethersim/tether_rows" in f:
        source = f["parameters/tethersim/tether_rows"]  # ids are not rows
    count = source.shape[1]
    if "parameters/tethersim/tether_counts" in f:
        count = min(count, int(f["parameters/tethersim/tether_counts"][k]))
    return source[k, :count] if count > 0 else np.zeros((0, 2), dtype=np.int64)


def model_document(f):
    """The model TOML stored in /parameters/tethersim/model_text, parsed (or None)."""
    if "parameters/tethersim/model_text" not in f:
        return None
    text = bytes(f["parameters/tethersim/model_text"][()]).decode("utf-8", "replace")
    try:
        return tomllib.loads(text.rstrip("\0"))
    except tomllib.TOMLDecodeError:
        return None


def read_overrides(f, directory=None):
    """The --set overrides of the run, KEY=VALUE strings.

    Newer trajectories hold them in the "overrides" attribute of
    /parameters/tethersim; otherwise they are taken from DIR/checkpoint.h5.
    """
    stored = f["parameters/tethersim"].attrs.get("overrides")
    if stored is not None:
        return [decode(o) for o in stored]
    if directory is None:
        return []
    path = os.path.join(output_directory(directory), CHECKPOINT_NAME)
    if not os.path.isfile(path):
        return []
    h5py = import_h5py()
    try:
        with h5py.File(path, "r") as c:
            if "checkpoint/model_overrides" not in c:
                return []
            text = bytes(c["checkpoint/model_overrides"][()]).decode("utf-8", "replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if "=" in line]


def species_radii(f, directory=None):
    """Radius of each species by index, from the stored model text, or None.

    Overrides of the form species.NAME.radius=R (or species.INDEX.radius=R)
    recorded for the run (see read_overrides) are applied.
    """
    document = model_document(f)
    names = species_names(f)
    if document is None or not names:
        return None
    radii = {}
    for index, table in enumerate(document.get("species", [])):
        if isinstance(table, dict) and "radius" in table:
            radii[str(table.get("name", index))] = table["radius"]
            radii[str(index)] = table["radius"]
    for line in read_overrides(f, directory):
        key, value = line.split("=", 1)
        parts = key.strip().split(".")
        if len(parts) == 3 and parts[0] == "species" and parts[2] == "radius":
            try:
                radii[parts[1]] = float(value)
            except ValueError:
                pass
    result = []
    for index, name in enumerate(names):
        radius = radii.get(name, radii.get(str(index)))
        if not isinstance(radius, (int, float)) or radius < 0:
            return None
        result.append(float(radius))
    return result


# A species is drawn as outlines (membrane shell, active zone) when its radius
# exceeds this fraction of the largest box edge and it has few particles;
# tethers to such particles are hidden by default.
OUTLINE_FRACTION = 0.08
MAX_OUTLINES = 50


def outline_species(radii, species, present, extent):
    """Indices of the species to draw as outlines (see OUTLINE_FRACTION)."""
    if radii is None:
        return set()
    large = set()
    for s, r in enumerate(radii):
        count = int((present & (species == s)).sum())
        if r > OUTLINE_FRACTION * extent and 0 < count <= MAX_OUTLINES:
            large.add(s)
    return large


def action_potential_windows(f):
    """(start, end) pairs of the action potentials in the stored model text."""
    document = model_document(f) or {}
    windows = document.get("action_potential", {}).get("windows", [])
    result = []
    for w in windows:
        if isinstance(w, dict) and "start" in w and "end" in w:
            result.append((float(w["start"]), float(w["end"])))
    return result


def read_summary(directory):
    """DIR/summary.json as a dict, or None when absent or unreadable."""
    path = os.path.join(output_directory(directory), SUMMARY_NAME)
    try:
        with open(path, encoding="utf-8") as stream:
            return json.load(stream)
    except (OSError, ValueError):
        return None
