"""Unit strings for people: H5MD's factor notation made readable.

The trajectory's `unit` attributes follow H5MD: factors separated by
spaces, each a unit name with an optional signed exponent ("kDa nm+2 ns-2",
"nm ns-1"). Axis labels show them as a fraction ("kDa nm^2/ns^2",
"nm/ns"), or with matplotlib mathtext superscripts for figures. Only a
signed exponent counts as one, so unit names that end in a digit ("nm3",
a volume used as a mass) stay as they are.
"""

import re

_FACTOR = re.compile(r"^(.*?\D)([+-]\d+)$")


def unit_factors(unit):
    """[(name, exponent)] of an H5MD unit string; "" gives []."""
    factors = []
    for word in unit.split():
        match = _FACTOR.match(word)
        factors.append((match.group(1), int(match.group(2))) if match else (word, 1))
    return factors


def readable_unit(unit, mathtext=False):
    """"kDa nm+2 ns-2" -> "kDa nm^2/ns^2" (mathtext: "kDa nm$^{2}$/ns$^{2}$").

    Factors with positive exponents come first, then "/" and the others
    (in parentheses when there are several); an exponent of 1 is not shown.
    """
    def power(name, exponent):
        if mathtext:
            name = name.replace("$", r"\$")  # a literal dollar, not a mathtext switch
        if exponent == 1:
            return name
        return f"{name}$^{{{exponent}}}$" if mathtext else f"{name}^{exponent}"

    factors = unit_factors(unit)
    above = " ".join(power(n, e) for n, e in factors if e > 0)
    below = [power(n, -e) for n, e in factors if e < 0]
    if not below:
        return above
    denominator = below[0] if len(below) == 1 else "(" + " ".join(below) + ")"
    return f"{above or '1'}/{denominator}"
