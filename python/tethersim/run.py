"""One run's output directory: frames, tethers, observables, summary.

Reads both trajectory layouts: layout 2 and later store positions in the
box frame (the box corner `box/offset` added back here) and tethers as
particle ids beside their rows (`tether_rows`); layout 1 (older files)
stored model coordinates and tethers as rows, and may lack the species
radii, the overrides and the tether counts, which are then taken from the
stored model text, checkpoint.h5 and the array width.
"""

import json
import os
import tomllib
from dataclasses import dataclass

import h5py
import numpy as np

# So that the trajectory of a running simulation (still open for writing)
# can be read where HDF5 file locking is enforced.
os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

TRAJECTORY = "trajectory.h5"
SUMMARY = "summary.json"
CHECKPOINT = "checkpoint.h5"
OBSERVABLES_LOG = "observables.jsonl"

# Columns of /observables/event_counts/value in files whose dataset has no
# "columns" attribute.
EVENT_KINDS = ("action_potential", "restitution", "periodic_impulse", "random_impulse", "blocking",
               "tethering", "wall", "escape", "sector_crossing")

# Observables in the order of docs/output-format.md section 3.6; the
# per-species ones (clusters_*, tethered_*) follow in name order.
OBSERVABLE_ORDER = ("kinetic_energy", "momentum", "particles", "escapes", "tethers", "event_counts")
# The ones written after the per-species ones (section 3.6 of docs/output-format.md).
OBSERVABLE_ORDER_LAST = ("temperature",)

# Observables whose values are doubles; every other one is a count (int64).
FLOAT_OBSERVABLES = ("kinetic_energy", "momentum", "temperature")


class TrajectoryError(ValueError):
    """The path is not a readable tethersim run (missing, not HDF5, not a
    tethersim trajectory, incomplete) or asks for what it does not hold."""


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "tolist"):
        return _text(value.tolist())
    return str(value)


def _observable_order(names):
    names = list(names)
    first = [n for n in OBSERVABLE_ORDER if n in names]
    last = [n for n in OBSERVABLE_ORDER_LAST if n in names]
    known = OBSERVABLE_ORDER + OBSERVABLE_ORDER_LAST
    return first + sorted(n for n in names if n not in known) + last


@dataclass
class Frame:
    """One frame. Rows are particles in id order; rows whose particle has
    left hold NaN positions and id -1 (see `present`)."""

    index: int
    step: int
    time: float
    positions: np.ndarray      # [N, D] in the model's coordinates
    velocities: np.ndarray     # [N, D], or None when not written
    ids: np.ndarray            # [N], -1 for rows whose particle has left
    species: np.ndarray        # [N] species index
    species_names: list

    @property
    def present(self):
        return self.ids >= 0


