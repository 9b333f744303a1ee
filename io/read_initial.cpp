// [initial]: a generator and its parameters, particle and tether files,
// explicit [[initial.particle]] tables and a tethers array.
#include <filesystem>

#include "initial_from_state.hpp"
#include "model_reading.hpp"
#include "particle_csv.hpp"
#include "tethersim/scenario/generator.hpp"

namespace tethersim::io_detail {

namespace {

std::string parameter_type(const ParameterValue& v) {
  switch (v.index()) {
    case 0: return "true or false";
    case 1: return "an integer";
    case 2: return "a number";
    case 3: return "a string";
    default: return "an array of numbers";
  }
}

ParameterValue read_parameter(TableReader& t, const std::string& name,
                              const ParameterValue& default_value, int dims) {
  const TomlValue& v = *t.raw(name);
  const std::string expected = "expected " + parameter_type(default_value) + ", got ";
  switch (default_value.index()) {
    case 0:
      if (!v.is_boolean()) t.fail(name, expected + type_name(v));
      return v.as_boolean();
    case 1:
      if (!v.is_integer()) t.fail(name, expected + type_name(v));
      return static_cast<std::int64_t>(v.as_integer());
    case 2: {
      const auto x = as_number(v);
      if (!x) t.fail(name, expected + type_name(v));
      return *x;
    }
    case 3:
      if (!v.is_string()) t.fail(name, expected + type_name(v));
      return v.as_string().str;
    default: {
      const Vec3 x = t.vector(name, Vec3::Zero(), dims);
      return std::vector<double>{x[0], x[1], x[2]};
    }
  }
}

GeneratorSpec read_generator(TableReader& initial, const ReadContext& ctx) {
  GeneratorSpec spec;
  spec.kind = initial.text("generator", "");
  const scenario::Generator* generator = scenario::find_generator(spec.kind);
  if (generator == nullptr) {
    std::vector<std::string> names;
    std::string list;
    for (const auto* g : scenario::all_generators()) {
      names.emplace_back(g->name());
      list += (list.empty() ? "" : ", ") + names.back();
    }
    const std::string guess = closest_name(spec.kind, names);
    initial.fail("generator", "unknown generator '" + spec.kind + "'" +
                                  (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                                  "; available: " + list);
  }
  std::optional<TableReader> params = initial.table("parameters");
  for (const scenario::ParameterInfo& info : generator->parameters()) {
    // raw() marks every parameter as known, given or not, so that a
    // misspelt one is reported with the closest name as a suggestion.
    spec.parameters[info.name] =
        params && params->raw(info.name) != nullptr
            ? read_parameter(*params, info.name, info.default_value, ctx.data.dynamics.dimensions)
            : info.default_value;
  }
  if (params) params->finish();
  return spec;
}

std::string resolve_path(const ReadContext& ctx, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || ctx.base_directory.empty()) return path;
  return (std::filesystem::path(ctx.base_directory) / p).string();
}

// Adds the initial particles in the order they come, giving each without
// an id the next one after every id so far.
struct ParticleAdder {
  InitialState& init;
  ReadContext& ctx;
  ParticleId next_id = 0;

