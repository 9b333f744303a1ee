#pragma once
// Vector and scalar conventions shared by every layer.

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products, unitOrthogonal

#include <limits>

namespace tethersim {

// Positions, velocities and impulses are always 3-D; 1-D and 2-D models keep
// the unused components at exactly zero (the random-impulse kernels and the
// generators honour the model's dimension count).
using Vec3 = Eigen::Vector3d;

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

inline bool is_infinite(double x) { return x == kInfinity; }

}  // namespace tethersim
