#pragma once
// The distributed engine's testing switches, read from the environment
// (decomposition/distribution_test_switches.hpp names them).
#include "tethersim/decomposition/distribution_test_switches.hpp"

namespace tethersim::runtime {

// Throws std::invalid_argument for a TETHERSIM_FAIL_ON_RANK that is not
// RANK@TIME.
decomposition::DistributionTestSwitches distribution_test_switches_from_environment();

// Whether TETHERSIM_OWNER_PREVIEW asks for owner-computes rounds, a preview
// that is not exact on every rank grid (docs/distribution.md).
bool owner_preview_asked();

}  // namespace tethersim::runtime
