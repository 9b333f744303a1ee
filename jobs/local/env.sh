# Sourced by the local job scripts: the environment every tethersim run and
# test needs on a workstation or CI machine.

# Open MPI settings for one machine only:
#  - Open MPI refuses to start as root unless told it is fine (containers, CI);
#  - more ranks than cores is how multi-rank tests run on small machines;
#  - no network fabric probing (quiet and fast start-up): shared memory and
#    the loopback interface, which cannot reach another node.
# sbatch passes this environment into a job; jobs/slurm/run.sbatch takes out
# of the job every setting TETHERSIM_LOCAL_MPI names whose value is still
# the one set here, so that a multi-node job does not talk over loopback.
TETHERSIM_LOCAL_MPI="OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1"
TETHERSIM_LOCAL_MPI+=" OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo"
for tethersim_setting in $TETHERSIM_LOCAL_MPI; do export "$tethersim_setting"; done
unset tethersim_setting
export TETHERSIM_LOCAL_MPI

# glibc's huge pages for large allocations (GLIBC_TUNABLES=
# glibc.malloc.hugetlb=1) are no longer set here: measured on 2 ranks they
# made the loop 5-15% slower (the kernel zeroing 2 MB pages for buffers
# that come and go), and the serial gas ran no faster (docs/cluster.md).
# Export it yourself to try; a set GLIBC_TUNABLES also keeps one-rank runs
# from keeping their freed memory (docs/engine.md, "Freed memory").

TETHERSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TETHERSIM_ROOT

# The analysis tools use Debian's python3 (h5py, matplotlib from apt), which
# a pyenv or conda python on PATH would hide.
if [ -x /usr/bin/python3 ]; then TETHERSIM_PYTHON=/usr/bin/python3; else TETHERSIM_PYTHON=python3; fi
export TETHERSIM_PYTHON

parallel_jobs() { nproc 2>/dev/null || echo 2; }

# The Python package python/tethersim (reading run directories).
export PYTHONPATH="$TETHERSIM_ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
