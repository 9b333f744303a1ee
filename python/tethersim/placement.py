"""Geometry of the model builder's placements: pure functions from sizes
and spacings to points (3-vectors) and to edges between them (index
pairs, lower index first). Nothing here knows species or ids."""

import math
import random as _random
from itertools import product


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def scaled(a, s):
    return tuple(x * s for x in a)


def distance(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def vector3(value, what):
    """A 3-vector from 1 to 3 numbers (missing components 0, as the model
    format reads vectors)."""
    try:
        numbers = [float(x) for x in value]
    except TypeError:
        raise TypeError(f"{what}: expected a vector of 1 to 3 numbers, got {value!r}") from None
    if not 1 <= len(numbers) <= 3:
        raise ValueError(f"{what}: expected a vector of 1 to 3 numbers, got {len(numbers)}")
    return tuple(numbers + [0.0] * (3 - len(numbers)))


def chain_points(count, start, step):
    """count points from start, each `step` (a vector) after the last."""
    return [add(start, scaled(step, k)) for k in range(count)]


def chain_edges(count):
    return [(k, k + 1) for k in range(count - 1)]


def sheet_points(columns, rows, spacing, centre, lattice):
    """A flat patch in the plane z = centre[2], centred on centre.

    "square": columns x rows points of pitch `spacing`. "triangular": rows
    `spacing * sqrt(3)/2` apart, every other row shifted by half a spacing,
    so that each inner point has six neighbours at `spacing`.
    """
    if lattice == "square":
        pitch_y, shift = spacing, 0.0
    elif lattice == "triangular":
        pitch_y, shift = spacing * math.sqrt(3.0) / 2.0, spacing / 2.0
    else:
        raise ValueError(f"lattice: must be \"triangular\" or \"square\", got {lattice!r}")
    width = (columns - 1) * spacing + (shift if rows > 1 else 0.0)
    height = (rows - 1) * pitch_y
    x0, y0 = centre[0] - width / 2.0, centre[1] - height / 2.0
    return [(x0 + i * spacing + (shift if j % 2 else 0.0), y0 + j * pitch_y, centre[2])
            for j in range(rows) for i in range(columns)]


def sphere_points(count, radius, centre):
    """count points spread evenly over a sphere (the Fibonacci lattice:
    equal-area bands, successive points turned by the golden angle)."""
    golden = math.pi * (3.0 - math.sqrt(5.0))
    points = []
    for k in range(count):
        z = 1.0 - 2.0 * (k + 0.5) / count
        r = math.sqrt(max(0.0, 1.0 - z * z))
        phi = golden * k
        points.append(add(centre, (radius * r * math.cos(phi), radius * r * math.sin(phi), radius * z)))
    return points


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def hull_edges(points):
    """The edges of the convex hull of points (3-vectors, at least 4, not
    all in one plane): for points on a sphere, the triangulated surface
    (each point joined to its Delaunay neighbours on the sphere).

    Incremental: start from a tetrahedron, and for each further point
    replace the faces it sees by a cone of faces from their horizon to it.
    Faces are index triples, counter-clockwise seen from outside.
    """
    def normal(face):
        a, b, c = (points[k] for k in face)
        return _cross(_sub(b, a), _sub(c, a))

    def sees(face, point):
        n = normal(face)
        scale = math.sqrt(_dot(n, n)) * max(1e-300, max(abs(x) for x in _sub(point, points[face[0]])))
        return _dot(n, _sub(point, points[face[0]])) > 1e-12 * scale

    first = 0
    second = max(range(len(points)), key=lambda k: distance(points[k], points[first]))
    axis = _sub(points[second], points[first])
    third = max(range(len(points)),
                key=lambda k: _dot(*(2 * [_cross(axis, _sub(points[k], points[first]))])))
    plane = _cross(axis, _sub(points[third], points[first]))
    fourth = max(range(len(points)), key=lambda k: abs(_dot(plane, _sub(points[k], points[first]))))
    if abs(_dot(plane, _sub(points[fourth], points[first]))) <= 1e-12 * _dot(plane, plane) ** 0.5:
        raise ValueError("the points lie in one plane")
    tetrahedron = (first, second, third, fourth)
    faces = set()
    for face in ((first, second, third), (first, second, fourth), (first, third, fourth), (second, third, fourth)):
        other = next(k for k in tetrahedron if k not in face)
        faces.add(face if not sees(face, points[other]) else (face[0], face[2], face[1]))
    for k, point in enumerate(points):
        if k in tetrahedron:
            continue
        visible = [face for face in faces if sees(face, point)]
        directed = {(f[i], f[(i + 1) % 3]) for f in visible for i in range(3)}
        faces.difference_update(visible)
        faces.update((a, b, k) for a, b in directed if (b, a) not in directed)
    return sorted({(min(f[i], f[(i + 1) % 3]), max(f[i], f[(i + 1) % 3])) for f in faces for i in range(3)})


def cell_of(point, size):
    return tuple(math.floor(x / size) for x in point)


def edges_within(points, reach, others=None):
    """Index pairs of points at most `reach` apart (with a relative
    tolerance of 1e-9, so that lattice neighbours at exactly `reach` count).
    With `others`, pairs (i, j) of a point i of `points` and j of `others`."""
    limit = reach * (1.0 + 1e-9)
    targets = points if others is None else others
    cells = {}
    for j, q in enumerate(targets):
        cells.setdefault(cell_of(q, limit), []).append(j)
    edges = []
    for i, p in enumerate(points):
        base = cell_of(p, limit)
        for offset in product((-1, 0, 1), repeat=3):
            for j in cells.get(tuple(b + o for b, o in zip(base, offset)), ()):
                if (others is not None or j > i) and distance(p, targets[j]) <= limit:
                    edges.append((i, j))
    return sorted(edges)


def uniform_point(stream, lo, hi, dimensions):
    """A point uniform in the box [lo, hi] on the first `dimensions` axes,
    and at lo on the others."""
    return tuple(stream.uniform(lo[a], hi[a]) if a < dimensions else lo[a] for a in range(3))


def thermal_velocity(stream, mass, temperature, dimensions):
    """A Maxwell-Boltzmann velocity at kT = temperature (0 for infinite
    mass or temperature 0)."""
    if temperature == 0 or math.isinf(mass):
        return (0.0, 0.0, 0.0)
    sigma = math.sqrt(temperature / mass)
    return tuple(stream.gauss(0.0, sigma) if a < dimensions else 0.0 for a in range(3))


def stream(seed):
    """A deterministic random stream: Python's Mersenne Twister, whose
    sequence for a given integer seed is fixed across Python versions."""
    return _random.Random(seed)
