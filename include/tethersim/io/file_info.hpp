#pragma once
// What a tethersim HDF5 file holds, and whether it is intact.

#include <string>

namespace tethersim {

// A human-readable description of a trajectory or checkpoint, after
// verifying it (every dataset readable; for checkpoints the content hash).
// Throws InputError naming the file when it is not one or is damaged.
std::string describe_file(const std::string& path);

}  // namespace tethersim
