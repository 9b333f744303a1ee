#include "output_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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

struct Holder {
  long pid = 0;
  std::string host;
};

// What a lock file says about its run: process id and host.
Holder holder_in(const fs::path& path) {
  std::istringstream text(read_all(path));
  Holder holder;
  text >> holder.pid >> holder.host;
  return holder;
}

// ---------------------------------------------------------------- kernel lock

enum class Lock { taken, busy, unsupported };

Lock outcome(int error) {
  // EAGAIN or EACCES: another open file holds a conflicting lock. Anything
  // else (ENOLCK from an NFS mount without a lock service, ENOSYS or
  // EOPNOTSUPP from Lustre without flock, ...): this file system cannot lock.
  return error == EAGAIN || error == EACCES ? Lock::busy : Lock::unsupported;
}

struct flock whole_file(short type) {
  struct flock lock {};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = 0;
  lock.l_len = 0;  // to the end, however long the file grows
  lock.l_pid = 0;  // required for open-file-description locks
  return lock;
}

// A write lock on the whole file. An open-file-description lock where the
// kernel has them: it belongs to this open file, not to the process, so
// another open and close of the file in this process (a restart checking
// its source directory) cannot drop it. Else a classic process lock.
Lock try_lock(int fd) {
  struct flock lock = whole_file(F_WRLCK);
#ifdef F_OFD_SETLK
  if (fcntl(fd, F_OFD_SETLK, &lock) == 0) return Lock::taken;
  if (errno != EINVAL) return outcome(errno);
  lock = whole_file(F_WRLCK);
#endif
  if (fcntl(fd, F_SETLK, &lock) == 0) return Lock::taken;
  return outcome(errno);
}

// Whether another open file holds a lock on fd's file, without taking one.
Lock probe_lock(int fd) {
  struct flock lock = whole_file(F_WRLCK);
#ifdef F_OFD_GETLK
  if (fcntl(fd, F_OFD_GETLK, &lock) == 0) return lock.l_type == F_UNLCK ? Lock::taken : Lock::busy;
  if (errno != EINVAL) return Lock::unsupported;
  lock = whole_file(F_WRLCK);
#endif
  if (fcntl(fd, F_GETLK, &lock) == 0) return lock.l_type == F_UNLCK ? Lock::taken : Lock::busy;
  return Lock::unsupported;
}

// Whether fd is still the file at path: a run that ends removes its lock
// file while holding the lock, and one that opened the old file meanwhile
// must lock the new one instead.
bool is_file_at(int fd, const fs::path& path) {
  struct stat open_file {}, named {};
  if (fstat(fd, &open_file) != 0 || stat(path.c_str(), &named) != 0) return false;
  return open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

// The holder of a busy kernel lock, as its file says. A run that has just
// taken the lock may not have written its name yet: give it a moment.
Holder holder_of_locked(const fs::path& path) {
  Holder holder = holder_in(path);
  for (int wait = 0; wait < 20 && holder.pid <= 0; ++wait) {
    usleep(50000);
    holder = holder_in(path);
  }
  return holder;
}

// ---------------------------------------------- file systems without locks

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

// Without kernel locks, a lock file is stale when its process is gone: only
// knowable on its own host. A process killed a moment ago may take a little
// while to go: give it a second before calling the lock live.
bool stale(const Holder& holder) {
  if (holder.host != host_name() || holder.pid <= 0) return false;
  for (int wait = 0; wait < 20; ++wait) {
    if (!running(holder.pid)) return true;
    usleep(50000);
  }
  return false;
}

// -------------------------------------------------------------- messages

[[noreturn]] void refuse(const fs::path& directory, const Holder& holder, bool kernel_lock) {
  std::string message = "is in use by another run (process " +
                        (holder.pid > 0 ? std::to_string(holder.pid) : std::string("unknown")) + " on host " +
                        (holder.host.empty() ? "unknown" : holder.host) + ", " + OutputLock::kFileName +
                        "); wait for it to end, stop it (SIGTERM writes a checkpoint), or choose another --output";
  if (!kernel_lock) {
    message += "; this file system cannot lock files, so a run killed on another host leaves " +
               std::string(OutputLock::kFileName) + " behind: remove it only if no run is going";
  }
  throw InputError({directory.string(), 0}, "output.directory", message);
}

[[noreturn]] void not_writable(const fs::path& directory, const std::string& what) {
  throw InputError({directory.string(), 0}, "output.directory",
                   "is not writable (cannot " + what + " " + OutputLock::kFileName + ": " + std::strerror(errno) + ")");
}

void warn_no_locks(const fs::path& directory, int error) {
  std::fprintf(stderr,
               "tethersim: warning: %s: this file system cannot lock files (%s); %s is kept by its contents only, so "
               "if this run is killed on another host the file stays and refuses the next run until removed\n",
               directory.string().c_str(), std::strerror(error), OutputLock::kFileName);
}

bool write_text(int fd, const std::string& text) {
  return ftruncate(fd, 0) == 0 && pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size());
}

}  // namespace

