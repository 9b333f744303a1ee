// tethersim validate MODEL.toml: check a model and describe it.
#include <iostream>

#include "command_options.hpp"
#include "exit_codes.hpp"
#include "model_description.hpp"
#include "tethersim/scenario/initial_particles.hpp"

namespace tethersim::app {

int validate_main(const Arguments& args) {
  po::options_description options("Options");
  options.add_options()("model", po::value<std::string>()->required()->value_name("MODEL.toml"),
                        "the model file to check")(
      "quiet,q", "print nothing on success (the exit code tells)")(
      "canonical", "also print the canonical parameter text the model hash is computed from");
  add_model_override_option(options);
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map values;
  if (!parse_command_line("validate",
                          "Checks a model file (syntax, keys, values, species, pairs, rules,\n"
                          "generator parameters, the initial particles, what the run would\n"
                          "make over its length: frames, samples, checkpoints, impulses) and\n"
                          "describes it: species, pairs (and those that pass through each\n"
                          "other), rules, particle counts and the sector grid. Large but\n"
                          "possible counts get a warning line on stderr.\n"
                          "Exit code 0 when valid, 2 with a one-line error otherwise.",
                          args, options, positional, values)) {
    return kExitOk;
  }
  scenario::InitialParticles initial;
  std::vector<std::string> warnings;
  const Model model =
      load_model_with_overrides(values["model"].as<std::string>(), values, {}, initial, warnings);
  if (!values.count("quiet")) {
    for (const std::string& w : warnings) std::cerr << "tethersim: warning: " << w << "\n";
    std::cout << describe_model(model, count_particles(initial));
    if (values.count("canonical")) std::cout << "\ncanonical parameters:\n" << model.canonical_text();
    std::cout << "valid\n";
  }
  return kExitOk;
}

}  // namespace tethersim::app
