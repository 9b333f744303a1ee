#include "command_options.hpp"

#include <cstdio>
#include <iostream>

#include "tethersim/io/model_file.hpp"

namespace tethersim::app {

bool parse_command_line(const char* command, const char* usage, const Arguments& args,
                        po::options_description& options,
                        const po::positional_options_description& positional,
                        po::variables_map& values) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
    if (values.count("help")) {
      std::cout << usage << "\n" << options << "\n";
      return false;
    }
    po::notify(values);
  } catch (const po::error& e) {
    throw UsageError{command, e.what()};
  }
  return true;
}

std::string number_override(const std::string& key, double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  // TOML floats need a dot or an exponent; "inf" and "nan" are TOML too.
  if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
  return key + "=" + text;
}

std::string string_override(const std::string& key, const std::string& value) {
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return key + "=" + quoted + "\"";
}

void add_model_override_option(po::options_description& options) {
  options.add_options()(
      "set", po::value<std::vector<std::string>>()->composing()->value_name("KEY=VALUE"),
      "override a model-file value before validation, e.g. --set run.end_time=50 "
      "--set species.V.mass=2e4 --set pair.S-V.c=0.5 (repeatable)");
}

Model load_model_with_overrides(const std::string& path, const po::variables_map& values,
                                std::vector<std::string> extra_overrides,
                                scenario::InitialParticles& initial) {
  ModelFileOptions options;
  if (values.count("set")) options.overrides = values["set"].as<std::vector<std::string>>();
  options.overrides.insert(options.overrides.end(), extra_overrides.begin(), extra_overrides.end());
  return load_model_file(path, options, &initial);
}

}  // namespace tethersim::app
