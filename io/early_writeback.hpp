#pragma once
// Starts the disk on a file's pages while the rest of the file is still
// being made. A checkpoint is written through the page cache and then
// synced before it replaces the previous one; without this, the disk
// starts at the sync and the writing and the syncing take turns (the sync
// of 10^6 particles' 101 MB alone takes about as long as dd needs for
// them). Only when the disk works: nothing here changes what is written,
// and a failure to start early shows up, if at all, at the sync.

#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <utility>

namespace tethersim::io_detail {

class EarlyWriteback {
 public:
  // The file is opened at the first start(), so it may not exist yet.
  explicit EarlyWriteback(std::string path) : path_(std::move(path)) {}
  EarlyWriteback(const EarlyWriteback&) = delete;
  EarlyWriteback& operator=(const EarlyWriteback&) = delete;
  ~EarlyWriteback() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Asks the kernel to begin writing every dirty page of the file, without
  // waiting for it (pages being written already are left to finish).
  void start() {
    if (fd_ < 0 && !tried_) {
      tried_ = true;
      fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd_ >= 0) ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool tried_ = false;
};

}  // namespace tethersim::io_detail
