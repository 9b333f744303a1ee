#pragma once
// MPI for the length of one command: initialised on construction, finalised
// on destruction. Works the same under mpirun, srun and as a plain process.

namespace tethersim::decomposition {

class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace tethersim::decomposition
