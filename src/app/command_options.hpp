#pragma once
// Option parsing shared by the subcommands (Boost.Program_options).

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "tethersim/model/model.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::app {

namespace po = boost::program_options;

// Parses `args` for `command`; --help prints the usage line made from the
// options themselves (so that it names every one), then `description` and
// the option table, and returns false (the caller exits 0). Bad options
// throw UsageError.
bool parse_command_line(const char* command, const char* description, const Arguments& args,
                        po::options_description& options,
                        const po::positional_options_description& positional,
                        po::variables_map& values);

// "Usage: tethersim COMMAND POSITIONAL [--option VALUE] ...": every option
// of `options`, positional ones by their value names, wrapped to 79 columns.
std::string usage_synopsis(const std::string& command, const po::options_description& options,
                           const po::positional_options_description& positional);

// "key=value" overrides with the value written as TOML: numbers with
// round-trip precision, strings quoted and escaped.
std::string number_override(const std::string& key, double value);
std::string string_override(const std::string& key, const std::string& value);

// Adds --set to a command's options.
void add_model_override_option(po::options_description& options);

// Loads a model file with the --set overrides (and any extra ones), and
// hands over its checked initial particles and its warnings (large but
// possible counts over the run, one line each).
Model load_model_with_overrides(const std::string& path, const po::variables_map& values,
                                std::vector<std::string> extra_overrides,
                                scenario::InitialParticles& initial,
                                std::vector<std::string>& warnings);

}  // namespace tethersim::app
