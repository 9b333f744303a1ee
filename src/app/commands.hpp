#pragma once
// The subcommands of the tethersim command line.

#include <string>
#include <vector>

namespace tethersim::runtime {}

namespace tethersim::app {

// The command line drives the runtime (src/runtime); its names read here
// as the command line's own.
using namespace tethersim::runtime;

using Arguments = std::vector<std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*main)(const Arguments& args);  // args exclude the command name
};

const std::vector<Command>& commands();

int validate_main(const Arguments& args);
int run_main(const Arguments& args);
int bench_main(const Arguments& args);
int info_main(const Arguments& args);

// Thrown for bad command-line usage; main prints it with a pointer to --help.
struct UsageError {
  std::string command;
  std::string message;
};

}  // namespace tethersim::app
