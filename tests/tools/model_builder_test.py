#!/usr/bin/env python3
"""The model builder (tethersim.Model): every placement helper written,
validated by the program and run, and the refusals.

    model_builder_test.py TETHERSIM SOURCE_DIR WORK_DIR

Checks: chains, triangular and square sheets, vesicles, random placements,
single particles and tethers within a distance, each written inline and as
CSV files, validated by `tethersim validate` and run for a short time, with
the run's first frame and tethers equal to what was built; the topology of
each helper (tethers per particle, their lengths); random placements
repeatable by seed; ids counted from 0 and after explicit ones; every
refusal (unknown keys and species, overlaps, also through a periodic face,
particles outside the box, tethers the program would refuse), each also
refused by the program when the same model is written unchecked; errors of
the program passed on as ModelError; the builder's keys those of
docs/model-format.md; dir(tethersim) and __all__.
"""

import math
import os
import re
import shutil
import sys
from collections import Counter

exe, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(source, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402
os.environ["TETHERSIM"] = exe
import numpy as np  # noqa: E402
import tethersim  # noqa: E402
from tethersim import ModelError, model_text  # noqa: E402
from tethersim.program import call  # noqa: E402

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
check = Checks("model builder")


def refused(build, fragment, what):
    """build() must raise ModelError whose message holds `fragment`."""
    try:
        build()
    except ModelError as error:
        return check(fragment in str(error) and "\n" not in str(error), f"{what}: message {error}")
    return check(False, f"{what}: accepted")


def base(name, dimensions=3, boundary="reflective", end_time=2.0):
    m = tethersim.Model(name, end_time=end_time, dimensions=dimensions,
                        units={"length": "nm", "time": "ns", "mass": "kDa"})
    m.box(lo=[-30.0] * dimensions, hi=[30.0] * dimensions, boundary=boundary)
    m.species("W", mass=math.inf, radius=1.0)
    m.species("P", mass=20.0, radius=0.5, random_impulse={"tau": 0.5, "speed": 1.0})
    m.species("L", mass=5.0, radius=0.5)
    m.pair("P", "P", tethering=2.0, c=0.9)
    m.pair("W", "P", tethering=3.0, c=0.9)
    m.pair_defaults(c=1.0)
    m.output(frame_interval=1.0)
    return m


def degrees(m, group):
    count = Counter()
    members = set(group)
    for a, b in m.tether_pairs:
        if a in members and b in members:
            count[a] += 1
            count[b] += 1
    return [count[k] for k in group]


def lengths(m):
    return [math.dist(m.particles[a][1], m.particles[b][1]) for a, b in m.tether_pairs]


def round_trip(m, what, files):
    """Write, validate and run m; the run's first frame is what was built."""
    path = m.write(f"{what}.toml", files=files)
    check(os.path.isfile(f"{what}.particles.csv") == files, f"{what}: particle file written: {files}")
    with open(path) as stream:
        text = stream.read()
    check(("particles_file" in text) == files and ("particle = [" in text) != files, f"{what}: [initial] form")
    described = m.validate()
    counts = re.search(r"initial state: (\d+) particles, (\d+) tethers", described)
    check(counts and (int(counts[1]), int(counts[2])) == (len(m.particles), len(m.tether_pairs)),
          f"{what}: validate describes {counts and counts.group(0)}, built {len(m.particles)}, "
          f"{len(m.tether_pairs)}")
    with m.run(f"{what}-out", overwrite=True) as run:
        check(isinstance(run, tethersim.Run) and run.frame_count == 3, f"{what}: run frames")
        frame = run.frame(0)
        ids = sorted(m.particles)
        built = np.array([m.particles[k][1][:m.dimensions] for k in ids])
        # Positions are stored in the box frame: back in model coordinates, they
        # may differ in the last bits.
        check(frame.ids.tolist() == ids and np.allclose(frame.positions, built, rtol=0, atol=1e-12),
              f"{what}: first frame")
        names = run.species_names
        check([names[s] for s in frame.species] == [m.particles[k][0] for k in ids], f"{what}: species")
        check(sorted(map(tuple, run.tethers(0).tolist())) == sorted(m.tether_pairs), f"{what}: tethers")


# 1. Every helper, inline and as files, validated and run.
m = base("chain")
chain = m.chain("P", count=10, start=[-5, 0, 0], step=[1.2, 0, 0])
check(tuple(chain) == tuple(range(10)) and isinstance(chain, tethersim.Group), f"chain ids {chain}")
check(sorted(m.tether_pairs) == [(k, k + 1) for k in range(9)], "chain bonds")
wall = m.particle("W", [-8, 0, 0])
check(wall == 10, f"next id {wall}")
m.tether(wall, chain[0])
round_trip(m, "chain", files=False)
round_trip(m, "chain-files", files=True)

m = base("sheet-triangular")
sheet = m.sheet("P", size=(8, 6), spacing=1.2, centre=[0, 0, 5])
check(len(sheet) == 48 and max(degrees(m, sheet)) == 6 and degrees(m, sheet)[8 + 1] == 6,
      f"triangular sheet degrees {Counter(degrees(m, sheet))}")
check(all(abs(d - 1.2) < 1e-9 for d in lengths(m)), "triangular sheet tether lengths")
round_trip(m, "sheet-triangular", files=False)

m = base("sheet-square")
sheet = m.sheet("P", size=5, spacing=1.2, lattice="square")
check(sorted(Counter(degrees(m, sheet)).items()) == [(2, 4), (3, 12), (4, 9)],
      f"square sheet degrees {Counter(degrees(m, sheet))}")
check(len(m.tether_pairs) == 2 * 5 * 4, f"square sheet tethers {len(m.tether_pairs)}")
round_trip(m, "sheet-square", files=True)

m = base("vesicle")
vesicle = m.vesicle("P", count=80, radius=3.0, centre=[2, 2, 2])
radii = [math.dist(m.particles[k][1], (2, 2, 2)) for k in vesicle]
check(max(abs(r - 3.0) for r in radii) < 1e-9, "vesicle points on the sphere")
# A triangulated sphere: 3n - 6 edges, about six per particle.
check(len(m.tether_pairs) == 3 * 80 - 6 and min(degrees(m, vesicle)) >= 4 and max(degrees(m, vesicle)) <= 8,
      f"vesicle: {len(m.tether_pairs)} tethers, degrees {sorted(Counter(degrees(m, vesicle)).items())}")
spacing = 3.0 * math.sqrt(8 * math.pi / (math.sqrt(3) * 80))
check(0.75 * spacing < min(lengths(m)) and max(lengths(m)) < 1.45 * spacing,
      f"vesicle tether lengths {min(lengths(m))}-{max(lengths(m))}, spacing {spacing}")
round_trip(m, "vesicle", files=False)

m = base("random")
m.vesicle("P", count=50, radius=2.5)
ligands = m.random("L", count=300, temperature=1.0, seed=7)
check(len(ligands) == 300 and ligands[0] == 50, f"random ids {ligands[:2]}")
check(any(any(v) for _, _, v in (m.particles[k] for k in ligands)), "random: thermal velocities")
round_trip(m, "random", files=False)
again = base("again")
again.vesicle("P", count=50, radius=2.5)
same = again.random("L", count=300, temperature=1.0, seed=7)
check([again.particles[k] for k in same] == [m.particles[k] for k in ligands], "random: same seed, same particles")
other = base("other")
other.vesicle("P", count=50, radius=2.5)
moved = other.random("L", count=300, seed=8)
check([other.particles[k][1] for k in moved] != [m.particles[k][1] for k in ligands], "random: seeds differ")

m = base("within")
anchors = [m.particle("W", [x, 0, -10]) for x in (-3.0, 0.0, 3.0)]
layer = m.sheet("P", size=(9, 1), spacing=1.0, centre=[0, 0, -8], lattice="square", tether=False)
added = m.tether_within(2.5, group=anchors, to=layer)
check(added == 3 * 3 and all(a in anchors for a, _ in m.tether_pairs), f"tethers to a group: {added}")
check(m.tether_within(1.0, group=layer) == 8 and m.tether_within(1.0, group=layer) == 0, "tethers within, twice")
round_trip(m, "within", files=False)

m = base("large")
big = m.sheet("P", size=(30, 20), spacing=1.2, centre=[0, 0, 0])
m.write("large.toml")
check(os.path.isfile("large.particles.csv") and os.path.isfile("large.tethers.csv"),
      "a placement of 600 particles goes to CSV files by itself")
check(len(big) == 600 and m.validate().rstrip().endswith("valid"), "large sheet validates")

m = base("flat", dimensions=2)
m.chain("P", count=5, start=[0, 0], step=[1.2, 0.0])
m.random("L", count=20, temperature=1.0)
check(all(v[2] == 0 and p[2] == 0 for _, p, v in m.particles.values()), "2-D: nothing along z")
round_trip(m, "flat", files=False)

# 2. Ids: after an explicit id, the next one goes on from it.
m = base("ids")
check(m.particle("L", [0, 0, 0], id=100) == 100 and m.particle("L", [5, 0, 0]) == 101, "ids after an explicit id")
refused(lambda: m.particle("L", [10, 0, 0], id=101), "duplicate particle id 101", "duplicate id")

# 3. Refusals at construction, one line each.
m = base("refusals")
refused(lambda: m.species("Q", mass=1.0, raduis=1.0), "unknown key 'raduis' in [species] (did you mean 'radius'?)",
        "misspelt species key")
refused(lambda: m.species("Q", mass=-1.0), "species.Q.mass: must be positive", "negative mass")
refused(lambda: m.species("Q", mass=1.0, random_impulse={"tau": 1.0}), "exactly one of 'mean' or 'speed'",
        "random impulse without its size")
refused(lambda: m.pair("P", "X", c=1.0), "unknown species 'X' (defined: W, P, L)", "pair of an unknown species")
refused(lambda: m.pair("P", "P", c=1.0), "pair P-P is listed twice", "pair twice")
refused(lambda: m.pair("L", "L", blocking=2.0, tethering=2.0), "must be below the tethering distance",
        "blocking equal to tethering")
refused(lambda: m.pair("L", "L", c=1.5), "pair.L-L.c: must be in [0, 1]", "coefficient above 1")
refused(lambda: m.physics(theta=0.1), "unknown key 'theta' in [physics]", "misspelt physics key")
refused(lambda: m.output(frame_intervall=1.0), "(did you mean 'frame_interval'?)", "misspelt output key")
refused(lambda: m.external("wind", g=[0, 0, 1], interval=1.0), "must be \"gravity\" or \"drag\"", "external kind")
refused(lambda: m.external("gravity", viscosity=1.0, interval=1.0), "unknown key 'viscosity' in [external.gravity]",
        "drag key on gravity")
refused(lambda: m.attach("P", "L", max_partner={"P": 1}), "did you mean 'max_partners'", "misspelt attach key")
refused(lambda: tethersim.Model("x", end_time=0.0), "run.end_time: must be positive", "end time 0")
refused(lambda: tethersim.Model("x", end_time=1.0, units={"length": "n m"}), "must be one word", "unit with a space")
first = m.particle("P", [0, 0, 0])
refused(lambda: m.particle("P", [0.5, 0, 0]),
        f"particles {first} (species P) and 1 (species P) overlap: 0.5 apart, closer than their blocking distance 1 "
        "(pair.P-P.blocking)", "overlap")
before = dict(m.particles)
refused(lambda: m.chain("P", count=5, start=[-3, 0, 0], step=[1.2, 0, 0]), "overlap", "a chain across a particle")
check(m.particles == before and m.particle("L", [3, 3, 3]) == 1, "a refused placement adds nothing, ids included")
refused(lambda: m.particle("P", [31, 0, 0]), "lies outside the box", "outside the box")
refused(lambda: m.particle("W", [10, 10, 10], velocity=[1, 0, 0]), "has infinite mass and must be at rest",
        "moving wall")
refused(lambda: m.particle("Q", [10, 10, 10]), "unknown species 'Q'", "particle of an unknown species")
refused(lambda: m.tether(first, 99), "refers to particle 99, which does not exist", "tether to nobody")
refused(lambda: m.tether(first, first), "joins a particle to itself", "tether to itself")
refused(lambda: m.random("P", count=50, lo=[0, 0, 0], hi=[2, 2, 2]), "could not place 50", "no room")
flat = base("flat-refusals", dimensions=2)
refused(lambda: flat.particle("P", [0, 0], velocity=[0, 0, 1]), "moves along an axis a 2-D model does not have",
        "velocity along an unused axis")

# 4. Refusals of the model as a whole, at write(); the program refuses the
#    same model written without the builder's checks.
def program_refuses(m, fragment, what):
    path = f"{what}.toml"
    with open(path, "w") as stream:
        stream.write(model_text.model_text(m))
    try:
        call(["validate", path])
        check(False, f"{what}: the program accepts what the builder refuses")
    except ModelError as error:
        check(fragment in str(error), f"{what}: the program says {error}")


m = tethersim.Model("missing-pair", end_time=1.0)  # no pair_defaults
m.box(lo=[0, 0, 0], hi=[5, 5, 5])
m.species("P", mass=1.0)
m.species("Y", mass=1.0)
m.pair("P", "P", c=1.0)
m.particle("P", [1, 1, 1])
refused(lambda: m.write("missing-pair.toml"), "missing pair P-Y", "missing pair")
program_refuses(m, "missing pair P-Y", "missing-pair")
m = base("long-tether")
a, b = m.particle("P", [0, 0, 0]), m.particle("P", [2.5, 0, 0])
m.tether(a, b)
refused(lambda: m.write("long-tether.toml"), "tether 0-1 is 2.500000 long, beyond the P-P tethering distance 2.000000",
        "tether beyond its pair's reach")
program_refuses(m, "tether 0-1 is 2.500000 long, beyond the P-P tethering distance 2.000000", "long-tether")
m = base("untetherable")
a, b = m.particle("L", [0, 0, 0]), m.particle("L", [1.2, 0, 0])
m.tether(a, b)
refused(lambda: m.write("untetherable.toml"), "pair L-L has no tethering distance", "tether of an untetherable pair")
program_refuses(m, "pair L-L has no tethering distance", "untetherable")
m = base("late-pair")
m.particle("L", [0, 0, 0])
m.particle("L", [1.5, 0, 0])
m.pair("L", "L", blocking=2.0, c=1.0)  # a pair defined after the particles
refused(lambda: m.write("late-pair.toml"), "overlap: 1.5 apart, closer than their blocking distance 2", "late pair")
program_refuses(m, "overlap: 1.5 apart, closer than their blocking distance 2", "late-pair")
m = base("periodic", boundary="periodic")
m.particle("P", [-29.8, 0, 0])
refused(lambda: m.particle("P", [29.8, 0, 0]), "overlap: 0.4 apart", "overlap through a periodic face")
m = base("late-box")
m.particle("P", [25, 0, 0])
refused(lambda: m.box(lo=[-20] * 3, hi=[20] * 3), "lies outside the box", "a box that leaves a particle out")
m = base("program-says")
m.particle("P", [0, 0, 0])
m.physics(theta_revolve=2.0)  # a value the builder passes on: the program checks it
refused(m.validate, "physics.theta_revolve: must be an angle in (0, pi/2) radians, got 2", "program's refusal")
try:
    tethersim.find_tethersim(os.path.join(work, "no-such-program"))
    check(False, "a missing program was found")
except tethersim.RunError as error:
    check("no tethersim program at" in str(error), f"missing program: {error}")

# 5. The builder knows every key model-format.md lists, and no other: the
#    first column of the tables of each section against model_keys.KEYS.
from tethersim.model_keys import KEYS  # noqa: E402
SECTIONS = {"## 4. ": ("model",), "### 4.1 ": ("model.units",), "## 5. ": ("run",), "## 6. ": ("physics",),
            "## 7. ": ("domain",), "## 8. ": ("species", "species.random_impulse", "species.thermostat"), "## 9. ": ("pair", "pair_defaults"),
            "## 10. ": ("external.gravity", "external.drag"), "## 11. ": ("attach", "detach"),
            "## 12. ": ("action_potential",), "## 15. ": ("output",)}
with open(os.path.join(source, "docs", "model-format.md")) as stream:
    parts = re.split(r"^(##+ .*)$", stream.read(), flags=re.M)
for heading, body in zip(parts[1::2], parts[2::2]):
    tables = next((t for prefix, t in SECTIONS.items() if heading.startswith(prefix)), None)
    if tables is None:
        continue
    documented = set()
    for line in body.splitlines():
        cell = re.match(r"^\|([^|]*)\|", line)
        if cell:
            documented |= set(re.findall(r"`([A-Za-z_]+)`", cell.group(1)))
    known = set().union(*(KEYS[t] for t in tables))
    check(documented == known, f"{heading}: documented but unknown to the builder {sorted(documented - known)}, "
          f"known but not documented {sorted(known - documented)}")
    SECTIONS = {p: t for p, t in SECTIONS.items() if t != tables}
check(not SECTIONS, f"sections of model-format.md not found: {list(SECTIONS)}")

# 6. The package's public names.
check(set(tethersim.__all__) <= set(dir(tethersim)), f"dir(tethersim) lacks {set(tethersim.__all__) - set(dir(tethersim))}")
extra = {n for n in dir(tethersim) if not n.startswith("__")} - set(tethersim.__all__)
check(not extra, f"dir(tethersim) lists names that are not public: {sorted(extra)}")
check(all(getattr(tethersim, name) is not None for name in tethersim.__all__), "a public name does not load")
check({"Model", "Group", "ModelError", "open_run", "Run", "plots", "readable_unit"} <= set(tethersim.__all__),
      f"__all__ {tethersim.__all__}")

sys.exit(check.finish())