class Run:
    """The output of one run: DIR/trajectory.h5, DIR/summary.json and
    DIR/observables.jsonl. Raises TrajectoryError for a path that is not
    one."""

    def __init__(self, path):
        path = os.fspath(path)
        if os.path.isdir(path):
            self.directory = path
            self.trajectory_path = os.path.join(path, TRAJECTORY)
            if not os.path.isfile(self.trajectory_path):
                raise TrajectoryError(f"{path}: no {TRAJECTORY} in this directory")
        elif os.path.isfile(path):
            self.directory = os.path.dirname(path) or "."
            self.trajectory_path = path
        else:
            raise TrajectoryError(f"{path}: no such output directory")
        try:
            self.file = h5py.File(self.trajectory_path, "r")
        except OSError as error:
            raise TrajectoryError(f"{self.trajectory_path}: cannot open as HDF5 ({error})") from None
        creator = self.file.get("h5md/creator")
        name = _text(creator.attrs.get("name", b"")) if creator is not None else ""
        required = ("particles/all/position/value", "particles/all/species", "parameters/tethersim")
        if name != "tethersim" or any(key not in self.file for key in required):
            self.file.close()
            raise TrajectoryError(f"{self.trajectory_path}: not a tethersim trajectory (no tethersim H5MD layout)")
        self._all = self.file["particles/all"]
        self.layout = int(self.file["parameters/tethersim"].attrs.get("layout", 1))

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the model ---------------------------------------------------------

    @property
    def model_name(self):
        return _text(self.file["parameters/tethersim"].attrs.get("model_name", "?"))

    @property
    def dimensions(self):
        """Spatial dimensions D of the stored positions."""
        return int(self._all["position/value"].shape[2])

    @property
    def species_names(self):
        """Species names by index (numbers for species the file does not name)."""
        stored = self._all["species"].attrs.get("names")
        names = [_text(n) for n in stored] if stored is not None else []
        count = int(self._all["species"][:].max(initial=-1)) + 1 if self._all["species"].shape[0] else 0
        return names + [str(k) for k in range(len(names), count)]

    @property
    def model_document(self):
        """The model TOML stored in the trajectory, parsed (None when absent or unreadable)."""
        if "parameters/tethersim/model_text" not in self.file:
            return None
        text = bytes(self.file["parameters/tethersim/model_text"][()]).decode("utf-8", "replace")
        try:
            return tomllib.loads(text.rstrip("\0"))
        except tomllib.TOMLDecodeError:
            return None

    @property
    def overrides(self):
        """The run's --set overrides, KEY=VALUE strings: from the trajectory,
        or for older files from DIR/checkpoint.h5."""
        stored = self.file["parameters/tethersim"].attrs.get("overrides")
        if stored is not None:
            return [_text(o) for o in stored]
        path = os.path.join(self.directory, CHECKPOINT)
        if not os.path.isfile(path):
            return []
        try:
            with h5py.File(path, "r") as checkpoint:
                if "checkpoint/model_overrides" not in checkpoint:
                    return []
                text = bytes(checkpoint["checkpoint/model_overrides"][()]).decode("utf-8", "replace")
        except OSError:
            return []
        return [line for line in text.splitlines() if "=" in line]

    @property
    def species_radii(self):
        """Radius of each species by index (numpy array), or None when unknown.

        From the "radii" attribute of /particles/all/species; older files
        lack it, and the radii come from the stored model text with any
        species.X.radius override of the run applied."""
        names = self.species_names
        stored = self._all["species"].attrs.get("radii")
        if stored is not None and len(stored) == len(names):
            return np.asarray(stored, dtype=float)
        document = self.model_document
        if document is None or not names:
            return None
        radii = {}
        for index, table in enumerate(document.get("species", [])):
            if isinstance(table, dict) and "radius" in table:
                radii[str(table.get("name", index))] = table["radius"]
                radii[str(index)] = table["radius"]
        for line in self.overrides:
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
        return np.asarray(result)

    @property
    def action_potential_windows(self):
        """(start, end) pairs of the action potentials in the stored model text."""
        document = self.model_document or {}
        windows = document.get("action_potential", {}).get("windows", [])
        return [(float(w["start"]), float(w["end"])) for w in windows
                if isinstance(w, dict) and "start" in w and "end" in w]

    @property
    def units(self):
        """{"length", "time", "mass"}: the model's unit names ("" when unset)."""
        mass = self._all["mass"] if "mass" in self._all else None
        return {"length": _unit(self._all["position/value"]),
                "time": _unit(self._all["position/time"]) if "position/time" in self._all else "",
                "mass": _unit(mass) if mass is not None else ""}

    def observable_unit(self, name):
        """The unit of an observable's values ("" for counts and unit-less models)."""
        key = f"observables/{name}/value"
        return _unit(self.file[key]) if key in self.file else ""

    @property
    def box_offset(self):
        """The box corner lo: model coordinates = stored positions + offset (layout 2)."""
        box = self._all["box"]
        d = self.dimensions
        return box["offset"][:d].astype(float) if "offset" in box else np.zeros(d)

    @property
    def box_periodic(self):
        """[D] booleans: which axes are periodic."""
        boundary = [_text(b) for b in self._all["box"].attrs.get("boundary", [])]
        return np.array([k < len(boundary) and boundary[k] == "periodic" for k in range(self.dimensions)])

    def box_edges(self, k=0):
        """Edge lengths [D] at frame k (a fixed vector in some older files)."""
        edges = self._all["box/edges"]
        d = self.dimensions
        if isinstance(edges, h5py.Group):
            values = edges["value"]
            if values.shape[0] == 0:
                return np.full(d, np.nan)
            k = range(values.shape[0])[k] if -values.shape[0] <= k < values.shape[0] else values.shape[0] - 1
            return np.diagonal(values[k]).astype(float)[:d]
        return edges[:].astype(float)[:d]

    # -- frames ------------------------------------------------------------

    @property
    def frame_count(self):
        return int(self._all["position/value"].shape[0])

    @property
    def frame_times(self):
        return self._all["position/time"][:]

    @property
    def frame_steps(self):
        """The step of each frame: the clock frames and observable samples share."""
        return self._all["position/step"][:]

    def frame_index(self, frame=None, time=None):
        """The non-negative index of frame `frame` (negative counts from the
        end; None: the last) or of the frame nearest to simulated time `time`."""
        count = self.frame_count
        if count == 0:
            raise TrajectoryError("the trajectory has no frames (frame_interval = inf?)")
        if time is not None:
            return int(np.argmin(np.abs(self.frame_times[:count] - time)))
        if frame is None:
            return count - 1
        if not -count <= frame < count:
            raise TrajectoryError(f"no frame {frame}: the trajectory has {count} frames (0 to {count - 1})")
        return int(frame) % count

    def frame(self, k):
        """Frame k (negative k counts from the end) as numpy arrays."""
        k = self.frame_index(k)
        stored = self._all["position/value"][k]
        shift = self.box_offset if self.layout >= 2 else 0.0
        positions = stored + shift
        velocities = self._all["velocity/value"][k] if "velocity/value" in self._all else None
        if "id/value" in self._all:
            ids = self._all["id/value"][k]
        else:  # no ids written: rows are the ids
            ids = np.arange(len(stored), dtype=np.int64)
        ids = np.where(np.isnan(positions).any(axis=1), -1, ids)
        return Frame(index=k, step=int(self._all["position/step"][k]),
                     time=float(self._all["position/time"][k]), positions=positions,
                     velocities=velocities, ids=ids, species=self._all["species"][:],
                     species_names=self.species_names)

    def frames(self):
        for k in range(self.frame_count):
            yield self.frame(k)

    def _tether_count(self, k, width):
        if "parameters/tethersim/tether_counts" in self.file:
            return min(width, int(self.file["parameters/tethersim/tether_counts"][k]))
        return width

    def tether_rows(self, k):
        """Tethers of frame k as row pairs [M, 2] (rows of the particle arrays)."""
        k = self.frame_index(k)
        if "connectivity/tethers/value" not in self.file:
            return np.zeros((0, 2), dtype=np.int64)
        source = self.file["connectivity/tethers/value"]
        if self.layout >= 2 and "parameters/tethersim/tether_rows" in self.file:
            source = self.file["parameters/tethersim/tether_rows"]  # ids are not rows
        if k >= source.shape[0]:
            return np.zeros((0, 2), dtype=np.int64)
        count = self._tether_count(k, source.shape[1])
        return source[k, :count] if count > 0 else np.zeros((0, 2), dtype=np.int64)

    def tethers(self, k):
        """Tethers of frame k as an edge list of particle ids [M, 2], lower id first."""
        k = self.frame_index(k)
        if "connectivity/tethers/value" not in self.file:
            return np.zeros((0, 2), dtype=np.int64)
        if self.layout >= 2:
            source = self.file["connectivity/tethers/value"]
            if k >= source.shape[0]:
                return np.zeros((0, 2), dtype=np.int64)
            count = self._tether_count(k, source.shape[1])
            return source[k, :count] if count > 0 else np.zeros((0, 2), dtype=np.int64)
        rows = self.tether_rows(k)
        if "id/value" not in self._all:
            return np.sort(rows, axis=1)
        return np.sort(self._all["id/value"][k][rows], axis=1)

    # -- observables and summary ------------------------------------------

    def observables(self, source="trajectory"):
        """A pandas DataFrame: one row per sample, columns step, time and one
        per observable (vector observables one column per component:
        momentum_x.., event_counts_<kind>).

        source="trajectory" (the default) reads /observables of
        trajectory.h5, which every run has; source="jsonl" reads
        DIR/observables.jsonl, the same samples as text, flushed line by
        line (a running job's newest sample may be there before it is in the
        trajectory). Both give the same columns, dtypes and values, bit for
        bit. `step` is the clock frames share: match frames and samples by it.
        """
        import pandas as pd
        if source == "jsonl":
            return self._observables_from_log(pd)
        if source != "trajectory":
            raise ValueError(f"source must be 'trajectory' or 'jsonl', not {source!r}")
        if "observables/kinetic_energy/step" not in self.file:
            raise TrajectoryError(f"{self.trajectory_path}: no observable samples")
        group = self.file["observables"]
        columns = {"step": group["kinetic_energy/step"][:], "time": group["kinetic_energy/time"][:]}
        for name in _observable_order(group):
            if "value" not in group[name]:
                continue
            dataset = group[name]["value"]
            value = dataset[:]
            if value.ndim == 1:
                columns[name] = value
                continue
            names = dataset.attrs.get("columns")
            if names is not None:
                parts = [_text(c) for c in names]
            elif name == "event_counts" and value.shape[1] == len(EVENT_KINDS):
                parts = list(EVENT_KINDS)
            elif value.shape[1] == 3:
                parts = ["x", "y", "z"]
            else:
                parts = [str(c) for c in range(value.shape[1])]
            for c, part in enumerate(parts):
                columns[f"{name}_{part}"] = value[:, c]
        # A file still being written may have one dataset a sample ahead.
        n = min(len(v) for v in columns.values())
        return pd.DataFrame({key: v[:n] for key, v in columns.items()})

    def _observables_from_log(self, pd):
        path = os.path.join(self.directory, OBSERVABLES_LOG)
        if not os.path.isfile(path):
            raise TrajectoryError(f"{self.directory}: no {OBSERVABLES_LOG} (runs before it was written?)")
        samples = []
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                try:
                    samples.append(json.loads(line))
                except ValueError:  # a last line cut short by a killed run
                    break
        if not samples:
            return pd.DataFrame({"step": np.zeros(0, np.int64), "time": np.zeros(0)})
        columns = {"step": np.array([s["step"] for s in samples], dtype=np.int64),
                   "time": np.array([s["time"] for s in samples], dtype=np.float64)}
        for name in _observable_order(k for k in samples[0] if k not in ("step", "time")):
            dtype = np.float64 if name in FLOAT_OBSERVABLES else np.int64
            first = samples[0][name]
            if isinstance(first, dict):
                for part in first:
                    columns[f"{name}_{part}"] = np.array([s[name][part] for s in samples], dtype=dtype)
            elif isinstance(first, list):
                parts = ["x", "y", "z"] if len(first) == 3 else [str(c) for c in range(len(first))]
                for c, part in enumerate(parts):
                    columns[f"{name}_{part}"] = np.array([s[name][c] for s in samples], dtype=dtype)
            else:
                columns[name] = np.array([s[name] for s in samples], dtype=dtype)
        return pd.DataFrame(columns)

    def summary(self):
        """summary.json as a dict (None while the run has not ended or when unreadable)."""
        try:
            with open(os.path.join(self.directory, SUMMARY), encoding="utf-8") as stream:
                return json.load(stream)
        except (OSError, ValueError):
            return None

    # -- other tools -------------------------------------------------------

    def require_frames(self, what):
        """A clear error instead of an empty result (or MDAnalysis's OSError)."""
        if self.frame_count == 0:
            raise TrajectoryError(f"{self.trajectory_path}: the run wrote no frames (output.frame_interval "
                                  f"is inf), so there is nothing for {what}: set [output] frame_interval")

    def mdanalysis_units(self, convert_units=True):
        """{"length", "time"}: the units a Universe from universe() holds.
        Each unit name MDAnalysis knows is converted to its unit (Angstrom,
        ps) when convert_units; any other name (such as "tu") and every name
        without convert_units is kept, and declared as it is. No unit: ""."""
        from MDAnalysis import units as mda_units
        base = {"length": "Angstrom", "time": "ps"}
        result = {}
        for kind, base_unit in base.items():
            name = self.units[kind]
            known = name in mda_units.conversion_factor.get(kind, {})
            result[kind] = base_unit if (convert_units and known) else name
        return result

    def universe(self, convert_units=True):
        """An MDAnalysis Universe over the frames (3-D runs only).

        Atoms are the rows (types: species names, masses, bonds: the first
        frame's tethers). Positions are in the box frame, [0, edges], the
        frame MDAnalysis boxes have (model coordinates = positions +
        box_offset, in the model's units). Every unit name is treated alike:
        converted to MDAnalysis's units (Angstrom, ps) when it knows the
        name and convert_units is true, kept otherwise; either way
        u.trajectory.units says what the numbers are (mdanalysis_units()).
        u.trajectory.dt is the spacing of the first two frames in those time
        units (frames are evenly spaced unless the run was continued with
        another frame_interval). A run without frames raises TrajectoryError.
        """
        import MDAnalysis as mda
        from MDAnalysis import units as mda_units
        from MDAnalysis.coordinates.memory import MemoryReader
        if self.dimensions != 3:
            raise ValueError("MDAnalysis reads 3-D trajectories only")
        self.require_frames("an MDAnalysis universe")
        held = self.mdanalysis_units(convert_units)
        factor = {}
        for kind in ("length", "time"):
            name = self.units[kind]
            factor[kind] = mda_units.get_conversion_factor(kind, name, held[kind]) if held[kind] != name else 1.0
        n = int(self._all["position/value"].shape[1])
        universe = mda.Universe.empty(n, trajectory=False)
        # The frames go in memory, converted here: MDAnalysis's H5MD reader
        # refuses unit names it does not know, and gives no dt.
        positions = (self._all["position/value"][:] * factor["length"]).astype(np.float32)
        edges = np.diagonal(self._all["box/edges/value"][:], axis1=1, axis2=2) * factor["length"]
        boxes = np.hstack([edges, np.full((len(edges), 3), 90.0)]).astype(np.float32)
        times = self.frame_times * factor["time"]
        dt = float(times[1] - times[0]) if len(times) > 1 else 1.0
        velocities = None
        if "velocity/value" in self._all:
            velocities = (self._all["velocity/value"][:] * factor["length"] / factor["time"]).astype(np.float32)
        # Each frame's own time, and the observables sampled at the frames
        # as MDAnalysis's H5MD reader gives them (ts.data[name], with the
        # frame's step).
        samples = self._observable_samples_by_frame()

        class FramesInMemory(MemoryReader):
            def _read_next_timestep(self, ts=None):
                ts = super()._read_next_timestep(ts)
                ts.time = float(times[ts.frame])
                for name, values in samples.items():
                    ts.data[name] = values[ts.frame]
                return ts

        universe.load_new(positions, format=FramesInMemory, dimensions=boxes, dt=dt, velocities=velocities)
        universe.trajectory.units = dict(held)
        names = np.array(self.species_names, dtype=object)
        universe.add_TopologyAttr("types", names[self._all["species"][:]])
        if "mass" in self._all:
            universe.add_TopologyAttr("masses", self._all["mass"][:])
        if "connectivity/tethers" in self.file:
            universe.add_TopologyAttr("bonds", [tuple(map(int, p)) for p in self.tether_rows(0)])
        return universe

    def _observable_samples_by_frame(self):
        """{name: values per frame} for the scalar observables sampled at the
        frames' steps (all of them when observables_interval = frame_interval)."""
        result = {}
        if "observables" not in self.file:
            return result
        steps = self.frame_steps
        for name, group in self.file["observables"].items():
            if not isinstance(group, h5py.Group) or "value" not in group or "step" not in group:
                continue
            value = group["value"]
            if value.ndim != 1:
                continue
            index = {int(s): i for i, s in enumerate(group["step"][:])}
            if all(int(s) in index for s in steps):
                stored = value[:]
                result[name] = [stored[index[int(s)]] for s in steps]
        result["step"] = list(steps)
        return result


def _unit(dataset):
    return _text(dataset.attrs["unit"]) if "unit" in dataset.attrs else ""


def open_run(path):
    """A run's output directory (or its trajectory.h5); raises TrajectoryError
    when it is not one."""
    return Run(path)
