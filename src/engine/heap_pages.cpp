#include "tethersim/engine/heap_pages.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tethersim::engine {

void return_free_heap_pages(std::size_t least_free_bytes) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
  if (mallinfo2().fordblks >= least_free_bytes) malloc_trim(0);
#else
  (void)least_free_bytes;
#endif
}

}  // namespace tethersim::engine