void OutputLock::check_free(const fs::path& directory) {
  const fs::path path = directory / kFileName;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;  // no lock file: no run
  const Lock state = probe_lock(fd);
  close(fd);
  if (state == Lock::taken) return;  // a file left by a run that ended
  if (state == Lock::busy) refuse(directory, holder_of_locked(path), true);
  const Holder holder = holder_in(path);
  if (!stale(holder)) refuse(directory, holder, false);
}

OutputLock::OutputLock(const fs::path& directory) {
  const fs::path path = directory / kFileName;
  const std::string content = std::to_string(static_cast<long>(getpid())) + " " + host_name() + "\n";
  // Several attempts: after a lock file that vanished or was replaced while
  // we opened it, or a stale one removed on a file system without locks.
  for (int attempt = 0; attempt < 10; ++attempt) {
    bool created = true;
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) {
      created = false;
      fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT) continue;  // removed by its run as it ended
    }
    if (fd < 0) not_writable(directory, created ? "create" : "open");
    const Lock state = try_lock(fd);
    const int lock_error = errno;
    if (state == Lock::taken) {
      if (!is_file_at(fd, path)) {
        close(fd);
        continue;
      }
      // Information only (a file left by a killed run says the same of it).
      if (!write_text(fd, content)) {
        const int error = errno;
        unlink(path.c_str());
        close(fd);
        errno = error;
        not_writable(directory, "write");
      }
      path_ = path;
      fd_ = fd;
      return;
    }
    if (state == Lock::busy) {
      close(fd);
      refuse(directory, holder_of_locked(path), true);
    }
    // This file system cannot lock: the file itself is the lock.
    if (created) {
      const bool written = write_text(fd, content);
      close(fd);
      if (!written) {
        unlink(path.c_str());
        not_writable(directory, "write");
      }
      warn_no_locks(directory, lock_error);
      path_ = path;
      content_ = content;
      return;
    }
    close(fd);
    const Holder holder = holder_in(path);
    if (!stale(holder)) refuse(directory, holder, false);
    std::error_code ec;
    fs::remove(path, ec);
  }
  throw InputError({directory.string(), 0}, "output.directory",
                   std::string("cannot take ") + kFileName + ": other runs keep replacing it");
}

OutputLock::~OutputLock() { release(); }

OutputLock::OutputLock(OutputLock&& other) noexcept
    : path_(std::exchange(other.path_, {})), fd_(std::exchange(other.fd_, -1)), content_(std::move(other.content_)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::exchange(other.path_, {});
    fd_ = std::exchange(other.fd_, -1);
    content_ = std::move(other.content_);
  }
  return *this;
}

void OutputLock::release() {
  if (path_.empty()) return;
  if (fd_ >= 0) {
    // Removed while still locked, so that no other run locks the old file
    // after it is gone (they check that the file they locked is the one
    // named); then the lock goes with the descriptor.
    if (is_file_at(fd_, path_)) unlink(path_.c_str());
    close(fd_);
    fd_ = -1;
  } else if (read_all(path_) == content_) {
    // Without kernel locks: only our own file, never one another run took
    // over meanwhile.
    unlink(path_.c_str());
  }
  path_.clear();
}

}  // namespace tethersim::runtime
