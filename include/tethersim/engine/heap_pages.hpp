#pragma once
// Giving freed heap memory back to the system. glibc keeps the pages of
// freed blocks resident inside its heap; a large temporary freed there
// (an undo log, a fallback's records, a checkpoint's snapshot) still counts
// in the process's resident size, and a larger block allocated next does
// not fit the hole and takes new pages. Returning the pages costs a page
// fault per 4 kB when the heap grows back.

#include <cstddef>

namespace tethersim::engine {

// Returns the free pages inside the heap to the system when at least
// `least_free_bytes` of it are free (glibc only; elsewhere nothing).
void return_free_heap_pages(std::size_t least_free_bytes);

}  // namespace tethersim::engine
