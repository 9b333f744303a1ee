// [[external]], [action_potential], [[attach]] and [[detach]].
#include "model_reading.hpp"

#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim::io_detail {

void read_external(TableReader& root, ReadContext& ctx) {
  ModelData& d = ctx.data;
  const int dims = d.dynamics.dimensions;
  for (TableReader& t : root.tables("external")) {
    PeriodicImpulse e;
    const std::string kind = t.required_text("kind");
    bool known = false;
    std::string names;
    for (const auto& [name, k] : kPeriodicImpulseNames) {
      names += std::string(names.empty() ? "" : " or ") + "\"" + name + "\"";
      if (kind == name) {
        e.kind = k;
        known = true;
      }
    }
    if (!known) t.fail("kind", "must be " + names + ", got \"" + kind + "\"");
    // Each kind's own keys.
    switch (e.kind) {
      case PeriodicImpulseKind::gravity:
        if (!t.has("g")) {
          t.refuse_misspelling_of("g");
          t.fail_here("missing required key 'g' (the acceleration vector)");
        }
        e.acceleration = t.vector("g", Vec3::Zero(), dims);
        break;
      case PeriodicImpulseKind::drag:
        e.viscosity = t.required_number("viscosity");
        e.fluid_velocity = t.vector("fluid_velocity", Vec3::Zero(), dims);
        break;
    }
    e.interval = t.required_number("interval");
    e.start = t.number("start", 0.0);
    e.applies_to.assign(d.species.size(), false);
    if (t.has("species")) {
      for (const std::string& name : t.text_list("species")) {
        e.applies_to[ctx.species(t, "species", name)] = true;
      }
    } else {
      for (std::size_t s = 0; s < d.species.size(); ++s) e.applies_to[s] = !d.species[s].infinite_mass();
    }
    t.finish();
    d.periodic_impulses.push_back(e);
  }
}

void read_action_potential(TableReader& root, ReadContext& ctx) {
  auto t = root.table("action_potential");
  if (!t) return;
  ActionPotentials& ap = ctx.data.action_potentials;
  ap.membrane = ctx.species(*t, "membrane", t->required_text("membrane"));
  ap.zone = ctx.species(*t, "zone", t->required_text("zone"));
  ap.zone_radius = t->number("zone_radius", ctx.data.species[ap.zone].radius);
  ap.gradient = t->number("gradient", 0.0);
  for (TableReader& r : t->tables("reactions")) {
    Reaction reaction;
    reaction.name = r.required_text("name");
    reaction.subject = ctx.species(r, "subject", r.required_text("subject"));
    reaction.mean_time = r.required_number("mean_time");
    r.finish();
    ap.reactions.push_back(reaction);
  }
  for (TableReader& w : t->tables("windows")) {
    ActionPotentialWindow window;
    window.start = w.required_number("start");
    window.end = w.required_number("end");
    w.finish();
    ap.windows.push_back(window);
  }
  t->finish();
}

namespace {

struct RulePair {
  SpeciesIndex a;
  SpeciesIndex b;
};

RulePair read_rule_species(TableReader& t, const ReadContext& ctx) {
  const std::vector<std::string> names = t.text_list("species");
  if (names.size() != 2) {
    t.fail("species", "expected the two species of the rule, e.g. species = [\"S\", \"V\"]");
  }
  return {ctx.species(t, "species", names[0]), ctx.species(t, "species", names[1])};
}

int read_reaction(TableReader& t, const std::string& key, const ReadContext& ctx) {
  if (!t.has(key)) return -1;
  const std::string name = t.text(key, "");
  const int index = ctx.data.action_potentials.reaction_index(name);
  if (index < 0) {
    t.fail(key, "unknown reaction '" + name + "' (define it in [action_potential] reactions)");
  }
  return index;
}

}  // namespace

void read_rules(TableReader& root, ReadContext& ctx) {
  ModelData& d = ctx.data;
  for (TableReader& t : root.tables("attach")) {
    const RulePair pair = read_rule_species(t, ctx);
    AttachRule rule;
    rule.species_a = pair.a;
    rule.species_b = pair.b;
    if (auto limits = t.table("max_partners")) {
      for (const std::string& name : limits->keys()) {
        const SpeciesIndex s = ctx.species(*limits, name, name);
        if (s != pair.a && s != pair.b) {
          limits->fail(name, "species '" + name + "' is not one of the rule's two species");
        }
        const std::int64_t k = limits->integer(name, -1);
        if (k < 0) limits->fail(name, "must not be negative, got " + std::to_string(k));
        if (s == pair.a) rule.max_partners_of_a = static_cast<int>(k);
        if (s == pair.b) rule.max_partners_of_b = static_cast<int>(k);
      }
      limits->finish();
    }
    if (t.has("exclusive_dimer")) {
      rule.exclusive_dimer =
          ctx.species(t, "exclusive_dimer", t.text("exclusive_dimer", ""));
    }
    rule.blocking_reaction = read_reaction(t, "unless_reaction", ctx);
    t.finish();
    d.rules.attach.push_back(rule);
  }
  for (TableReader& t : root.tables("detach")) {
    const RulePair pair = read_rule_species(t, ctx);
    DetachRule rule;
    rule.species_a = pair.a;
    rule.species_b = pair.b;
    rule.reaction = read_reaction(t, "reaction", ctx);
    if (t.has("requires")) rule.subject_requires_partner = ctx.species(t, "requires", t.text("requires", ""));
    for (const std::string& name : t.text_list("release")) {
      rule.subject_releases.push_back(ctx.species(t, "release", name));
    }
    t.finish();
    d.rules.detach.push_back(rule);
  }
}

}  // namespace tethersim::io_detail
