#pragma once
// An output directory belongs to one run at a time. Two runs writing one
// trajectory, or an --overwrite deleting the files of a run still going,
// lose results silently; so a run holds tethersim.lock in its directory
// from before it touches any file until it ends.
//
// The lock is a kernel lock on that file (fcntl), which the system releases
// when the process ends in any way, SIGKILL and out-of-memory kills
// included, on every host that shares the file system (NFSv4, Lustre
// mounted with flock, local disks). The process id and host written into
// the file are information for the message that refuses a second run: a
// file left behind by a killed run is taken over, whichever host it names.
//
// On a file system that cannot lock files (the lock call fails with
// ENOLCK, ENOSYS, EOPNOTSUPP ...) the file itself is the lock, created
// exclusively: a run says so in a warning, a file whose process is gone on
// this host is taken over, and one from another host is refused (its
// process cannot be checked from here) until a person removes it.

#include <filesystem>
#include <string>

namespace tethersim::runtime {

class OutputLock {
 public:
  static constexpr const char* kFileName = "tethersim.lock";

  OutputLock() = default;
  // Takes the directory's lock; throws InputError naming the holder when
  // another run has it, or when the directory cannot hold a lock.
  explicit OutputLock(const std::filesystem::path& directory);
  // Throws the same InputError when a live run holds the directory's lock,
  // without taking it: a restart checks its checkpoint's directory before
  // it reads a checkpoint that run may be replacing.
  static void check_free(const std::filesystem::path& directory);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;

 private:
  void release();
  std::filesystem::path path_;  // empty: no lock held
  int fd_ = -1;                 // holds the kernel lock; -1 on a file system without locks
  std::string content_;         // what this process wrote (a lock file without a kernel lock is removed only if still this)
};

}  // namespace tethersim::runtime