  void add(ParticleSpec p, bool has_id, SourceLocation where) {
    if (!has_id) p.id = next_id;
    next_id = std::max(next_id, p.id + 1);
    ctx.sources.record("initial.particle." + std::to_string(p.id), std::move(where));
    init.particles.push_back(p);
  }
};

// A state some run reached: its particles keep their ids, species (by
// name) and tethers; the model around them may differ in anything.
void read_from_state(TableReader& initial, ReadContext& ctx, ParticleAdder& particles) {
  InitialState& init = ctx.data.initial;
  init.from = initial.text("from", "");
  init.from_frame = initial.integer("frame", -1);
  if (initial.has("frame") && init.from.empty()) initial.fail("frame", "a frame needs 'from' (a trajectory)");
  if (init.from.empty() || ctx.options.skip_initial_files) return;
  const std::string path = resolve_path(ctx, init.from);
  const StateParticles state =
      read_state_particles(path, static_cast<long>(init.from_frame), "initial.from", [&](const std::string& name) {
        const auto it = ctx.species_by_name.find(name);
        if (it == ctx.species_by_name.end()) {
          throw InputError({path, 0}, "initial.from",
                           "the state has species '" + name + "', which this model does not define");
        }
        return it->second;
      });
  for (const ParticleSpec& p : state.particles) particles.add(p, true, {path, 0});
  for (const TetherSpec& t : state.tethers) init.tethers.push_back(t);
}

// The rows of initial.particles_file, and the file's path.
std::vector<CsvParticle> read_particle_file(TableReader& initial, ReadContext& ctx, std::string& path) {
  InitialState& init = ctx.data.initial;
  init.particles_file = initial.text("particles_file", "");
  if (init.particles_file.empty() || ctx.options.skip_initial_files) return {};
  path = resolve_path(ctx, init.particles_file);
  return read_particle_csv(path, "initial.particles_file", [&](const std::string& name, int line) {
    const auto it = ctx.species_by_name.find(name);
    if (it == ctx.species_by_name.end()) {
      throw InputError({path, line}, "initial.particles_file", "unknown species '" + name + "'");
    }
    return it->second;
  });
}

// One [[initial.particle]] table.
void read_particle_table(TableReader& t, ReadContext& ctx, ParticleAdder& particles) {
  const int dims = ctx.data.dynamics.dimensions;
  ParticleSpec p;
  const bool has_id = t.has("id");
  if (has_id) {
    const std::int64_t id = t.integer("id", 0);
    if (id < 0) t.fail("id", "must not be negative, got " + std::to_string(id));
    p.id = static_cast<ParticleId>(id);
  }
  p.species = ctx.species(t, "species", t.required_text("species"));
  if (!t.has("position")) {
    t.refuse_misspelling_of("position");
    t.fail_here("missing required key 'position'");
  }
  p.position = t.vector("position", Vec3::Zero(), dims);
  p.velocity = t.vector("velocity", Vec3::Zero(), dims);
  const SourceLocation where = t.where("position");
  t.finish();
  particles.add(p, has_id, where);
}

// initial.tethers_file, then initial.tethers = [[a, b], ...].
void read_tethers(TableReader& initial, ReadContext& ctx) {
  InitialState& init = ctx.data.initial;
  init.tethers_file = initial.text("tethers_file", "");
  if (!init.tethers_file.empty() && !ctx.options.skip_initial_files) {
    for (const TetherSpec& t : read_tether_csv(resolve_path(ctx, init.tethers_file), "initial.tethers_file")) {
      init.tethers.push_back(t);
    }
  }
  const TomlValue* tethers = initial.raw("tethers");
  if (tethers == nullptr) return;
  const std::string expected = "expected an array of particle-id pairs, e.g. [[0, 1], [1, 2]]";
  if (!tethers->is_array()) initial.fail("tethers", expected);
  for (const TomlValue& item : tethers->as_array()) {
    if (!item.is_array() || item.as_array().size() != 2 || !item.as_array()[0].is_integer() ||
        !item.as_array()[1].is_integer() || item.as_array()[0].as_integer() < 0 ||
        item.as_array()[1].as_integer() < 0) {
      throw InputError(location_of(item), "initial.tethers", expected);
    }
    init.tethers.push_back({static_cast<ParticleId>(item.as_array()[0].as_integer()),
                            static_cast<ParticleId>(item.as_array()[1].as_integer())});
  }
}

}  // namespace

void read_initial(TableReader& root, ReadContext& ctx) {
  auto initial = root.table("initial");
  if (!initial) {
    root.refuse_misspelling_of("initial");
    throw InputError({ctx.sources.file(), 0}, "initial",
                     "missing required table [initial] (a generator, particle files or "
                     "explicit particles)");
  }
  InitialState& init = ctx.data.initial;
  ParticleAdder particles{init, ctx};
  if (initial->has("generator")) {
    init.generator = read_generator(*initial, ctx);
    particles.next_id = scenario::find_generator(init.generator->kind)->particle_count(init.generator->parameters);
  } else if (initial->has("parameters")) {
    initial->fail("parameters", "generator parameters given but no 'generator' chosen");
  }
  read_from_state(*initial, ctx, particles);
  std::string rows_path;
  const std::vector<CsvParticle> rows = read_particle_file(*initial, ctx, rows_path);
  // The [[initial.particle]] tables record their positions in the array
  // ("initial.particle.0" ...) when they are opened; open them before the
  // file's particles are recorded by id, so that those records win.
  std::vector<TableReader> particle_tables = initial->tables("particle");
  for (const CsvParticle& row : rows) particles.add(row.spec, row.has_id, {rows_path, row.line});
  for (TableReader& t : particle_tables) read_particle_table(t, ctx, particles);
  read_tethers(*initial, ctx);
  initial->finish();
  if (!init.generator && init.particles.empty() && init.particles_file.empty() && init.from.empty()) {
    initial->fail_here("no particles: choose a generator, a particles_file, a state to start from or "
                       "[[initial.particle]] tables");
  }
}

}  // namespace tethersim::io_detail
