#pragma once
// Process exit codes of the tethersim command (documented in --help and the
// README).

namespace tethersim::runtime {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntimeFailure = 1;  // the run failed (I/O, MPI, internal)
inline constexpr int kExitBadInput = 2;        // bad usage or bad input (model, options)

}  // namespace tethersim::runtime
