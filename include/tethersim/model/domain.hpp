#pragma once
// The simulation box and what happens at its faces.

#include <array>
#include <optional>
#include <utility>

#include "tethersim/physics/vector.hpp"

namespace tethersim {

enum class Boundary {
  periodic,    // leave one face, enter the opposite one
  open,        // particles that leave are removed and recorded (escapes)
  reflective,  // elastic specular wall at the face (centre-based)
};

// Every boundary by its name in model files (to_string and the model
// reader both read this table).
inline constexpr std::array<std::pair<const char*, Boundary>, 3> kBoundaryNames{{
    {"periodic", Boundary::periodic},
    {"open", Boundary::open},
    {"reflective", Boundary::reflective},
}};

const char* to_string(Boundary boundary);

// A sphere beyond which particles are removed and recorded, like an open
// boundary (exocytosed vesicles leaving the compartment).
struct EscapeSphere {
  Vec3 centre = Vec3::Zero();
  double radius = kInfinity;
};

struct Domain {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Ones();
  std::array<Boundary, 3> boundary{Boundary::reflective, Boundary::reflective,
                                   Boundary::reflective};
  // Requested sector edge; 0 = the smallest allowed (the largest interaction
  // distance between mobile species).
  double requested_sector_size = 0.0;
  std::optional<EscapeSphere> escape;

  Vec3 length() const { return hi - lo; }
  bool contains(const Vec3& x) const {
    return (x.array() >= lo.array()).all() && (x.array() <= hi.array()).all();
  }
};

}  // namespace tethersim
