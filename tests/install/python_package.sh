#!/usr/bin/env bash
# The Python package (python/) reaches users both documented ways, and both
# import the same package and read a run:
#  - on PYTHONPATH, for Debian's /usr/bin/python3 (what jobs/local/env.sh does);
#  - installed by pip into a virtual environment made with
#    --system-site-packages (so that Debian's numpy, h5py, pandas and
#    MDAnalysis are seen), as a wheel (pip install ./python) and editable
#    (pip install -e ./python). Nothing is downloaded: --no-build-isolation
#    builds with Debian's setuptools, --no-deps takes the dependencies from
#    the system, and PIP_NO_INDEX keeps pip off the network.
# pip builds in the directory it is given, so it gets a copy of python/ and
# the source tree stays clean.
#   python_package.sh TETHERSIM SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
python=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

rm -rf "$work"; mkdir -p "$work"
"$exe" run "$src/examples/gas.toml" --set initial.parameters.cells=3 --end-time 1 -q -o "$work/run"

# read_run PYTHON: imports tethersim from wherever PYTHON finds it, reads the
# run, builds a model and prints the package's location.
read_run() {
  (cd "$work" && "$1" - "$work/run" <<'PY'
import sys
import numpy
import tethersim
with tethersim.open_run(sys.argv[1]) as run:
    frame = run.frame(-1)
    assert frame.positions.shape == (108, 3), frame.positions.shape
    assert len(run.observables()) > 0
# The model builder's modules came along: a model is built and written.
assert {"Model", "open_run", "plots"} <= set(dir(tethersim)), dir(tethersim)
model = tethersim.Model("one", end_time=1.0)
model.box(lo=[0, 0, 0], hi=[2, 2, 2])
model.species("A", mass=1.0)
model.pair("A", "A", c=1.0)
model.particle("A", [1, 1, 1])
assert "[[species]]" in model.to_toml()
print(tethersim.__file__)
PY
  )
}

where=$(PYTHONPATH="$src/python" read_run "$python") || fail "import through PYTHONPATH failed"
[ "$where" = "$src/python/tethersim/__init__.py" ] || fail "PYTHONPATH imported tethersim from $where"

"$python" -c 'import venv, ensurepip' 2>/dev/null ||
  skip "Debian's python3-venv is missing (jobs/local/setup.sh installs it)"
"$python" -c 'import setuptools' 2>/dev/null ||
  skip "Debian's python3-setuptools is missing (jobs/local/setup.sh installs it)"
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset PYTHONPATH

for how in wheel editable; do
  venv="$work/venv-$how"
  "$python" -m venv --system-site-packages "$venv" > "$work/venv-$how.log" 2>&1 ||
    fail "python3 -m venv failed: $(tail -3 "$work/venv-$how.log")"
  cp -r "$src/python" "$work/python-$how"
  rm -rf "$work/python-$how/build" "$work/python-$how"/*.egg-info
  flags=(); [ "$how" = wheel ] || flags=(-e)
  "$venv/bin/pip" install --no-build-isolation --no-deps "${flags[@]}" "$work/python-$how" \
    > "$work/pip-$how.log" 2>&1 || fail "pip install ($how) failed: $(tail -5 "$work/pip-$how.log")"
  where=$(read_run "$venv/bin/python") || fail "the $how install does not import or read a run"
  case "$how" in
    wheel) [[ "$where" == "$venv"/lib/python3*/site-packages/tethersim/__init__.py ]] ||
             fail "the venv imported tethersim from $where, not its site-packages" ;;
    editable) [ "$where" = "$work/python-$how/tethersim/__init__.py" ] ||
                fail "the editable install imported tethersim from $where" ;;
  esac
  "$venv/bin/pip" show tethersim >"$work/show-$how.txt" 2>&1 || fail "pip does not list the $how install"
  grep -q '^Version: ' "$work/show-$how.txt" || fail "pip show says no version: $(cat "$work/show-$how.txt")"
  echo "python package ($how): $where"
done
echo "python package: ok"
