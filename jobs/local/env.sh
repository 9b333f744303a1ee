# Sourced by the local job scripts: the environment every tethersim run and
# test needs on a workstation or CI machine.

# Open MPI refuses to start as root unless told it is fine (containers, CI).
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# More ranks than cores is how multi-rank tests run on small machines.
export OMPI_MCA_rmaps_base_oversubscribe=1
# No network fabric probing on a single machine (quiet and fast start-up).
export OMPI_MCA_btl="self,vader,tcp"
export OMPI_MCA_btl_tcp_if_include="lo"
export OMPI_MCA_oob_tcp_if_include="lo"

TETHERSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TETHERSIM_ROOT

# The analysis tools use Debian's python3 (h5py, matplotlib from apt), which
# a pyenv or conda python on PATH would hide.
if [ -x /usr/bin/python3 ]; then TETHERSIM_PYTHON=/usr/bin/python3; else TETHERSIM_PYTHON=python3; fi
export TETHERSIM_PYTHON

parallel_jobs() { nproc 2>/dev/null || echo 2; }

# The Python package python/tethersim (reading run directories).
export PYTHONPATH="$TETHERSIM_ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
