"""Finding overlaps among placed particles fast: a hash of cells at least
as wide as the largest blocking distance, so that a new particle is tested
only against those in the 27 cells around it.

The test is the program's (docs/model-format.md, section 13): centres
closer than their pair's blocking distance, through the nearest periodic
image, with a tolerance of 1e-9 of that distance so that particles exactly
at contact are accepted.
"""

import math
from itertools import product

TOLERANCE = 1e-9


class ContactIndex:
    """Positions and species indices by particle id.

    blocking(a, b): the blocking distance of species indices a and b.
    periodic: {axis: (lo, length)} of the periodic axes of the box.
    """

    def __init__(self, blocking, reach, periodic=None):
        self.blocking = blocking
        self.reach = reach
        self.periodic = dict(periodic or {})
        self.cells = {}
        self.where = {}

    def _cell(self, point):
        cell = []
        for axis, x in enumerate(point):
            if axis in self.periodic:
                lo, length = self.periodic[axis]
                count = max(1, math.floor(length / self.reach))
                cell.append(math.floor((x - lo) / length * count) % count)
            else:
                cell.append(math.floor(x / self.reach))
        return tuple(cell)

    def _around(self, point):
        base = self._cell(point)
        seen = set()
        for offset in product((-1, 0, 1), repeat=3):
            cell = []
            for axis, (b, o) in enumerate(zip(base, offset)):
                if axis in self.periodic:
                    count = max(1, math.floor(self.periodic[axis][1] / self.reach))
                    cell.append((b + o) % count)
                else:
                    cell.append(b + o)
            cell = tuple(cell)
            if cell not in seen:
                seen.add(cell)
                yield from self.cells.get(cell, ())

    def separation(self, a, b):
        """Distance from a to b through the nearest periodic image."""
        total = 0.0
        for axis, (x, y) in enumerate(zip(a, b)):
            d = x - y
            if axis in self.periodic:
                length = self.periodic[axis][1]
                d -= length * round(d / length)
            total += d * d
        return math.sqrt(total)

    def first_overlap(self, point, species):
        """(id, distance, blocking) of a placed particle that `point` of
        `species` would overlap, or None."""
        if self.reach <= 0:
            return None
        for other in self._around(point):
            position, other_species = self.where[other]
            need = self.blocking(species, other_species)
            if need > 0:
                gap = self.separation(point, position)
                if gap < need * (1.0 - TOLERANCE):
                    return other, gap, need
        return None

    def add(self, ident, point, species):
        self.where[ident] = (point, species)
        if self.reach > 0:
            self.cells.setdefault(self._cell(point), []).append(ident)
