# tethersim's Spack recipe (Spack 1.0 or later: package API v2). See
# spack/README.md for how to use it.
import pathlib

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Tethersim(CMakePackage):
    """Exact event-driven, MPI-distributed Tethered Particle System simulator."""

    # The repository that holds this recipe: `spack install tethersim@main`
    # builds the main branch of the local clone. For a clone elsewhere, change
    # this line or use `spack develop`.
    git = "file://" + str(pathlib.Path(__file__).resolve().parents[5])

    license("BSD-3-Clause")

    version("main", branch="main")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")

    depends_on("mpi")
    # Trajectories and checkpoints are written collectively by all ranks.
    depends_on("hdf5+mpi")
    # Header-only. The installed headers include Eigen, Random123 and
    # nlohmann-json, and the CMake package looks for toml11 as well, so
    # programs built on the installed libraries need them too.
    depends_on("eigen@3.3:")
    depends_on("random123")
    # Written against the toml11 3 interface (cmake/Dependencies.cmake asks
    # for 3.7); toml11 4 is a different one.
    depends_on("toml11@3.7:3")
    depends_on("nlohmann-json@3.10:")
    depends_on("boost@1.74:+program_options")
    depends_on("googletest", type="test")

    def cmake_args(self):
        return [
            # The GoogleTest suite only when Spack runs the tests.
            self.define("TETHERSIM_BUILD_TESTS", self.run_tests),
            self.define("TETHERSIM_WERROR", False),
        ]

    def check(self):
        # The unit tests: the rest of the suite needs Python analysis tools,
        # ParaView and a Slurm cluster that a package build does not have.
        with working_dir(self.build_directory):
            ctest("--output-on-failure", "-L", "unit")
