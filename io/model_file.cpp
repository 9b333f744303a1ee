#include "tethersim/io/model_file.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "model_reading.hpp"
#include "toml_limits.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/model/unbounded_heating.hpp"
#include "tethersim/scenario/generator.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/memory_budget.hpp"
#include "tethersim/scenario/run_budget.hpp"

namespace tethersim {

namespace io_detail {

SpeciesIndex ReadContext::species(const TableReader& table, const std::string& key,
                                  const std::string& name) const {
  const auto it = species_by_name.find(name);
  if (it != species_by_name.end()) return it->second;
  std::string known;
  for (const auto& [n, i] : species_by_name) known += (known.empty() ? "" : ", ") + n;
  table.fail(key, "unknown species '" + name + "' (defined: " +
                      (known.empty() ? std::string("none") : known) + ")");
}

}  // namespace io_detail

namespace {

using namespace io_detail;

// The first line of a toml11 error, without its decorations.
std::string syntax_message(const toml::exception& e) {
  std::string text = e.what();
  const auto end = text.find('\n');
  if (end != std::string::npos) text.resize(end);
  for (const char* prefix : {"[error] ", "toml::parse_"}) {
    if (text.rfind(prefix, 0) == 0) text.erase(0, std::string(prefix).size());
  }
  return "TOML syntax error: " + text;
}

// Refuses a run whose counts over its length cannot fit; hands over the
// warnings of large ones, each as one line naming file, line and key.
// Throws ModelError.
void check_run_budget(const Model& model, const std::vector<std::size_t>& count_by_species,
                      const SourceMap& sources, bool restart, std::vector<std::string>* warnings) {
  // A restart (no initial particles read) has part of its output written
  // already: only the fixed bounds apply to it.
  const double free_disk = restart ? 0.0 : scenario::free_disk_bytes(model.output().directory);
  const scenario::RunBudget budget = scenario::run_budget(model, count_by_species, free_disk);
  if (budget.refusal) throw ModelError(*budget.refusal);
  if (warnings == nullptr) return;
  for (const ModelProblem& w : budget.warnings) {
    warnings->push_back(InputError(sources.find(w.key), w.key, w.message).what());
  }
}

// Species that random impulses heat without bound (model/unbounded_heating),
// as warnings naming the file and line of each.
void append_heating_warnings(const Model& model, const SourceMap& sources, std::vector<std::string>* warnings) {
  if (warnings == nullptr) return;
  for (const ModelProblem& w : unbounded_heating(model)) {
    warnings->push_back(InputError(sources.find(w.key), w.key, w.message).what());
  }
}

// The initial particles go to `initial` (whole) or to `streamed` (a stream
// checked but for overlaps), or nowhere (checked and dropped).
Model read_document(TomlValue document, const std::string& path, const std::string& text,
                    const ModelFileOptions& options, scenario::InitialParticles* initial,
                    StreamedInitial* streamed, std::vector<std::string>* warnings) {
  ReadContext ctx(path);
  ctx.options = options;
  ctx.base_directory = std::filesystem::path(path).parent_path().string();
  for (const std::string& assignment : options.overrides) apply_override(document, assignment);
  // After the overrides, so that a value given with --set is checked too.
  check_toml_numbers(document, "");

  TableReader root(document, "", ctx.sources);
  read_globals(root, ctx);
  read_species(root, ctx);
  read_pairs(root, ctx);
  read_external(root, ctx);
  add_thermostat_drags(ctx);
  read_action_potential(root, ctx);
  read_rules(root, ctx);
  read_initial(root, ctx);
  read_domain(root, ctx);
  read_output(root, ctx);
  root.finish();

  ctx.data.source_path = path;
  ctx.data.source_text = text;
  ctx.data.overrides = options.overrides;

  if (const auto& g = ctx.data.initial.generator) {
    const scenario::Generator* generator = scenario::find_generator(g->kind);
    const auto problems = generator->check(g->parameters, ctx.data);
    if (!problems.empty()) {
      throw InputError(ctx.sources.find(problems.front().key), problems.front().key,
                       problems.front().message);
    }
    // Before the model: the box a generator suggests grows with the same
    // parameters, and its sector count would hide the real problem.
    if (auto problem = scenario::particle_count_problem(generator->particle_count(g->parameters),
                                                        "initial.generator",
                                                        scenario::physical_memory_bytes())) {
      throw InputError(ctx.sources.find(problem->key), problem->key, problem->message);
    }
  }
  try {
    Model model(std::move(ctx.data));
    // The initial particles are checked here, not only where a run builds
    // them, because only the reader knows the file and line of each
    // particle, tether and parameter. Restarts take their state from a
    // checkpoint instead.
    std::vector<std::size_t> count_by_species;
    if (streamed != nullptr) {
      scenario::InitialSystem system(model);
      streamed->counts = system.check(model);
      model.fit_sectors_to(streamed->counts.count_by_species);
      streamed->system.emplace(std::move(system));
      auto sources = std::make_shared<const SourceMap>(ctx.sources);
      streamed->locate = [sources](const ModelProblem& p) { return InputError(sources->find(p.key), p.key, p.message); };
      // What one process checks after the overlaps.
      streamed->finish = [sources, counts = streamed->counts](const Model& m) {
        std::vector<std::string> found;
        try {
          scenario::check_anchors(m, counts);
          check_run_budget(m, counts.count_by_species, *sources, false, &found);
          append_heating_warnings(m, *sources, &found);
        } catch (const ModelError& e) {
          throw InputError(sources->find(e.problem().key), e.problem().key, e.problem().message);
        }
        return found;
      };
      return model;
    } else if (!options.skip_initial_files) {
      scenario::InitialParticles built = scenario::build_initial_particles(model);
      count_by_species = built.count_by_species;
      model.fit_sectors_to(count_by_species);
      if (initial != nullptr) *initial = std::move(built);
    }
    check_run_budget(model, count_by_species, ctx.sources, options.skip_initial_files, warnings);
    append_heating_warnings(model, ctx.sources, warnings);
    return model;
  } catch (const ModelError& e) {
    throw InputError(ctx.sources.find(e.problem().key), e.problem().key, e.problem().message);
  }
}

Model read_text(const std::string& text, const std::string& path, const ModelFileOptions& options,
                scenario::InitialParticles* initial, StreamedInitial* streamed, std::vector<std::string>* warnings) {
  TomlValue document;
  check_toml_encoding(text, path);
  check_toml_nesting(text, path);
  try {
    std::istringstream stream(text);
    document = parse_toml(stream, path);
  } catch (const toml::exception& e) {
    // A syntax error, or one its parser calls internal: both are the text's.
    throw InputError({path, static_cast<int>(e.location().line())}, "", syntax_message(e));
  }
  return read_document(std::move(document), path, text, options, initial, streamed, warnings);
}

std::string read_model_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError({path, 0}, "", "is a directory, not a model file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0}, "", "cannot open the model file (does it exist?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Model load_model_text(const std::string& text, const std::string& path, const ModelFileOptions& options,
                      scenario::InitialParticles* initial, std::vector<std::string>* warnings) {
  return read_text(text, path, options, initial, nullptr, warnings);
}

Model load_model_file(const std::string& path, const ModelFileOptions& options,
                      scenario::InitialParticles* initial, std::vector<std::string>* warnings) {
  return read_text(read_model_file(path), path, options, initial, nullptr, warnings);
}

Model load_model_streamed(const std::string& path, const ModelFileOptions& options, StreamedInitial& initial) {
  return read_text(read_model_file(path), path, options, nullptr, &initial, nullptr);
}

}  // namespace tethersim
