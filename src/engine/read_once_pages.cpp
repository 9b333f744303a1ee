#include "tethersim/engine/read_once_pages.hpp"

#include <algorithm>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tethersim::engine {

namespace {

// Enough to keep the system calls rare, small beside the arrays it serves.
constexpr std::size_t kStep = std::size_t{256} << 10;

std::uintptr_t page_size() {
#if defined(__linux__)
  const long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<std::uintptr_t>(size) : 4096;
#else
  return 4096;
#endif
}

}  // namespace

ReadOncePages::ReadOncePages(const void* data, std::size_t bytes)
    : data_(reinterpret_cast<std::uintptr_t>(data)), bytes_(bytes) {
  // The page holding the array's first bytes may hold the allocator's own
  // bookkeeping just before them: it is never returned.
  const std::uintptr_t page = page_size();
  returned_ = (data_ + page - 1) / page * page;
}

void ReadOncePages::read_through(std::size_t bytes) {
#if defined(__linux__)
  const std::uintptr_t page = page_size();
  // Only pages wholly inside what was read: the last page may be shared
  // with whatever the allocator placed after the array.
  const std::uintptr_t end = (data_ + std::min(bytes, bytes_)) / page * page;
  if (end < returned_ + kStep && !(bytes >= bytes_ && end > returned_)) return;
  // A hint: if the system refuses, the pages stay until the array is freed.
  madvise(reinterpret_cast<void*>(returned_), end - returned_, MADV_DONTNEED);
  returned_ = end;
#else
  (void)bytes;
#endif
}

}  // namespace tethersim::engine
