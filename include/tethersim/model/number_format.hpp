#pragma once
// Numbers in messages about a model: ten significant digits, and nan, inf
// and -inf by name.

#include <string>

namespace tethersim {

std::string format_number(double x);

}  // namespace tethersim
