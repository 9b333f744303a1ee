#pragma once
// Vectors for the engine's large per-particle arrays. Allocations of 2 MiB
// or more are 2 MiB aligned and advised to use transparent huge pages:
// the engine touches these arrays at random, and with 4 KiB pages most such
// accesses at a million particles miss the TLB. Smaller ones use the usual
// allocator. Contents and results are unaffected.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace tethersim::engine {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{1} << 21;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>().allocate(n);
    // No machine holds this much (the bound also keeps the compiler from
    // warning of sizes near 2^64).
    if (bytes > (std::size_t{1} << 56) || n > (std::size_t{1} << 56) / sizeof(T)) throw std::bad_alloc();
    // Aligned to a huge page, and only the whole huge pages inside the
    // array advised: a partial last one, rounded up and advised, was backed
    // by a whole huge page, up to 2 MiB resident that the array never used
    // (a fifth of the engine's memory for the gas of 10^5).
    void* p = nullptr;
    if (posix_memalign(&p, kHugePage, bytes) != 0) throw std::bad_alloc();
    madvise(p, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // a hint: failure only costs speed
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugePage) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

template <typename T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

// For large temporaries made rarely (a renumbering's new numbering): each
// one mapped on its own and unmapped when freed, so its pages go back to
// the system at once. From the malloc heap they stayed resident for the
// rest of the run once glibc's mmap threshold had risen past their size (4
// bytes per particle on the gas of 10^6, 3% of its peak). Not for arrays
// freed and made again often: a fresh mapping is zero-filled page by page.
template <typename T>
struct MappedAllocator {
  using value_type = T;
  static constexpr std::size_t kSmall = std::size_t{1} << 16;

  MappedAllocator() = default;
  template <typename U>
  MappedAllocator(const MappedAllocator<U>&) {}

  T* allocate(std::size_t n) {
    if (n * sizeof(T) < kSmall) return std::allocator<T>().allocate(n);
    if (n > (std::size_t{1} << 56) / sizeof(T)) throw std::bad_alloc();
    void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kSmall) {
      std::allocator<T>().deallocate(p, n);
    } else {
      munmap(p, n * sizeof(T));
    }
  }
  template <typename U>
  bool operator==(const MappedAllocator<U>&) const { return true; }
};

template <typename T>
using MappedVector = std::vector<T, MappedAllocator<T>>;

// Makes room for `n` elements, growing by an eighth when full instead of
// the standard library's doubling. A distributed rank places its block and
// halo, then gains a few particles at a time (migration, a new ghost): a
// doubling there would leave every per-particle array half empty for the
// rest of the run. Appending stays amortised O(1).
template <typename Vector>
void reserve_gently(Vector& v, std::size_t n) {
  if (n > v.capacity()) v.reserve(n + n / 8 + 1024);
}

// push_back with that growth.
template <typename Vector>
void append_gently(Vector& v, const typename Vector::value_type& value) {
  reserve_gently(v, v.size() + 1);
  v.push_back(value);
}

}  // namespace tethersim::engine
