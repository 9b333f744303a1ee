#include "stop_signals.hpp"

#include <csignal>
#include <initializer_list>

namespace tethersim::runtime {

namespace {
volatile std::sig_atomic_t received = 0;
extern "C" void on_stop_signal(int signal) { received = signal; }
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
