// tethersim run MODEL.toml: run a simulation.
#include <iostream>

#include "command_options.hpp"
#include "exit_codes.hpp"
#include "model_description.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::app {

int run_main(const Arguments& args) {
  po::options_description options("Options");
  options.add_options()("model", po::value<std::string>()->required()->value_name("MODEL.toml"),
                        "the model file")(
      "output,o", po::value<std::string>()->value_name("DIR"),
      "output directory (default: the model's output.directory)")(
      "end-time", po::value<double>()->value_name("T"), "simulated time to stop at")(
      "seed", po::value<long long>()->value_name("N"), "random seed (default: the model's run.seed)");
  add_model_override_option(options);
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map values;
  if (!parse_command_line("run",
                          "Usage: tethersim run MODEL.toml [--output DIR] [--end-time T] [--seed N]\n"
                          "                     [--set KEY=VALUE ...]\n\n"
                          "Runs the simulation described by MODEL.toml.",
                          args, options, positional, values)) {
    return kExitOk;
  }
  std::vector<std::string> extra;
  if (values.count("end-time")) extra.push_back("run.end_time=" + std::to_string(values["end-time"].as<double>()));
  if (values.count("seed")) {
    if (values["seed"].as<long long>() < 0) throw UsageError{"run", "--seed must not be negative"};
    extra.push_back("run.seed=" + std::to_string(values["seed"].as<long long>()));
  }
  if (values.count("output")) extra.push_back("output.directory=\"" + values["output"].as<std::string>() + "\"");
  scenario::InitialParticles initial;
  const Model model = load_model_with_overrides(values["model"].as<std::string>(), values, extra, initial);
  std::cout << describe_model(model, initial);
  std::cerr << "tethersim run: the model is valid, but this build has no event engine yet; "
               "nothing was simulated\n";
  return kExitRuntimeFailure;
}

}  // namespace tethersim::app
