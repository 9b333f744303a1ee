#pragma once
// SIGTERM, SIGUSR1 and SIGINT ask a run to write a checkpoint at its next
// safe point and exit cleanly (batch systems send them before the wall-time
// limit). The handler can only set a flag; this is the one process-wide
// variable tethersim has, because a signal handler can reach nothing else.
// They are installed before the run is set up, so that a signal arriving
// while a large system is still being built is kept and honoured at the
// first safe point, instead of killing the process.

namespace tethersim::runtime {

void install_stop_signals();
// The signal received so far (0 = none).
int stop_signal();
const char* signal_name(int signal);

}  // namespace tethersim::runtime
