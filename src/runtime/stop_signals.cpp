#include "stop_signals.hpp"

#include <csignal>
#include <initializer_list>

namespace tethersim::runtime {

namespace {
volatile std::sig_atomic_t received = 0;
// A second Ctrl-C while the first is still being honoured (a large system
// still being built, a long checkpoint write) ends the process at once, as
// users of interactive tools expect; the outputs survive that as they
// survive kill -9. signal() and raise() are async-signal-safe.
extern "C" void on_stop_signal(int signal) {
  if (signal == SIGINT && received == SIGINT) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
    return;
  }
  received = signal;
}
}  // namespace

void install_stop_signals() {
  for (int s : {SIGTERM, SIGUSR1, SIGINT}) std::signal(s, on_stop_signal);
}

int stop_signal() { return received; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    case SIGINT: return "SIGINT";
    default: return "a signal";
  }
}

}  // namespace tethersim::runtime
