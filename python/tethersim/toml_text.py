"""Writing TOML values and tables (the standard library reads TOML but does
not write it). Numbers are written so that they read back bit for bit:
Python's repr of a float is the shortest text that round-trips, and
infinity is TOML's `inf`. NaN is refused: no model key accepts it."""

import math


def toml_value(value):
    """The TOML text of a bool, int, float, str, list/tuple or dict."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("NaN is not a value a model accepts")
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)  # "0.1", "1e-05", "2.5e+16": the shortest text that round-trips
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }" if value else "{}"
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return toml_value(value.tolist())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as TOML")


def toml_table(header, keys):
    """`[header]` (or `[[header]]` when header starts with "[") and its keys,
    one per line; None values are left out."""
    lines = [f"[{header}]"]
    lines += [f"{_key(k)} = {toml_value(v)}" for k, v in keys.items() if v is not None]
    return "\n".join(lines) + "\n"


def _key(key):
    bare = key and all(c.isalnum() or c in "_-" for c in key) and key.isascii()
    return key if bare else _string(key)


def _string(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if ord(c) >= 0x20 and c != "\x7f" else f"\\u{ord(c):04x}" for c in escaped)
    return f'"{escaped}"'
