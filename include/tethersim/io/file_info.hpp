#pragma once
// What a tethersim HDF5 file holds, and whether it is intact.

#include <string>

namespace tethersim {

// A human-readable description of a trajectory or checkpoint, after
// verifying it (every dataset readable; for checkpoints the content hash).
// Throws InputError naming the file when it is not one or is damaged.
// With `json`, the same facts as one JSON object on one line (for scripts:
// keys file, kind "trajectory" or "checkpoint", model, time, ...).
std::string describe_file(const std::string& path, bool json = false);

}  // namespace tethersim
