#include "tethersim/model/number_format.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "tethersim/physics/vector.hpp"

namespace tethersim {

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (is_infinite(x)) return "inf";
  if (x == -kInfinity) return "-inf";
  std::ostringstream out;
  out.precision(10);
  out << x;
  return out.str();
}

std::string format_estimate(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

}  // namespace tethersim
