#!/usr/bin/env python3
"""Fuzzes the model reader: mutates the example model files, and adds
`--set KEY=VALUE` overrides to some cases, and checks that
`tethersim validate` answers every case with exit 0, or exit 2 and one line
on stderr; never a crash, another exit code or a hang. Mutations and
override values include bytes that are not UTF-8.

Deterministic: case i of seed s is always the same mutation, so a failure
is reproduced with --seed s --only i (the failing file is kept with -k).

    model_reader_fuzz.py --exe build/release/src/app/tethersim \
        --examples examples --cases 300 --seed 1
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

# Values that probe the edges of every numeric type the reader converts to.
EDGE_NUMBERS = [
    "0", "-0.0", "-1", "1e-320", "1e400", "-1e400", "1e308", "nan", "inf", "-inf",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551616", "4294967296", "2147483648", "0x7fffffffffffffff",
    "0xffffffffffffffffff", "1e10", "1e-300", "3e9", "true", '"x"', "[]", "{}",
]
# Characters that change the meaning of TOML text.
SYNTAX = list("[]{}=\".,#'\\\n") + ["\"\"\"", "'''", " = ", "[[", "]]"]
# Bytes that are not UTF-8 text where they stand (a stray continuation byte,
# bytes never in UTF-8, a truncated sequence, an overlong form, a
# surrogate), as the surrogate escapes that write them as those bytes.
NOT_UTF8 = [b.decode("utf-8", "surrogateescape") for b in
            [b"\x80", b"\xff", b"\xfe", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80",
             b"\xf4\x90\x80\x80"]]
# Override values: edge numbers, TOML that is more than one value, text
# with control characters, and bytes that are not UTF-8.
SET_VALUES = EDGE_NUMBERS + [
    "1e-300", "5e-324", "pi/16", "presynaptic", "[1, 2, 3]", "{ tau = 1, speed = 2 }", '"\\u0000"',
    "1\nother = 2", "1\n[x]", '"""a\nb"""', "\x01", "a\tb", "", "=", "[[[[", "{a=", '"unterminated',
] + NOT_UTF8 + ['"' + b + '"' for b in NOT_UTF8]
NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d_]*(\.\d+)?([eE][-+]?\d+)?(?![\w.])")


def replace_number(rng, text):
    spots = list(NUMBER.finditer(text))
    if not spots:
        return text
    m = rng.choice(spots)
    return text[:m.start()] + rng.choice(EDGE_NUMBERS) + text[m.end():]


def scale_number(rng, text):
    spots = list(NUMBER.finditer(text))
    if not spots:
        return text
    m = rng.choice(spots)
    return text[:m.start()] + m.group(0) + rng.choice(["0", "00000", "e5", "e-5", "e30"]) + text[m.end():]


def delete_line(rng, text):
    lines = text.split("\n")
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(rng, text):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def swap_lines(rng, text):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def insert_syntax(rng, text):
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(SYNTAX) + text[i:]


def delete_span(rng, text):
    i = rng.randrange(len(text) + 1)
    return text[:i] + text[i + rng.randrange(1, 40):]


def flip_byte(rng, text):
    i = rng.randrange(len(text))
    return text[:i] + chr(rng.randrange(1, 256)) + text[i + 1:]


def insert_not_utf8(rng, text):
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(NOT_UTF8) + text[i:]


def truncate(rng, text):
    return text[:rng.randrange(len(text) + 1)]


def nest_deeply(rng, text):
    depth = rng.choice([70, 1000, 10000, 100000])
    form = rng.randrange(3)
    if form == 2:  # a dotted key: as many nested tables
        return text + "\n" + ".".join(["a"] * depth) + " = 1\n"
    opener, closer = [("[", "]"), ("{a=", "}")][form]
    return text + "\nfuzz_nested = " + opener * depth + "1" + closer * depth + "\n"


def rename_key(rng, text):
    keys = list(re.finditer(r"^(\s*)([A-Za-z_]+)(\s*=)", text, re.M))
    if not keys:
        return text
    m = rng.choice(keys)
    name = m.group(2)
    new = rng.choice([name[:-1], name + "s", name.upper(), "", name + "." + name])
    return text[:m.start(2)] + new + text[m.end(2):]


MUTATORS = [replace_number, replace_number, replace_number, scale_number, delete_line,
            duplicate_line, swap_lines, insert_syntax, delete_span, flip_byte, insert_not_utf8,
            truncate, nest_deeply, rename_key]


def mutate(rng, text):
    for _ in range(rng.choice([1, 1, 2, 3])):
        text = rng.choice(MUTATORS)(rng, text)
    return text


def key_paths(text):
    """The dotted paths of the keys a model file sets, as --set names them
    (the first element of an array of tables by index)."""
    paths = []
    table = ""
    for line in text.split("\n"):
        header = re.match(r"^\s*\[(\[?)\s*([A-Za-z_.]+)\s*\]", line)
        if header:
            table = header.group(2) + (".0" if header.group(1) else "")
            continue
        key = re.match(r"^\s*([A-Za-z_]+)\s*=", line)
        if key:
            paths.append((table + "." if table else "") + key.group(1))
    return paths


def overrides(rng, text):
    """One to three --set assignments: a key of the file (or a mangled one)
    and a value meant to break something."""
    paths = key_paths(text) or ["run.end_time"]
    out = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        path = rng.choice(paths)
        if rng.random() < 0.1:
            path = path + rng.choice(NOT_UTF8 + [".x", ".0", ".."])
        out.append(path + "=" + rng.choice(SET_VALUES))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exe", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case")
    parser.add_argument("--only", type=int, help="run this case only")
    parser.add_argument("-k", "--keep", help="directory to keep failing files in")
    args = parser.parse_args()

    models = sorted(os.path.join(args.examples, f) for f in os.listdir(args.examples)
                    if f.endswith(".toml"))
    texts = [(m, open(m, encoding="utf-8").read()) for m in models]
    failures = 0
    counts = {0: 0, 2: 0}
    cases = [args.only] if args.only is not None else range(args.cases)
    # Under the sanitizers, no leak check: it needs slow stack unwinding on
    # every allocation (to suppress Open MPI's process-lifetime allocations)
    # and made this test a quarter of the sanitizer pass. Memory errors are
    # still caught.
    environment = dict(os.environ)
    if "detect_leaks=1" in environment.get("ASAN_OPTIONS", ""):
        environment["ASAN_OPTIONS"] = environment["ASAN_OPTIONS"].replace("detect_leaks=1", "detect_leaks=0")
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            # One generator per case: case i does not depend on the others.
            rng = random.Random(args.seed * 1_000_003 + case)
            source, text = texts[rng.randrange(len(texts))]
            # A third of the cases: the example as it is, with overrides.
            assignments = overrides(rng, text) if rng.random() < 1 / 3 else []
            mutated = text if assignments else mutate(rng, text)
            path = os.path.join(work, f"case{case}.toml")
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(mutated)
            problem = None
            try:
                # Arguments as bytes: surrogate escapes become the bytes they stand for.
                command = [args.exe, "validate", "--quiet", path]
                for a in assignments:
                    command.append(os.fsencode("--set=" + a))
                r = subprocess.run(command, capture_output=True, timeout=args.timeout,
                                   env=environment)
                err = r.stderr.decode("utf-8", "replace")
                if r.returncode not in (0, 2):
                    problem = f"exit {r.returncode}"
                elif r.returncode == 2 and err.count("\n") != 1:
                    problem = f"{err.count(chr(10))} lines on stderr"
                elif r.returncode == 0 and err:
                    problem = "stderr on success"
                else:
                    counts[r.returncode] += 1
            except subprocess.TimeoutExpired:
                problem = f"no answer within {args.timeout} s"
                err = ""
            if problem:
                failures += 1
                shown = " ".join(ascii("--set=" + a) for a in assignments)
                print(f"case {case} (from {os.path.basename(source)}, seed {args.seed}"
                      f"{', ' + shown if shown else ''}): {problem}\n{err[:2000]}", file=sys.stderr)
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, f"seed{args.seed}-case{case}.toml"), "w",
                              encoding="utf-8", errors="surrogateescape") as f:
                        f.write(mutated)
    print(f"{len(cases)} cases: {counts[0]} valid, {counts[2]} refused with one line, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
