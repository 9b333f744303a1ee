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

# Large allocations on transparent huge pages (glibc's malloc asks for them
# with madvise; kernels set to "madvise" give none otherwise): fewer TLB
# misses at 10^6 particles (the serial gas 1-3% faster). It once halved a
# 2-rank checkpoint; with rows written in rounds it no longer does, and
# may cost two ranks a little (docs/cluster.md). Kept when set already.
export GLIBC_TUNABLES="${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}"

TETHERSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export TETHERSIM_ROOT

# The analysis tools use Debian's python3 (h5py, matplotlib from apt), which
# a pyenv or conda python on PATH would hide.
if [ -x /usr/bin/python3 ]; then TETHERSIM_PYTHON=/usr/bin/python3; else TETHERSIM_PYTHON=python3; fi
export TETHERSIM_PYTHON

parallel_jobs() { nproc 2>/dev/null || echo 2; }

# The Python package python/tethersim (reading run directories).
export PYTHONPATH="$TETHERSIM_ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
