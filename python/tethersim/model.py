"""Building a model in Python: species, pairs, rules and particles placed
by helpers that count the ids, then written as the TOML file (and, for
large placements, the particle and tether files) that `tethersim` reads.

    import tethersim
    m = tethersim.Model("chain", end_time=100.0, units={"length": "nm", "time": "ns", "mass": "kDa"})
    m.box(lo=[-40, -40, -40], hi=[40, 40, 40])
    m.species("B", mass=50.0, radius=2.5)
    m.pair("B", "B", tethering=6.0, c=0.9)
    beads = m.chain("B", count=10, start=[-22.5, 0, 0], step=[5, 0, 0])   # ids 0..9, tethered in a row
    m.output(frame_interval=1.0)
    m.write("chain.toml")
    run = m.run("chain-out")                                              # a tethersim.Run

Every key is the one docs/model-format.md names, passed as a keyword;
a misspelt key, an unknown species, particles that overlap (closer than
their pair's blocking distance), a particle outside the box or a tether
the pair cannot hold raise ModelError at once, with one line saying what
and where, as `tethersim validate` would. What the builder writes
validates; `validate()` asks the program to make sure.
"""

import math
import os
import tempfile

from . import placement as geo
from .contact_index import ContactIndex
from .model_keys import ModelError, check_keys
from .model_text import model_text, write_model_files
from .program import call

INF = math.inf
BOUNDARIES = ("reflective", "open", "periodic")

# Above this many particles (or tethers), write() puts them in CSV files
# beside the TOML file instead of listing them in it.
FILE_THRESHOLD = 500


class Group(tuple):
    """The particle ids of one placement, in the order they were placed."""


