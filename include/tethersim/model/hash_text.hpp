#pragma once
// A 64-bit hash as text: 16 lowercase hexadecimal digits, as summaries,
// checkpoints, trajectories and `tethersim info` show model and state
// hashes.

#include <cstdint>
#include <string>

namespace tethersim {

std::string hash_text(std::uint64_t hash);

}  // namespace tethersim
