#include "command_options.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "tethersim/io/model_file.hpp"

namespace tethersim::app {

namespace {

// How the synopsis shows one option: "[--end-time T]", "[--quiet]",
// "[--set KEY=VALUE]...", or a positional argument's value name
// ("FILE.h5..." when it takes every remaining word).
std::string synopsis_item(const po::option_description& option, bool positional, bool takes_the_rest) {
  const po::value_semantic& value = *option.semantic();
  // The value name without the default Boost appends (" (=14)"): the
  // option table shows defaults.
  std::string name = value.name();
  name = name.substr(0, name.find(" (="));
  std::string text;
  if (positional) {
    text = name;
  } else {
    text = "--" + option.long_name();
    if (value.max_tokens() > 0) text += " " + name;
  }
  const bool repeatable = value.is_composing() || value.max_tokens() > 1 || takes_the_rest;
  if (!value.is_required()) text = "[" + text + "]";
  if (repeatable) text += "...";
  return text;
}

}  // namespace

std::string usage_synopsis(const std::string& command, const po::options_description& options,
                           const po::positional_options_description& positional) {
  std::vector<std::string> positional_names;
  const unsigned count = positional.max_total_count();
  // A positional argument that takes every remaining word reports a huge
  // count: its name is the same at every position.
  for (unsigned k = 0; k < count && k < 8; ++k) {
    const std::string& name = positional.name_for_position(k);
    if (std::find(positional_names.begin(), positional_names.end(), name) == positional_names.end()) {
      positional_names.push_back(name);
    }
  }
  std::vector<std::string> items;
  for (const std::string& name : positional_names) {
    if (const po::option_description* option = options.find_nothrow(name, false)) {
      const bool takes_the_rest = count > 8 && name == positional_names.back();
      items.push_back(synopsis_item(*option, true, takes_the_rest));
    }
  }
  for (const auto& option : options.options()) {
    const bool is_positional = std::find(positional_names.begin(), positional_names.end(),
                                         option->long_name()) != positional_names.end();
    if (!is_positional && option->long_name() != "help") items.push_back(synopsis_item(*option, false, false));
  }
  const std::string head = "Usage: tethersim " + command;
  const std::string indent(head.size(), ' ');
  std::string text = head;
  std::size_t line_length = text.size();
  for (const std::string& item : items) {
    if (line_length + 1 + item.size() > 79 && line_length > head.size()) {
      text += "\n" + indent;
      line_length = indent.size();
    }
    text += " " + item;
    line_length += 1 + item.size();
  }
  return text;
}

bool parse_command_line(const char* command, const char* description, const Arguments& args,
                        po::options_description& options,
                        const po::positional_options_description& positional,
                        po::variables_map& values) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), values);
    if (values.count("help")) {
      std::cout << usage_synopsis(command, options, positional) << "\n\n" << description << "\n\n"
                << options << "\n";
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
                                scenario::InitialParticles& initial,
                                std::vector<std::string>& warnings) {
  ModelFileOptions options;
  if (values.count("set")) options.overrides = values["set"].as<std::vector<std::string>>();
  options.overrides.insert(options.overrides.end(), extra_overrides.begin(), extra_overrides.end());
  return load_model_file(path, options, &initial, &warnings);
}

}  // namespace tethersim::app
