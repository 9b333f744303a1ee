#pragma once
// Wall-clock time and process memory, for progress lines and reports.

#include <chrono>
#include <cstddef>

namespace tethersim::runtime {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Peak resident set size of this process so far, in bytes.
std::size_t peak_resident_bytes();
// Resident set size now, in bytes.
std::size_t current_resident_bytes();

// Asks the C library to keep freed memory for reuse instead of returning
// it to the system (glibc only; nothing when GLIBC_TUNABLES is set, so a
// user's own malloc settings win). For one process: call it before a
// run's or the benchmark's large allocations. Runs on several ranks leave
// glibc's defaults (docs/engine.md, "Freed memory").
void keep_freed_memory();

}  // namespace tethersim::runtime
