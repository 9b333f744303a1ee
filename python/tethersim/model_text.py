"""The files a built model is written as: the TOML model file
(docs/model-format.md) and, for large placements, its particle and tether
CSV files (section 13), named in [initial] relative to the model file."""

import os

from .toml_text import toml_table, toml_value

HEADER = "# Written by tethersim.Model (python/tethersim/model.py); the format is docs/model-format.md.\n"


def _vector(point, dimensions):
    return list(point[:dimensions])


def _particle_line(ident, species, point, velocity, dimensions):
    keys = {"id": ident, "species": species, "position": _vector(point, dimensions)}
    if any(velocity):
        keys["velocity"] = _vector(velocity, dimensions)
    return "  " + toml_value(keys) + ","


def model_text(model, particles_file=None, tethers_file=None):
    """The TOML text of a Model (checked already); particles and tethers
    are listed in it unless their CSV file names are given."""
    parts = [HEADER]
    parts.append(toml_table("model", {"name": model.name, "description": model.description,
                                      "dimensions": model.dimensions}))
    if model.units:
        parts.append(toml_table("model.units", model.units))
    parts.append(toml_table("run", {"end_time": model.end_time, "seed": model.seed}))
    for name in ("physics", "domain"):
        if model.tables[name]:
            parts.append(toml_table(name, model.tables[name]))
    for name, keys in model.species_keys.items():
        parts.append(toml_table("[species]", {"name": name, **keys}))
    if model.defaults is not None:
        parts.append(toml_table("pair_defaults", model.defaults))
    for pair, keys in model.pairs.items():
        parts.append(toml_table("[pair]", {"species": list(pair), **keys}))
    for header, tables in (("[external]", model.externals), ("[attach]", model.attach_rules),
                           ("[detach]", model.detach_rules)):
        parts += [toml_table(header, keys) for keys in tables]
    if model.action_potential_keys is not None:
        parts.append(toml_table("action_potential", model.action_potential_keys))
    parts.append(_initial(model, particles_file, tethers_file))
    if model.tables["output"]:
        parts.append(toml_table("output", model.tables["output"]))
    return "\n".join(parts)


def _initial(model, particles_file, tethers_file):
    lines = ["[initial]"]
    if particles_file is not None:
        lines.append(f"particles_file = {toml_value(particles_file)}")
    else:
        lines.append("particle = [")
        lines += [_particle_line(i, s, p, v, model.dimensions) for i, (s, p, v) in model.particles.items()]
        lines.append("]")
    if tethers_file is not None:
        lines.append(f"tethers_file = {toml_value(tethers_file)}")
    elif model.tether_pairs:
        pairs = [f"[{a}, {b}]" for a, b in model.tether_pairs]
        lines.append("tethers = [")
        lines += ["  " + ", ".join(pairs[k:k + 8]) + "," for k in range(0, len(pairs), 8)]
        lines.append("]")
    return "\n".join(lines) + "\n"


def particles_csv(model):
    """The particle file: id, species, position and velocity per line
    (only the model's axes)."""
    axes = "xyz"[:model.dimensions]
    header = ",".join(["id", "species", *axes, *(f"v{a}" for a in axes)])
    rows = [",".join([str(i), s, *(repr(float(x)) for x in p[:model.dimensions]),
                      *(repr(float(x)) for x in v[:model.dimensions])])
            for i, (s, p, v) in model.particles.items()]
    return "\n".join([header, *rows]) + "\n"


def tethers_csv(model):
    return "\n".join(["a,b", *(f"{a},{b}" for a, b in model.tether_pairs)]) + "\n"


def write_model_files(model, path, files):
    """Writes the model to `path`; with files, its particles (and tethers,
    if any) to STEM.particles.csv and STEM.tethers.csv beside it."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    particles_file = tethers_file = None
    if files:
        particles_file = f"{stem}.particles.csv"
        _write(os.path.join(directory, particles_file), particles_csv(model))
        if model.tether_pairs:
            tethers_file = f"{stem}.tethers.csv"
            _write(os.path.join(directory, tethers_file), tethers_csv(model))
    _write(path, model_text(model, particles_file, tethers_file))


def _write(path, text):
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
