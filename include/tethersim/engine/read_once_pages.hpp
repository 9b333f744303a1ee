#pragma once
// Giving back the pages of a large array that is read once, front to back,
// while the reading goes on. The engine is built from a system's initial
// particles (64 bytes each); holding all of them until the last one is
// placed, beside the engine's arrays, set a run's peak memory. Pages that
// were read are returned as the reading passes them, so the peak is the
// engine's own size.

#include <cstddef>
#include <cstdint>

namespace tethersim::engine {

class ReadOncePages {
 public:
  // The `bytes` at `data` will be read front to back and never again; the
  // owner frees them afterwards as usual (their pages then read as zeros).
  ReadOncePages(const void* data, std::size_t bytes);
  // The first `bytes` are read: the whole pages among them go back to the
  // system, 256 KiB or more at a time (one system call per step).
  void read_through(std::size_t bytes);

 private:
  std::uintptr_t data_ = 0;
  std::size_t bytes_ = 0;
  std::uintptr_t returned_ = 0;  // pages before this address are returned
};

}  // namespace tethersim::engine
