#include "tethersim/model/hash_text.hpp"

#include <cstdio>

namespace tethersim {

std::string hash_text(std::uint64_t hash) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

}  // namespace tethersim
