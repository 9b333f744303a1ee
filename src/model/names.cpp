// Names of model enumerations, as written in model files.
#include "tethersim/model/action_potentials.hpp"
#include "tethersim/model/domain.hpp"
#include "tethersim/model/dynamics.hpp"
#include "tethersim/model/periodic_impulse_kinds.hpp"

namespace tethersim {

const char* to_string(RestitutionSchedule schedule) {
  return schedule == RestitutionSchedule::max ? "max" : "min";
}

const char* to_string(Boundary boundary) { return boundary_kind(boundary).name; }

const char* to_string(PeriodicImpulseKind kind) {
  return visit_periodic_kind(kind, [](auto k) { return decltype(k)::name; });
}

int ActionPotentials::reaction_index(const std::string& name) const {
  for (std::size_t i = 0; i < reactions.size(); ++i) {
    if (reactions[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace tethersim
