// [[species]], [[pair]] and [pair_defaults].
#include <cmath>
#include <optional>
#include <set>

#include "model_reading.hpp"

namespace tethersim::io_detail {

void read_species(TableReader& root, ReadContext& ctx) {
  std::vector<TableReader> tables = root.tables("species");
  if (tables.empty()) {
    throw InputError({ctx.sources.file(), 0}, "species", "at least one [[species]] is required");
  }
  for (TableReader& t : tables) {
    Species s;
    s.name = t.required_text("name");
    if (ctx.species_by_name.count(s.name)) t.fail("name", "duplicate species name '" + s.name + "'");
    t.rekey("species." + s.name);
    s.mass = t.required_number("mass");
    s.radius = t.number("radius", 0.0);
    if (auto ri = t.table("random_impulse")) {
      s.random_impulse.tau = ri->required_number("tau");
      s.random_impulse.shape = ri->number("shape", 1.0);
      const bool has_mean = ri->has("mean");
      const bool has_speed = ri->has("speed");
      if (has_mean == has_speed) {
        ri->fail_here("give exactly one of 'mean' (mean impulse magnitude) or 'speed' "
                      "(mean = mass * speed)");
      }
      s.random_impulse.mean =
          has_mean ? ri->number("mean", 0.0) : s.mass * ri->number("speed", 0.0);
      ri->finish();
    }
    read_thermostat(t, s, ctx);
    t.finish();
    ctx.species_by_name[s.name] = static_cast<SpeciesIndex>(ctx.data.species.size());
    ctx.data.species.push_back(s);
  }
}

namespace {

struct Coefficients {
  std::optional<double> rebound, retract, revolve;
};

// Individual keys win over the shorthand 'c'.
Coefficients read_coefficients(TableReader& t) {
  Coefficients c;
  std::optional<double> all;
  if (t.has("c")) all = t.number("c", 1.0);
  auto one = [&](const char* name) -> std::optional<double> {
    if (t.has(name)) return t.number(name, 1.0);
    return all;
  };
  c.rebound = one("c_rebound");
  c.retract = one("c_retract");
  c.revolve = one("c_revolve");
  return c;
}

}  // namespace

void read_pairs(TableReader& root, ReadContext& ctx) {
  ModelData& d = ctx.data;
  const auto n = static_cast<SpeciesIndex>(d.species.size());
  d.pairs = PairTable(n);

  std::optional<Coefficients> defaults;
  if (auto t = root.table("pair_defaults")) {
    defaults = read_coefficients(*t);
    t->finish();
  }

  std::set<std::pair<SpeciesIndex, SpeciesIndex>> listed;
  for (TableReader& t : root.tables("pair")) {
    const std::vector<std::string> names = t.text_list("species");
    if (names.size() != 2) {
      t.fail("species", "expected the two species of the pair, e.g. species = [\"A\", \"B\"]");
    }
    SpeciesIndex a = ctx.species(t, "species", names[0]);
    SpeciesIndex b = ctx.species(t, "species", names[1]);
    if (a > b) std::swap(a, b);
    const std::string key = "pair." + d.species[a].name + "-" + d.species[b].name;
    if (!listed.insert({a, b}).second) {
      t.fail("species", "pair " + d.species[a].name + "-" + d.species[b].name + " is listed twice");
    }
    t.rekey(key);
    ctx.sources.record("pair." + d.species[b].name + "-" + d.species[a].name,
                       t.where("species"));

    const bool both_infinite = d.species[a].infinite_mass() && d.species[b].infinite_mass();
    PairParameters p;
    p.blocking = t.number("blocking", both_infinite ? 0.0 : d.species[a].radius + d.species[b].radius);
    p.tethering = t.number("tethering", kInfinity);
    p.permanent = t.flag("permanent", false);
    Coefficients c = read_coefficients(t);
    auto resolve = [&](std::optional<double> mine, std::optional<double> fallback,
                       const char* name, bool needed) {
      if (mine) return *mine;
      if (fallback) return *fallback;
      if (needed) {
        t.fail_here(std::string("missing '") + name + "' (or 'c'), needed because the pair " +
                    (std::string(name) == "c_rebound" ? "blocks" : "can be tethered"));
      }
      return 1.0;
    };
    const Coefficients none;
    const Coefficients& fb = defaults ? *defaults : none;
    p.c_rebound = resolve(c.rebound, fb.rebound, "c_rebound", p.blocking > 0.0);
    p.c_retract = resolve(c.retract, fb.retract, "c_retract", p.tethering < kInfinity);
    p.c_revolve = resolve(c.revolve, fb.revolve, "c_revolve", p.tethering < kInfinity);
    t.finish();
    d.pairs.set(a, b, p);
  }

  // Every pair that could interact must be described: listed, or covered by
  // [pair_defaults] (blocking = sum of radii, no tethering).
  for (SpeciesIndex a = 0; a < n; ++a) {
    for (SpeciesIndex b = a; b < n; ++b) {
      if (listed.count({a, b})) continue;
      PairParameters p;
      if (d.species[a].infinite_mass() && d.species[b].infinite_mass()) {
        d.pairs.set(a, b, p);  // two fixed particles never interact
        continue;
      }
      if (!defaults) {
        throw InputError({ctx.sources.file(), 0}, "pair",
                         "missing pair " + d.species[a].name + "-" + d.species[b].name +
                             ": add a [[pair]] with species = [\"" + d.species[a].name +
                             "\", \"" + d.species[b].name +
                             "\"] (or a [pair_defaults] table for unlisted pairs)");
      }
      p.blocking = d.species[a].radius + d.species[b].radius;
      if (p.blocking > 0.0 && !defaults->rebound) {
        throw InputError(ctx.sources.find("pair_defaults"), "pair_defaults",
                         "pair " + d.species[a].name + "-" + d.species[b].name +
                             " is not listed and blocks (sum of radii " +
                             std::to_string(p.blocking) +
                             "), but [pair_defaults] has no c_rebound (or c)");
      }
      p.c_rebound = defaults->rebound.value_or(1.0);
      p.c_retract = defaults->retract.value_or(1.0);
      p.c_revolve = defaults->revolve.value_or(1.0);
      d.pairs.set(a, b, p);
    }
  }
}

}  // namespace tethersim::io_detail
