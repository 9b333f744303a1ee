#pragma once
// Room for particles a rank's engine gains after it is built (migrations
// in, new ghosts; in owner-computes rounds, particles an outcome brings
// into the window), reserved at its construction: the growth an append
// would choose (engine/big_vector.hpp), without copying every particle
// array into fresh memory when the first one arrives (on the gas of 10^6
// on 2 ranks that copy was an owner rank's largest heap item, 37 MB).

#include <cstddef>

namespace tethersim::decomposition {

inline std::size_t spare_slots(std::size_t particles) { return particles / 8 + 1024; }

}  // namespace tethersim::decomposition
