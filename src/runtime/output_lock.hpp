#pragma once
// An output directory belongs to one run at a time. Two runs writing one
// trajectory, or an --overwrite deleting the files of a run still going,
// lose results silently; so a run holds tethersim.lock (its process id and
// host) in its directory from before it touches any file until it ends.
// A lock whose process is gone (same host) is stale and taken over; one
// from a live process, or from another host, refuses the run.

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
  std::string content_;         // what this process wrote (released only if still there)
};

}  // namespace tethersim::runtime
