#pragma once
// Numbers in messages about a model: ten significant digits, and nan, inf
// and -inf by name; estimates (counts and sizes a model would need) to
// three.

#include <string>

namespace tethersim {

std::string format_number(double x);
std::string format_estimate(double x);

}  // namespace tethersim
