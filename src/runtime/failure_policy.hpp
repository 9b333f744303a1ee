#pragma once
// How a failure ends a run on several ranks. A rank that stops while the
// others wait in a collective call leaves them waiting for ever (and a job
// burning its allocation), so:
// - failures found before the first collective call (the model file, the
//   checkpoint's presence) are agreed on, and every rank returns the exit
//   code of the lowest failing rank, which alone prints its message;
// - failures after it end every rank at once (MPI_Abort), before anything
//   collective is torn down: closing a parallel file or freeing a
//   communicator waits for the other ranks.

#include <mpi.h>

#include <optional>
#include <string>

namespace tethersim::runtime {

struct RunFailure {
  int exit_code = 0;
  std::string message;  // the whole line, without the newline
};

// Collective: 0 when no rank failed; otherwise every rank returns the exit
// code of the lowest rank that failed, and that rank prints its message.
int agree_on_failure(MPI_Comm comm, const std::optional<RunFailure>& mine);

// Prints this rank's message and ends every rank of `comm` with
// `exit_code`. Input errors usually hit every rank alike: ranks other than
// 0 then wait a moment before printing, so that rank 0's abort normally
// ends them first and the message is printed once.
[[noreturn]] void end_all_ranks(MPI_Comm comm, int exit_code, const std::string& message, bool input_error);

}  // namespace tethersim::runtime
