#include "resource_usage.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>

#include "tethersim/engine/heap_pages.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tethersim::runtime {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // The distributed engine frees and allocates the same large buffers
  // every window and every fallback (records, snapshots, the certificate's
  // arrays). glibc serves blocks above 32 MB with fresh mmaps and trims the
  // heap top, so each reuse paid a page fault per 4 kB: a quarter of a
  // 2-rank run's time on the 10^6 gas (its fallback's rebuild took 14.6 s,
  // 8.6 s with this; certified windows 15.1 s -> 12.5 s; serial 3.1 s ->
  // 2.8 s), for a higher peak resident size (645 -> 829 MB per rank there).
  // Since speculative windows, several ranks gain nothing steady from it
  // and pay a third more memory (the gas of 10^6 on 2 ranks: 432 -> 318
  // MiB per rank without it): run_simulation asks for it on one rank only.
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

void return_free_heap_pages() {
  // Only when much is free: the pages returned fault in again when the
  // heap grows back (a trim before every frame of the presynaptic
  // terminal, whose heap is a few MB, slowed its 2-rank loop from 1.3-1.65
  // s to 1.8-1.9 s, its fallbacks paying the faults).
  engine::return_free_heap_pages(std::size_t{32} << 20);
}

std::size_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace tethersim::runtime

namespace tethersim::runtime {

std::size_t current_resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace tethersim::runtime
