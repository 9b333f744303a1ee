// The one place the distributed engine's testing switches (and the
// owner-computes preview's) are read from the environment.
#include "distribution_test_switches.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tethersim::runtime {

decomposition::DistributionTestSwitches distribution_test_switches_from_environment() {
  decomposition::DistributionTestSwitches s;
  const auto set = [](const char* name) { return std::getenv(name) != nullptr; };
  s.trace_windows = set("TETHERSIM_TRACE_WINDOWS");
  s.shadow_check = set("TETHERSIM_SHADOW_CHECK");
  s.fail_every_window_once = set("TETHERSIM_SPECULATION_FAIL_ONCE");
  if (const char* rate = std::getenv("TETHERSIM_SPECULATION_FAIL_RATE")) s.random_failure_rate = std::atof(rate);
  if (const char* floor = std::getenv("TETHERSIM_JOURNAL_FLOOR")) {
    s.journal_floor = static_cast<std::size_t>(std::strtoull(floor, nullptr, 10));
  }
  if (const char* failing = std::getenv("TETHERSIM_FAIL_ON_RANK")) {
    if (std::sscanf(failing, "%d@%lf", &s.failing_rank, &s.failing_time) != 2) {
      throw std::invalid_argument("TETHERSIM_FAIL_ON_RANK wants RANK@TIME, got '" + std::string(failing) + "'");
    }
  }
  s.break_synchronization = set("TETHERSIM_BREAK_SYNCHRONIZATION");
  return s;
}

bool owner_preview_asked() { return std::getenv("TETHERSIM_OWNER_PREVIEW") != nullptr; }

}  // namespace tethersim::runtime
