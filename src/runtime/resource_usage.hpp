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
// Returns the free pages inside the heap to the system when there are at
// least 32 MB of them (glibc only): before a run on several ranks writes a
// frame or a checkpoint (docs/engine.md, "Freed memory").
void return_free_heap_pages();

}  // namespace tethersim::runtime
