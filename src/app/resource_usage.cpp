#include "resource_usage.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

namespace tethersim::app {

std::size_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace tethersim::app

namespace tethersim::app {

std::size_t current_resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace tethersim::app
