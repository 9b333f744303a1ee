#include "output_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "tethersim/io/input_error.hpp"

namespace tethersim::runtime {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Whether a process runs: kill with signal 0 tests that it exists without
// touching it; a zombie (killed, not yet reaped: a rank whose mpirun was
// killed waits for its new parent) exists but runs no more.
bool running(long pid) {
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t name_end = text.rfind(')');
  if (name_end == std::string::npos || name_end + 2 >= text.size()) return true;
  const char state = text[name_end + 2];
  return state != 'Z' && state != 'X';
}

// True when the lock's process is gone: only knowable on its own host. A
// process killed a moment ago may take a little while to go: give it a
// second before calling the lock live.
bool stale(long pid, const std::string& host) {
  if (host != host_name() || pid <= 0) return false;
  for (int wait = 0; wait < 20; ++wait) {
    if (!running(pid)) return true;
    usleep(50000);
  }
  return false;
}

[[noreturn]] void refuse(const fs::path& directory, long pid, const std::string& host) {
  throw InputError({directory.string(), 0}, "output.directory",
                   "is in use by another run (process " + std::to_string(pid) + " on host " +
                       (host.empty() ? "unknown" : host) + ", " + OutputLock::kFileName +
                       "); wait for it to end, stop it (SIGTERM writes a checkpoint), or choose another "
                       "--output; remove " + OutputLock::kFileName + " only if no run is going");
}

// The holder of an existing lock: process id and host.
std::pair<long, std::string> holder_of(const fs::path& path) {
  std::istringstream holder(read_all(path));
  long pid = 0;
  std::string host;
  holder >> pid >> host;
  return {pid, host};
}

}  // namespace

void OutputLock::check_free(const fs::path& directory) {
  const fs::path path = directory / kFileName;
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  const auto [pid, host] = holder_of(path);
  if (!stale(pid, host)) refuse(directory, pid, host);
}

OutputLock::OutputLock(const fs::path& directory) {
  const fs::path path = directory / kFileName;
  const std::string content = std::to_string(static_cast<long>(getpid())) + " " + host_name() + "\n";
  // Two attempts: the second after removing a stale lock.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      const bool written = write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
      close(fd);
      if (!written) {
        unlink(path.c_str());
        throw InputError({directory.string(), 0}, "output.directory", "is not writable (cannot write " +
                                                                          std::string(kFileName) + ")");
      }
      path_ = path;
      content_ = content;
      return;
    }
    if (errno != EEXIST) {
      throw InputError({directory.string(), 0}, "output.directory",
                       "is not writable (cannot create " + std::string(kFileName) + ": " + std::strerror(errno) + ")");
    }
    const auto [pid, host] = holder_of(path);
    if (attempt == 0 && stale(pid, host)) {
      std::error_code ec;
      fs::remove(path, ec);
      continue;
    }
    refuse(directory, pid, host);
  }
}

OutputLock::~OutputLock() { release(); }

OutputLock::OutputLock(OutputLock&& other) noexcept
    : path_(std::exchange(other.path_, {})), content_(std::move(other.content_)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::exchange(other.path_, {});
    content_ = std::move(other.content_);
  }
  return *this;
}

void OutputLock::release() {
  if (path_.empty()) return;
  // Only our own lock: never one another run took over meanwhile.
  if (read_all(path_) == content_) unlink(path_.c_str());
  path_.clear();
}

}  // namespace tethersim::runtime
