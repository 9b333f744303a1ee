"""One run's output directory: frames, tethers, observables, summary."""

import json
import os
from dataclasses import dataclass

import h5py
import numpy as np

# So that the trajectory of a running simulation (still open for writing)
# can be read where HDF5 file locking is enforced.
os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

TRAJECTORY = "trajectory.h5"
SUMMARY = "summary.json"


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "tolist"):
        return _text(value.tolist())
    return str(value)


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
    """The output of one run: DIR/trajectory.h5 and DIR/summary.json."""

    def __init__(self, path):
        if os.path.isdir(path):
            self.directory = path
            self.trajectory_path = os.path.join(path, TRAJECTORY)
        else:
            self.directory = os.path.dirname(path) or "."
            self.trajectory_path = path
        self.file = h5py.File(self.trajectory_path, "r")
        creator = self.file.get("h5md/creator")
        if creator is None or _text(creator.attrs.get("name", b"")) != "tethersim":
            self.file.close()
            raise ValueError(f"{self.trajectory_path}: not a tethersim trajectory")
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
        return _text(self.file["parameters/tethersim"].attrs["model_name"])

    @property
    def dimensions(self):
        return int(self._all["box"].attrs["dimension"])

    @property
    def species_names(self):
        return [_text(n) for n in self._all["species"].attrs["names"]]

    @property
    def species_radii(self):
        return np.asarray(self._all["species"].attrs["radii"], dtype=float)

    @property
    def units(self):
        """{"length", "time", "mass"}: the model's unit names ("" when unset)."""
        def unit(dataset):
            return _text(dataset.attrs["unit"]) if "unit" in dataset.attrs else ""
        mass = self._all["mass"] if "mass" in self._all else None
        return {"length": unit(self._all["position/value"]),
                "time": unit(self._all["position/time"]),
                "mass": unit(mass) if mass is not None else ""}

    @property
    def box_offset(self):
        """The box corner lo: model coordinates = stored positions + offset."""
        box = self._all["box"]
        return box["offset"][:].astype(float) if "offset" in box else np.zeros(self.dimensions)

    def box_edges(self, k=0):
        """Edge lengths [D] at frame k."""
        edges = self._all["box/edges"]
        if isinstance(edges, h5py.Group):
            return np.diagonal(edges["value"][k]).astype(float)
        return edges[:].astype(float)

    # -- frames ------------------------------------------------------------

    @property
    def frame_count(self):
        return int(self._all["position/value"].shape[0])

    @property
    def frame_times(self):
        return self._all["position/time"][:]

    def frame(self, k):
        """Frame k (negative k counts from the end) as numpy arrays."""
        k = range(self.frame_count)[k]
        stored = self._all["position/value"][k]
        shift = self.box_offset if self.layout >= 2 else 0.0
        velocities = self._all["velocity/value"][k] if "velocity" in self._all else None
        return Frame(index=k, step=int(self._all["position/step"][k]),
                     time=float(self._all["position/time"][k]), positions=stored + shift,
                     velocities=velocities, ids=self._all["id/value"][k],
                     species=self._all["species"][:], species_names=self.species_names)

    def frames(self):
        for k in range(self.frame_count):
            yield self.frame(k)

    def _tether_count(self, k):
        return int(self.file["parameters/tethersim/tether_counts"][k])

    def tether_rows(self, k):
        """Tethers of frame k as row pairs [M, 2] (rows of the particle arrays)."""
        k = range(self.frame_count)[k]
        if "connectivity/tethers" not in self.file:
            return np.zeros((0, 2), dtype=np.int64)
        count = self._tether_count(k)
        if self.layout < 2:
            return self.file["connectivity/tethers/value"][k, :count]
        if "parameters/tethersim/tether_rows" in self.file:
            return self.file["parameters/tethersim/tether_rows"][k, :count]
        return self.file["connectivity/tethers/value"][k, :count]  # ids are the rows

    def tethers(self, k):
        """Tethers of frame k as an edge list of particle ids [M, 2], lower id first."""
        k = range(self.frame_count)[k]
        if "connectivity/tethers" not in self.file:
            return np.zeros((0, 2), dtype=np.int64)
        if self.layout >= 2:
            return self.file["connectivity/tethers/value"][k, :self._tether_count(k)]
        return self._all["id/value"][k][self.tether_rows(k)]

    # -- observables and summary ------------------------------------------

    def observables(self):
        """A pandas DataFrame: one row per sample, columns step, time and one
        per observable (vector observables one column per component:
        momentum_x.., event_counts_<kind>)."""
        import pandas as pd
        group = self.file["observables"]
        columns = {"step": group["kinetic_energy/step"][:], "time": group["kinetic_energy/time"][:]}
        for name, element in group.items():
            value = element["value"][:]
            if value.ndim == 1:
                columns[name] = value
                continue
            names = element["value"].attrs.get("columns")
            parts = [_text(c) for c in names] if names is not None else (
                ["x", "y", "z"] if value.shape[1] == 3 else [str(c) for c in range(value.shape[1])])
            for c, part in enumerate(parts):
                columns[f"{name}_{part}"] = value[:, c]
        return pd.DataFrame(columns)

    def summary(self):
        """summary.json as a dict (None while the run has not ended)."""
        try:
            with open(os.path.join(self.directory, SUMMARY), encoding="utf-8") as stream:
                return json.load(stream)
        except FileNotFoundError:
            return None

    # -- other tools -------------------------------------------------------

    def _load_in_memory(self, universe):
        from MDAnalysis.coordinates.memory import MemoryReader
        positions = self._all["position/value"][:].astype(np.float32)
        edges = np.diagonal(self._all["box/edges/value"][:], axis1=1, axis2=2)
        boxes = np.hstack([edges, np.full((len(edges), 3), 90.0)]).astype(np.float32)
        times = self.frame_times
        dt = float(times[1] - times[0]) if len(times) > 1 else 1.0
        universe.load_new(positions, format=MemoryReader, dimensions=boxes, dt=dt)

    def universe(self, convert_units=None):
        """An MDAnalysis Universe over the frames (3-D runs only).

        Atoms are the rows (types: species names, masses, bonds: the first
        frame's tethers). MDAnalysis places the box at the origin, like the
        stored positions (model coordinates minus box_offset), and converts
        to its units (Angstrom, ps) when the model's units are ones it knows;
        convert_units=None converts when it can, else reads the numbers as
        they are. Unit names its reader refuses (such as "tu") load the
        frames into memory instead (unconverted; frame times then come from
        a constant dt).
        """
        import MDAnalysis as mda
        if self.dimensions != 3:
            raise ValueError("MDAnalysis reads 3-D trajectories only")
        n = int(self._all["position/value"].shape[1])
        universe = mda.Universe.empty(n, trajectory=False)
        try:
            if convert_units is None:
                try:
                    universe.load_new(self.trajectory_path, format="H5MD", convert_units=True)
                except ValueError:  # no units: the numbers as they are
                    universe.load_new(self.trajectory_path, format="H5MD", convert_units=False)
            else:
                universe.load_new(self.trajectory_path, format="H5MD", convert_units=convert_units)
        except RuntimeError:
            # A unit name MDAnalysis's H5MD reader does not know (it refuses
            # those even without conversion, e.g. the presynaptic "tu"):
            # the frames go in memory, unconverted.
            self._load_in_memory(universe)
        names = np.array(self.species_names, dtype=object)
        universe.add_TopologyAttr("types", names[self._all["species"][:]])
        if "mass" in self._all:
            universe.add_TopologyAttr("masses", self._all["mass"][:])
        if self.frame_count > 0 and "connectivity/tethers" in self.file:
            universe.add_TopologyAttr("bonds", [tuple(map(int, p)) for p in self.tether_rows(0)])
        return universe


def open_run(path):
    """A run's output directory (or its trajectory.h5)."""
    return Run(path)
