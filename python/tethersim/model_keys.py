"""The keys of each table of a model file (docs/model-format.md), so that
the model builder refuses a misspelt key the way `tethersim validate`
does: at once, naming the key and suggesting the nearest known one."""

import difflib

# Table -> the keys docs/model-format.md lists for it (sections 4 to 15).
KEYS = {
    "model": ("name", "description", "dimensions"),
    "model.units": ("length", "time", "mass"),
    "run": ("end_time", "seed"),
    "physics": ("theta_revolve", "restitution_delay", "restitution_schedule", "dt_max", "max_group_size",
                "tc_elastic_time"),
    "domain": ("lo", "hi", "boundary", "sector_size", "escape_radius", "escape_centre"),
    "species": ("name", "mass", "radius", "random_impulse", "thermostat"),
    "species.random_impulse": ("tau", "shape", "mean", "speed"),
    "species.thermostat": ("kT", "diffusion", "friction", "interval", "tau", "shape"),
    "pair": ("species", "blocking", "tethering", "c_rebound", "c_retract", "c_revolve", "c", "permanent"),
    "pair_defaults": ("c", "c_rebound", "c_retract", "c_revolve"),
    "external.gravity": ("kind", "interval", "start", "species", "g"),
    "external.drag": ("kind", "interval", "start", "species", "viscosity", "fluid_velocity"),
    "attach": ("species", "max_partners", "exclusive_dimer", "unless_reaction"),
    "detach": ("species", "reaction", "requires", "release"),
    "action_potential": ("membrane", "zone", "zone_radius", "gradient", "reactions", "windows"),
    "output": ("directory", "frame_interval", "fields", "frame_precision", "frame_compression", "frame_species",
               "observables_interval", "cluster_species", "tethered_pairs", "checkpoint_interval",
               "checkpoint_wall_minutes", "progress_seconds"),
}


class ModelError(ValueError):
    """A model the program would refuse: an unknown key or species, an
    overlap, a particle outside the box, a tether it cannot hold. The
    message is one line naming what is wrong, like `tethersim validate`'s."""


def check_keys(table, given, where=None):
    """Raises ModelError for the first key of `given` that `table` lacks."""
    known = KEYS[table]
    for key in given:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(known)})"
            raise ModelError(f"{where or table}: unknown key '{key}' in [{table}]{hint}")
