// The window-length controller (window_length.hpp).
#include "tethersim/decomposition/window_length.hpp"

#include <algorithm>
#include <cmath>

namespace tethersim::decomposition {

void WindowLength::at_least(double length) { proposal_ = std::max(proposal_, length); }

bool WindowLength::stood(double length) {
  if (length != proposal_ && proposal_ != 0.0) return false;
  proposal_ = length * (found_limit_ ? rules_.growth : rules_.first_growth);
  typical_ = typical_ > 0.0 ? std::exp(0.9 * std::log(typical_) + 0.1 * std::log(length)) : length;
  return true;
}

void WindowLength::cut(double length, double stood_span) {
  proposal_ = rules_.shrink * length;
  if (stood_span > 0.0) proposal_ = std::min(proposal_, rules_.aim_before_violation * stood_span);
  found_limit_ = true;
}

}  // namespace tethersim::decomposition