class Model:
    """A model under construction (see the module's docstring and
    docs/python-tutorial.md).

    Tables: box, physics, species, pair, pair_defaults, external, attach,
    detach, action_potential, output. Particles: particle, chain, sheet,
    vesicle, random (each returns the ids it gave, a Group). Tethers:
    tether, tether_chain, tether_within. Then write, validate, run.
    `particles` ({id: (species, position, velocity)}) and `tether_pairs`
    ((lower id, higher id) in the order made) hold what was placed.
    """

    def __init__(self, name=None, *, end_time, seed=1, dimensions=3, description=None, units=None):
        if dimensions not in (1, 2, 3):
            raise ModelError(f"model.dimensions: must be 1, 2 or 3, got {dimensions!r}")
        _check_positive("run.end_time", end_time, finite=True)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ModelError(f"run.seed: must be an integer >= 0, got {seed!r}")
        self.name, self.description, self.dimensions = name, description, dimensions
        self.end_time, self.seed = end_time, seed
        self.units = dict(units or {})
        check_keys("model.units", self.units, "model.units")
        for key, unit in self.units.items():
            if not isinstance(unit, str) or not unit or any(c.isspace() or c in "\"'" for c in unit):
                raise ModelError(f"model.units.{key}: must be one word without spaces or quotes (e.g. \"nm\"), "
                                 f"got {unit!r}")
        self.tables = {"physics": {}, "domain": {}, "output": {}}
        self.species_keys = {}           # name -> keys, in definition order
        self.pairs = {}                  # (a, b) in species order -> keys
        self.defaults = None             # [pair_defaults]
        self.externals, self.attach_rules, self.detach_rules = [], [], []
        self.action_potential_keys = None
        self.particles = {}              # id -> (species, position, velocity), 3-vectors
        self.tether_pairs = {}           # (lower id, higher id) -> None, in the order added
        self.path = None                 # where write() last wrote the model
        self._files = None               # and whether it was asked for CSV files
        self._next_id = 0
        self._random_placements = 0
        self._index = None

    # -- tables ----------------------------------------------------------

    def box(self, lo, hi, boundary="reflective", **domain):
        """[domain]: the box corners, the boundary (one for all axes or one
        per axis) and sector_size, escape_radius, escape_centre."""
        check_keys("domain", domain)
        lo3, hi3 = geo.vector3(lo, "domain.lo"), geo.vector3(hi, "domain.hi")
        for axis in range(self.dimensions):
            if not hi3[axis] > lo3[axis]:
                raise ModelError(f"domain.hi: must exceed domain.lo on axis {'xyz'[axis]}")
        kinds = [boundary] * 3 if isinstance(boundary, str) else list(boundary)
        if len(kinds) != 3 or any(k not in BOUNDARIES for k in kinds):
            raise ModelError(f"domain.boundary: must be \"periodic\", \"open\" or \"reflective\" (one, or one "
                             f"per axis: 3), got {boundary!r}")
        self.tables["domain"] = dict(lo=list(lo), hi=list(hi), boundary=boundary, **domain)
        self._index = None
        for ident in self.particles:
            self._check_inside(ident, self.particles[ident][0], self.particles[ident][1])

    def physics(self, **keys):
        """[physics]: theta_revolve, restitution_delay, restitution_schedule,
        dt_max, max_group_size, tc_elastic_time."""
        check_keys("physics", keys)
        self.tables["physics"].update(keys)

    def output(self, **keys):
        """[output]: frame_interval, observables_interval, tethered_pairs,
        cluster_species, ... (docs/model-format.md, section 15)."""
        check_keys("output", keys)
        self.tables["output"].update(keys)

    def species(self, name, **keys):
        """[[species]]: mass (a number > 0, or math.inf), radius,
        random_impulse (a dict of tau, shape, mean or speed), or thermostat
        (a dict of kT and diffusion or friction, and optionally interval,
        tau, shape: the impulses and a drag derived for that temperature).
        Returns name."""
        check_keys("species", keys, f"species.{name}")
        if not isinstance(name, str) or not name:
            raise ModelError(f"species.name: must be a non-empty string, got {name!r}")
        if name in self.species_keys:
            raise ModelError(f"species: duplicate species name '{name}'")
        if "mass" not in keys:
            raise ModelError(f"species.{name}: missing required key 'mass'")
        _check_positive(f"species.{name}.mass", keys["mass"], finite=False)
        _check_non_negative(f"species.{name}.radius", keys.get("radius", 0.0))
        impulse = keys.get("random_impulse")
        if impulse is not None:
            check_keys("species.random_impulse", impulse, f"species.{name}.random_impulse")
            if "tau" not in impulse or ("mean" in impulse) == ("speed" in impulse):
                raise ModelError(f"species.{name}.random_impulse: give 'tau' and exactly one of 'mean' or 'speed'")
            if math.isinf(_number(keys["mass"])) and not math.isinf(_number(impulse["tau"])):
                raise ModelError(f"species.{name}.random_impulse: species of infinite mass cannot receive "
                                 "random impulses")
        thermostat = keys.get("thermostat")
        if thermostat is not None:
            check_keys("species.thermostat", thermostat, f"species.{name}.thermostat")
            if impulse is not None:
                raise ModelError(f"species.{name}.thermostat: conflicts with random_impulse: the thermostat "
                                 "derives the random impulses")
            if "kT" not in thermostat or ("diffusion" in thermostat) == ("friction" in thermostat):
                raise ModelError(f"species.{name}.thermostat: give 'kT' and exactly one of 'diffusion' or "
                                 "'friction'")
        self.species_keys[name] = dict(keys)
        self._index = None
        return name

    def pair(self, a, b, **keys):
        """[[pair]] of species a and b: blocking, tethering, c (or c_rebound,
        c_retract, c_revolve), permanent."""
        check_keys("pair", keys, f"pair.{a}-{b}")
        key = self._pair_key(a, b, "pair")
        if key in self.pairs:
            raise ModelError(f"pair.{key[0]}-{key[1]}: pair {key[0]}-{key[1]} is listed twice")
        where = f"pair.{key[0]}-{key[1]}"
        if "blocking" in keys:
            _check_non_negative(f"{where}.blocking", keys["blocking"])
        if "tethering" in keys:
            _check_positive(f"{where}.tethering", keys["tethering"], finite=False)
        for c in ("c", "c_rebound", "c_retract", "c_revolve"):
            if c in keys and not 0 <= _number(keys[c]) <= 1:
                raise ModelError(f"{where}.{c}: must be in [0, 1], got {keys[c]!r}")
        self.pairs[key] = dict(keys)
        blocking, tethering = self.blocking(*key), self.tethering(*key)
        if blocking > 0 and tethering <= blocking:
            del self.pairs[key]
            raise ModelError(f"{where}.blocking: blocking distance {blocking:g} must be below the tethering "
                             f"distance {tethering:g} of this tetherable pair")
        self._index = None

    def pair_defaults(self, **keys):
        """[pair_defaults]: c, c_rebound, c_retract, c_revolve for unlisted pairs."""
        check_keys("pair_defaults", keys)
        self.defaults = dict(keys)

    def external(self, kind, **keys):
        """[[external]]: kind "gravity" (g, interval, start, species) or
        "drag" (viscosity, fluid_velocity, interval, start, species)."""
        if kind not in ("gravity", "drag"):
            raise ModelError(f"external.{len(self.externals)}.kind: must be \"gravity\" or \"drag\", got {kind!r}")
        check_keys(f"external.{kind}", keys, f"external.{len(self.externals)}")
        for name in _names(keys.get("species", ())):
            self._known(name, f"external.{len(self.externals)}.species")
        self.externals.append(dict(kind=kind, **keys))

    def attach(self, a, b, **keys):
        """[[attach]] for species a and b: max_partners, exclusive_dimer, unless_reaction."""
        check_keys("attach", keys, f"attach.{len(self.attach_rules)}")
        self._pair_key(a, b, f"attach.{len(self.attach_rules)}")
        self.attach_rules.append(dict(species=[a, b], **keys))

    def detach(self, a, b, **keys):
        """[[detach]] for species a and b: reaction, requires, release."""
        check_keys("detach", keys, f"detach.{len(self.detach_rules)}")
        self._pair_key(a, b, f"detach.{len(self.detach_rules)}")
        self.detach_rules.append(dict(species=[a, b], **keys))

    def action_potential(self, **keys):
        """[action_potential]: membrane, zone, zone_radius, gradient, reactions, windows."""
        check_keys("action_potential", keys)
        self.action_potential_keys = dict(keys)

    # -- what the program derives from the tables -----------------------

    def mass(self, species):
        return _number(self.species_keys[species]["mass"])

    def radius(self, species):
        return _number(self.species_keys[species].get("radius", 0.0))

    def blocking(self, a, b):
        """The blocking distance of species a and b (section 9's defaults)."""
        keys = self.pairs.get(self._ordered(a, b), {})
        if "blocking" in keys:
            return _number(keys["blocking"])
        if math.isinf(self.mass(a)) and math.isinf(self.mass(b)):
            return 0.0
        return self.radius(a) + self.radius(b)

    def tethering(self, a, b):
        """The tethering distance of species a and b (inf: never tethered)."""
        return _number(self.pairs.get(self._ordered(a, b), {}).get("tethering", INF))

    # -- particles -------------------------------------------------------

    def particle(self, species, position, velocity=None, id=None):
        """One particle; returns its id (the next free one unless given)."""
        if id is not None and (not isinstance(id, int) or isinstance(id, bool) or id < 0):
            raise ModelError(f"initial.particle.{id}.id: must be an integer >= 0, got {id!r}")
        return self._place(species, [geo.vector3(position, "position")],
                           [geo.vector3(velocity, "velocity") if velocity is not None else None], first_id=id)[0]

    def chain(self, species, count, start, step, tether=True):
        """count particles in a row from `start`, each `step` (a vector)
        after the last; with tether, each tethered to the next."""
        group = self._place(species, geo.chain_points(count, geo.vector3(start, "start"), geo.vector3(step, "step")))
        if tether:
            self.tether_chain(group)
        return group

    def sheet(self, species, size, spacing, centre=(0.0, 0.0, 0.0), lattice="triangular", tether=True):
        """A flat membrane patch in the plane z = centre[2]: size (an int, or
        (columns, rows)) points on a "triangular" or "square" lattice of
        pitch `spacing`; with tether, every pair `spacing` apart is
        tethered (six neighbours inside a triangular patch, four in a
        square one)."""
        columns, rows = (size, size) if isinstance(size, int) else size
        if columns < 1 or rows < 1:
            raise ModelError(f"sheet: size must be at least 1 by 1, got {size!r}")
        points = geo.sheet_points(columns, rows, spacing, geo.vector3(centre, "centre"), lattice)
        group = self._place(species, points)
        if tether:
            self.tether_within(spacing, group)
        return group

    def vesicle(self, species, count, radius, centre=(0.0, 0.0, 0.0), tether=True):
        """count particles spread evenly over a sphere of `radius` around
        `centre` (a Fibonacci lattice); with tether, each tethered to its
        neighbours on the triangulated surface (the edges of the points'
        convex hull: 3 count - 6 tethers, six per particle on average).
        With d = radius * sqrt(8 pi / (sqrt(3) count)), the spacing of a
        regular triangulation of that area, neighbours are 0.8 d to 1.4 d
        apart: choose the pair's blocking distance below 0.8 d and its
        tethering distance above 1.4 d. The triangulation takes O(count^2):
        seconds for a few thousand particles."""
        if count < 4:
            raise ModelError(f"vesicle: count must be at least 4, got {count}")
        group = self._place(species, geo.sphere_points(count, radius, geo.vector3(centre, "centre")))
        if tether:
            for i, j in geo.hull_edges([self.particles[k][1] for k in group]):
                self.tether(group[i], group[j])
        return group

    def random(self, species, count, lo=None, hi=None, margin=0.0, temperature=0.0, seed=None):
        """count particles placed uniformly at random in [lo, hi] (default
        the box) shrunk by `margin` (on unused axes: at lo), none
        overlapping another: a draw that would is drawn again, up to
        1000 count + 1000 draws. Velocities are thermal at kT = temperature
        (0: at rest). The same seed gives the same particles; by default
        the seed comes from the run seed and how many random placements
        came before."""
        if "lo" not in self.tables["domain"] and (lo is None or hi is None):
            raise ModelError("random: give lo and hi, or set the box first (box())")
        lo3 = geo.vector3(lo if lo is not None else self.tables["domain"]["lo"], "lo")
        hi3 = geo.vector3(hi if hi is not None else self.tables["domain"]["hi"], "hi")
        used = range(self.dimensions)  # the margin applies to the model's axes only
        lo3 = tuple(x + margin if a in used else x for a, x in enumerate(lo3))
        hi3 = tuple(x - margin if a in used else x for a, x in enumerate(hi3))
        if seed is None:
            seed = self.seed * 65537 + self._random_placements
        self._random_placements += 1
        self._known(species, "random")
        stream, mass, kind = geo.stream(seed), self.mass(species), self._species_index(species)
        contacts, points, velocities = self._contacts(), [], []
        attempts = 1000 * count + 1000
        while len(points) < count and attempts > 0:
            attempts -= 1
            point = geo.uniform_point(stream, lo3, hi3, self.dimensions)
            if contacts.first_overlap(point, kind) is None:
                contacts.add(("new", len(points)), point, kind)
                points.append(point)
                velocities.append(geo.thermal_velocity(stream, mass, temperature, self.dimensions))
        self._index = None  # drop the trial entries
        if len(points) < count:
            raise ModelError(f"random: could not place {count} non-overlapping {species} particles "
                             f"(placed {len(points)})")
        return self._place(species, points, velocities)

    def tether(self, a, b):
        """A tether between particles a and b (ids)."""
        for ident in (a, b):
            if ident not in self.particles:
                raise ModelError(f"initial.tethers: tether {a}-{b} refers to particle {ident}, which does not exist")
        if a == b:
            raise ModelError(f"initial.tethers: tether {a}-{b} joins a particle to itself")
        key = (min(a, b), max(a, b))
        if key in self.tether_pairs:
            raise ModelError(f"initial.tethers: tether {a}-{b} is listed twice")
        self.tether_pairs[key] = None

    def tether_chain(self, ids):
        """Tethers each particle of `ids` to the next (chain bonds)."""
        for a, b in zip(ids, ids[1:]):
            self.tether(a, b)

    def tether_within(self, reach, group=None, to=None):
        """Tethers every two particles at most `reach` apart (measured
        straight, not through periodic faces): within `group` (default
        every particle), or from `group` to `to`. Pairs already tethered
        are left as they are. Returns how many were added."""
        ids = list(group if group is not None else self.particles)
        points = [self.particles[k][1] for k in ids]
        targets = list(to) if to is not None else None
        other_points = [self.particles[k][1] for k in targets] if targets is not None else None
        added = 0
        for i, j in geo.edges_within(points, reach, other_points):
            a, b = ids[i], (targets[j] if targets is not None else ids[j])
            if a != b and (min(a, b), max(a, b)) not in self.tether_pairs:
                self.tether(a, b)
                added += 1
        return added

    # -- writing and running ---------------------------------------------

    def check(self):
        """Raises ModelError for what the program would refuse in the
        model as a whole: no box, no particles, a missing pair, a particle
        outside the box, overlaps, tethers the pairs cannot hold."""
        if "lo" not in self.tables["domain"]:
            raise ModelError("domain.lo: the box is required (box(lo, hi))")
        if not self.species_keys:
            raise ModelError("species: at least one species is required")
        if not self.particles:
            raise ModelError("initial: no particles: place some (particle, chain, sheet, vesicle, random)")
        names = list(self.species_keys)
        for i, a in enumerate(names):
            for b in names[i:]:
                finite = not (math.isinf(self.mass(a)) and math.isinf(self.mass(b)))
                if finite and (a, b) not in self.pairs and self.defaults is None:
                    raise ModelError(f"pair: missing pair {a}-{b}: add pair(\"{a}\", \"{b}\", ...) "
                                     "(or pair_defaults(...) for unlisted pairs)")
        self._index = None
        self._contacts()  # re-adds every particle, testing each against those before it
        for a, b in self.tether_pairs:
            sa, sb = self.particles[a][0], self.particles[b][0]
            reach = self.tethering(sa, sb)
            pair = "-".join(self._ordered(sa, sb))
            if math.isinf(reach):
                raise ModelError(f"initial.tethers: tether {a}-{b}: pair {pair} has no tethering distance")
            length = self._contacts().separation(self.particles[a][1], self.particles[b][1])
            if length > reach * (1 + 1e-9):
                raise ModelError(f"initial.tethers: tether {a}-{b} is {length:.6f} long, beyond the {pair} "
                                 f"tethering distance {reach:.6f}")

    def to_toml(self, particles_file=None, tethers_file=None):
        """The model file's text; with file names, the particles (tethers)
        are left to those CSV files instead of being listed."""
        self.check()
        return model_text(self, particles_file, tethers_file)

    def write(self, path, files=None):
        """Writes the model to `path` (TOML) and returns the path. files:
        True puts the particles and tethers in CSV files beside it
        (STEM.particles.csv, STEM.tethers.csv), False lists them in the
        TOML file, None (default) chooses files above 500 of either."""
        path = os.fspath(path)
        self.check()
        write_model_files(self, path, self._wants_files() if files is None else files)
        self.path, self._files = path, files
        return path

    def validate(self, tethersim=None):
        """Runs `tethersim validate` on the written model (written to a
        temporary directory first if write() was not called) and returns
        what it prints; ModelError with its error line if it refuses."""
        if self.path is not None:
            return call(["validate", self.write(self.path, self._files)], tethersim)
        with tempfile.TemporaryDirectory(prefix="tethersim-model-") as scratch:
            path = os.path.join(scratch, f"{self.name or 'model'}.toml")
            self.check()
            write_model_files(self, path, self._wants_files())
            return call(["validate", path], tethersim)

    def run(self, output, end_time=None, overwrite=False, quiet=True, tethersim=None, args=()):
        """Writes the model (to its path, or OUTPUT.toml beside the output
        directory), runs `tethersim run` into `output` and returns the
        tethersim.Run that reads it. ModelError if the program refuses the
        model (exit code 2), RunError if the run fails (exit code 1)."""
        output = os.fspath(output)
        path = self.write(self.path or output.rstrip("/\\") + ".toml", self._files)
        arguments = ["run", path, "--output", output, *args]
        if end_time is not None:
            arguments += ["--end-time", repr(float(end_time))]
        if overwrite:
            arguments.append("--overwrite")
        if quiet:
            arguments.append("--quiet")
        call(arguments, tethersim)
        from .run import open_run
        return open_run(output)

    # -- inside ----------------------------------------------------------

    def __repr__(self):
        return (f"Model({self.name or ''!r}: {len(self.species_keys)} species, {len(self.particles)} particles, "
                f"{len(self.tether_pairs)} tethers)")

    def _wants_files(self):
        return max(len(self.particles), len(self.tether_pairs)) > FILE_THRESHOLD

    def _known(self, name, where):
        if name not in self.species_keys:
            defined = ", ".join(self.species_keys) or "none yet"
            raise ModelError(f"{where}: unknown species '{name}' (defined: {defined})")

    def _ordered(self, a, b):
        """The pair (a, b) in [[species]] order, as the program names it."""
        names = list(self.species_keys)
        return (a, b) if names.index(a) <= names.index(b) else (b, a)

    def _pair_key(self, a, b, where):
        self._known(a, where)
        self._known(b, where)
        return self._ordered(a, b)

    def _species_index(self, name):
        return list(self.species_keys).index(name)

    def _contacts(self):
        """The overlap index of the placed particles (rebuilt, testing
        every particle, after the species, pairs or box changed)."""
        if self._index is None:
            names = list(self.species_keys)
            table = [[self.blocking(a, b) for b in names] for a in names]
            reach = max((d for row in table for d in row), default=0.0)
            domain = self.tables["domain"]
            periodic = {}
            if "lo" in domain:
                kinds = [domain["boundary"]] * 3 if isinstance(domain["boundary"], str) else domain["boundary"]
                lo, hi = self._box()
                periodic = {a: (lo[a], hi[a] - lo[a]) for a in range(self.dimensions) if kinds[a] == "periodic"}
            index = ContactIndex(lambda i, j: table[i][j], reach, periodic)
            for ident, (species, point, _) in self.particles.items():
                self._refuse_overlap(index, ident, species, point)
                index.add(ident, point, names.index(species))
            self._index = index
        return self._index

    def _refuse_overlap(self, index, ident, species, point):
        hit = index.first_overlap(point, self._species_index(species))
        if hit is not None:
            other, gap, need = hit
            other_species = self.particles[other][0] if other in self.particles else species
            a, b = self._ordered(species, other_species)
            raise ModelError(f"initial.particle.{ident}: particles {other} (species {other_species}) and {ident} "
                             f"(species {species}) overlap: {gap:.6g} apart, closer than their blocking distance "
                             f"{need:.6g} (pair.{a}-{b}.blocking)")

    def _box(self):
        """The box corners as 3-vectors, with the program's slab [-0.5, 0.5]
        on unused axes given as lo = hi = 0."""
        lo = list(geo.vector3(self.tables["domain"]["lo"], "domain.lo"))
        hi = list(geo.vector3(self.tables["domain"]["hi"], "domain.hi"))
        for axis in range(self.dimensions, 3):
            if lo[axis] == hi[axis] == 0.0:
                lo[axis], hi[axis] = -0.5, 0.5
        return lo, hi

    def _check_inside(self, ident, species, point):
        if "lo" not in self.tables["domain"]:
            return
        lo, hi = self._box()
        if any(not lo[a] <= point[a] <= hi[a] for a in range(3)):
            shown = ", ".join(f"{x:.6g}" for x in point)
            raise ModelError(f"initial.particle.{ident}: particle {ident} (species {species}) at ({shown}) lies "
                             "outside the box")

    def _place(self, species, points, velocities=None, first_id=None):
        """Adds particles of one species at points, all or none: each is
        checked (box, motion, overlaps with every particle placed before
        it) before any is kept. Returns their ids as a Group."""
        self._known(species, "species")
        velocities = velocities or [None] * len(points)
        mass, kind = self.mass(species), self._species_index(species)
        contacts = self._contacts()
        ident = self._next_id if first_id is None else first_id
        placed = []
        try:
            for point, velocity in zip(points, velocities):
                if ident in self.particles:
                    raise ModelError(f"initial.particle.{ident}: duplicate particle id {ident}")
                velocity = velocity or (0.0, 0.0, 0.0)
                if any(not math.isfinite(x) for x in point + velocity):
                    raise ModelError(f"initial.particle.{ident}: particle {ident} (species {species}) has a "
                                     "position or velocity that is not finite")
                if math.isinf(mass) and any(velocity):
                    raise ModelError(f"initial.particle.{ident}: particle {ident} (species {species}) has infinite "
                                     "mass and must be at rest")
                if any(velocity[self.dimensions:]):
                    raise ModelError(f"initial.particle.{ident}: particle {ident} (species {species}) moves along "
                                     f"an axis a {self.dimensions}-D model does not have")
                self._check_inside(ident, species, point)
                self._refuse_overlap(contacts, ident, species, point)
                contacts.add(ident, point, kind)
                self.particles[ident] = (species, point, velocity)
                placed.append(ident)
                ident += 1
        except ModelError:
            for k in placed:
                del self.particles[k]
            self._index = None
            raise
        self._next_id = max(self._next_id, ident)
        return Group(placed)


def _number(value):
    if isinstance(value, str) and value.strip().lower() in ("inf", "+inf", "infinity"):
        return INF
    return float(value)


def _names(value):
    return [value] if isinstance(value, str) else list(value)


def _check_positive(key, value, finite):
    try:
        number = _number(value)
    except (TypeError, ValueError):
        raise ModelError(f"{key}: expected a number, got {value!r}") from None
    if not number > 0 or (finite and math.isinf(number)):
        raise ModelError(f"{key}: must be positive{' and finite' if finite else ''}, got {value!r}")


def _check_non_negative(key, value):
    try:
        number = _number(value)
    except (TypeError, ValueError):
        raise ModelError(f"{key}: expected a number, got {value!r}") from None
    if not 0 <= number < INF:
        raise ModelError(f"{key}: must be finite and not negative, got {value!r}")
