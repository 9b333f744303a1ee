// tethersim info FILE.h5: what a trajectory or checkpoint holds.
#include <iostream>

#include "command_options.hpp"
#include "exit_codes.hpp"
#include "tethersim/mpi/session.hpp"
#include "tethersim/io/file_info.hpp"

namespace tethersim::app {

int info_main(const Arguments& args) {
  po::options_description options("Options");
  options.add_options()("file", po::value<std::vector<std::string>>()->required()->value_name("FILE.h5"),
                        "trajectory.h5 or checkpoint.h5 (several allowed)")(
      "json", "one JSON object per file, on one line (for scripts)");
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map values;
  if (!parse_command_line("info",
                          "Describes a trajectory or checkpoint (model, time, particles, frames,\n"
                          "version) and verifies it: every frame dataset consistent, the content\n"
                          "hash of a checkpoint intact. Exit code 2 for a damaged or foreign file.",
                          args, options, positional, values)) {
    return kExitOk;
  }
  const mpi::Session mpi;  // parallel HDF5 needs MPI, even alone
  for (const std::string& file : values["file"].as<std::vector<std::string>>()) {
    std::cout << describe_file(file, values.count("json") > 0);
  }
  return kExitOk;
}

}  // namespace tethersim::app
