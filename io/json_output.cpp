#include "tethersim/io/json_output.hpp"

#include <cmath>
#include <cstdint>

namespace tethersim {

Json json_number(double x) {
  // Below 10^17 every integral double is an integer that "%.17g" printed
  // without an exponent and that an int64 holds exactly.
  if (std::isfinite(x) && x == std::trunc(x) && std::fabs(x) < 1e17 && !(x == 0.0 && std::signbit(x))) {
    return static_cast<std::int64_t>(x);
  }
  return x;  // the library writes non-finite numbers as null
}

std::string json_text(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace tethersim
