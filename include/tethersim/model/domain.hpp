#pragma once
// The simulation box and what happens at its faces.

#include <array>
#include <optional>

#include "tethersim/physics/vector.hpp"

namespace tethersim {

enum class Boundary {
  periodic,    // leave one face, enter the opposite one
  open,        // particles that leave are removed and recorded (escapes)
  reflective,  // elastic specular wall at the face (centre-based)
};

// What each kind of boundary is, in one row: its name in model files
// (to_string and the model reader), its name in H5MD files (which know
// only "periodic" and "none"), and what a particle meets at the face. The
// engine (which event a box face is), the certifier, the initial-state
// generators, the sector grid and the trajectory writer all ask this
// table; a new kind is a row here plus, if its face event is a new one,
// that event's execution in the engine.
struct BoundaryKind {
  Boundary boundary;
  const char* name;
  const char* h5md_name;
  bool wraps;    // leaving one face is entering the opposite one (no event but a sector crossing)
  bool removes;  // a particle reaching the face leaves the simulation (an escape event)
  // Neither: the face reflects (a wall event).
};

inline constexpr std::array<BoundaryKind, 3> kBoundaryKinds{{
    {Boundary::periodic, "periodic", "periodic", true, false},
    {Boundary::open, "open", "none", false, true},
    {Boundary::reflective, "reflective", "none", false, false},
}};

constexpr const BoundaryKind& boundary_kind(Boundary boundary) {
  for (const BoundaryKind& kind : kBoundaryKinds) {
    if (kind.boundary == boundary) return kind;
  }
  return kBoundaryKinds[0];  // unreachable: every enumerator has a row (checked below)
}
constexpr bool wraps(Boundary boundary) { return boundary_kind(boundary).wraps; }
constexpr bool removes(Boundary boundary) { return boundary_kind(boundary).removes; }

static_assert(boundary_kind(Boundary::open).boundary == Boundary::open &&
                  boundary_kind(Boundary::reflective).boundary == Boundary::reflective,
              "every boundary has its row in kBoundaryKinds");

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
