// tethersim: the command line.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/version.hpp"

namespace tethersim::app {

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"run", "run a simulation from a model file", run_main},
      {"validate", "check a model file and describe what it sets up", validate_main},
      {"info", "describe and verify a trajectory or checkpoint file", info_main},
      {"bench", "time the hard-sphere gas benchmark (collisions/s, bytes/particle)", bench_main},
  };
  return list;
}

namespace {

void print_help() {
  std::cout << "tethersim " << kVersion
            << " - exact event-driven Tethered Particle System simulator\n\n"
               "Usage: tethersim [--help] [--version] <command> [options]\n"
               "       mpirun -np N tethersim run MODEL.toml [options]\n\n"
               "Commands:\n";
  for (const Command& c : commands()) {
    std::printf("  %-10s %s\n", c.name, c.summary);
  }
  std::cout << "\nRun 'tethersim <command> --help' for the options of a command.\n"
               "Model files are TOML; see docs/model-format.md.\n\n"
               "Exit codes:\n"
               "  0  success\n"
               "  1  runtime failure (I/O, MPI, internal error)\n"
               "  2  bad usage or bad input (unknown option, invalid model file)\n";
}

}  // namespace

}  // namespace tethersim::app

int main(int argc, char** argv) {
  using namespace tethersim;
  using namespace tethersim::app;
  const Arguments all(argv + 1, argv + argc);
  if (all.empty() || all[0] == "--help" || all[0] == "-h" || all[0] == "help") {
    print_help();
    return all.empty() ? kExitBadInput : kExitOk;
  }
  if (all[0] == "--version" || all[0] == "-V") {
    std::cout << "tethersim " << kVersion << "\n";
    return kExitOk;
  }
  for (const Command& c : commands()) {
    if (all[0] != c.name) continue;
    try {
      return c.main(Arguments(all.begin() + 1, all.end()));
    } catch (const UsageError& e) {
      std::cerr << "tethersim " << e.command << ": " << e.message << " (see 'tethersim "
                << e.command << " --help')\n";
      return kExitBadInput;
    } catch (const InputError& e) {
      std::cerr << "tethersim: error: " << e.what() << "\n";
      return kExitBadInput;
    } catch (const std::exception& e) {
      // One line, like every message here, whatever a library's message holds.
      std::string message = e.what();
      std::replace_if(message.begin(), message.end(), [](char ch) { return ch == '\n' || ch == '\r'; }, ' ');
      std::cerr << "tethersim: failed: " << message << "\n";
      return kExitRuntimeFailure;
    }
  }
  std::cerr << "tethersim: unknown command '" << all[0] << "' (see 'tethersim --help')\n";
  return kExitBadInput;
}
