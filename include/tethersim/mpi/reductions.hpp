#pragma once
// Sums, minima and maxima over ranks, broadcasts, prefix sums and the
// barrier, for the value types tethersim agrees on: every collective call
// of the layers above goes through here or collectives.hpp, so that the
// MPI type of a C++ value is chosen in one place. Header only, on MPI
// alone.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "tethersim/mpi/collectives.hpp"

namespace tethersim::mpi {

template <typename T>
MPI_Datatype datatype() {
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return MPI_UINT64_T;
  else if constexpr (std::is_same_v<T, char>) return MPI_CHAR;
  else static_assert(sizeof(T) == 0, "no MPI type for this value type");
}

// values[k] becomes op over every rank's values[k], on every rank.
// Collective; every rank passes the same count.
template <typename T>
void reduce_in_place(T* values, std::size_t count, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), datatype<T>(), op, comm);
}
template <typename T>
void reduce_in_place(std::vector<T>& values, MPI_Op op, MPI_Comm comm) {
  reduce_in_place(values.data(), values.size(), op, comm);
}

template <typename T>
void sum_in_place(std::vector<T>& values, MPI_Comm comm) { reduce_in_place(values, MPI_SUM, comm); }
template <typename T>
void max_in_place(std::vector<T>& values, MPI_Comm comm) { reduce_in_place(values, MPI_MAX, comm); }
template <typename T>
void min_in_place(std::vector<T>& values, MPI_Comm comm) { reduce_in_place(values, MPI_MIN, comm); }

// One value: op over every rank's, on every rank. Collective.
template <typename T>
T reduced(T value, MPI_Op op, MPI_Comm comm) {
  reduce_in_place(&value, 1, op, comm);
  return value;
}
template <typename T>
T sum(T value, MPI_Comm comm) { return reduced(value, MPI_SUM, comm); }
template <typename T>
T max(T value, MPI_Comm comm) { return reduced(value, MPI_MAX, comm); }
template <typename T>
T min(T value, MPI_Comm comm) { return reduced(value, MPI_MIN, comm); }

// The sum of the values of the ranks before this one (0 on rank 0).
template <typename T>
T sum_before(T value, MPI_Comm comm) {
  T before{};
  MPI_Exscan(&value, &before, 1, datatype<T>(), MPI_SUM, comm);
  return rank_of(comm) == 0 ? T{} : before;  // MPI_Exscan leaves rank 0's result undefined
}

// `count` values from `root` to every rank. Collective.
template <typename T>
void broadcast(T* values, std::size_t count, int root, MPI_Comm comm) {
  MPI_Bcast(values, static_cast<int>(count), datatype<T>(), root, comm);
}
template <typename T>
void broadcast(std::vector<T>& values, int root, MPI_Comm comm) {
  broadcast(values.data(), values.size(), root, comm);
}
template <typename T>
T broadcast(T value, int root, MPI_Comm comm) {
  broadcast(&value, 1, root, comm);
  return value;
}
// Text of any length (the others' is replaced by the root's).
inline void broadcast(std::string& text, int root, MPI_Comm comm) {
  int length = message_bytes(text.size());
  broadcast(&length, 1, root, comm);
  text.resize(static_cast<std::size_t>(length));
  broadcast(text.data(), text.size(), root, comm);
}

inline void barrier(MPI_Comm comm) { MPI_Barrier(comm); }

// A reduction of its own (MPI_Op_create), freed with its owner unless MPI
// has been finalised by then.
class UserReduction {
 public:
  UserReduction(MPI_User_function* function, bool commutes) {
    MPI_Op_create(function, commutes ? 1 : 0, &op_);
  }
  ~UserReduction() {
    if (std::uncaught_exceptions() > 0) return;  // the job is ending every rank
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && op_ != MPI_OP_NULL) MPI_Op_free(&op_);
  }
  UserReduction(const UserReduction&) = delete;
  UserReduction& operator=(const UserReduction&) = delete;

  MPI_Op op() const { return op_; }

 private:
  MPI_Op op_ = MPI_OP_NULL;
};

// How one field of an agreement combines over ranks.
enum class Combine { max, sum };

// One agreement of maxima and sums in a single collective call: every rank
// gets the maximum over ranks of each of `maxima` and the sum of each of
// `sums` (both the same length on every rank).
class MaxAndSum {
 public:
  MaxAndSum() : reduction_(&combine, true) {}
  // The same for a struct of named fields (an agreement): `Agreement` has
  // `template <typename F> void each(F&& f)`, calling f(double& field,
  // Combine role) for every field in a fixed order.
  template <typename Agreement>
  void agree(Agreement& agreement, MPI_Comm comm) const {
    std::vector<double> maxima, sums;
    agreement.each([&](double& v, Combine role) { (role == Combine::max ? maxima : sums).push_back(v); });
    agree(maxima, sums, comm);
    std::size_t m = 0, s = 0;
    agreement.each([&](double& v, Combine role) { v = role == Combine::max ? maxima[m++] : sums[s++]; });
  }
  // The values one agreement sends (its fields and the count of maxima).
  template <typename Agreement>
  static std::size_t values_of(Agreement agreement) {
    std::size_t n = 1;
    agreement.each([&](double&, Combine) { ++n; });
    return n;
  }
  void agree(std::vector<double>& maxima, std::vector<double>& sums, MPI_Comm comm) const {
    std::vector<double> buffer;
    buffer.push_back(static_cast<double>(maxima.size()));
    buffer.insert(buffer.end(), maxima.begin(), maxima.end());
    buffer.insert(buffer.end(), sums.begin(), sums.end());
    reduce_in_place(buffer, reduction_.op(), comm);
    std::copy(buffer.begin() + 1, buffer.begin() + 1 + static_cast<long>(maxima.size()), maxima.begin());
    std::copy(buffer.begin() + 1 + static_cast<long>(maxima.size()), buffer.end(), sums.begin());
  }

 private:
  // Element 0 holds k; elements 1..k are maxima, the rest sums.
  static void combine(void* in, void* inout, int* length, MPI_Datatype*) {
    const auto* a = static_cast<const double*>(in);
    auto* b = static_cast<double*>(inout);
    const auto k = static_cast<int>(a[0]);
    for (int i = 1; i <= k && i < *length; ++i) b[i] = std::max(a[i], b[i]);
    for (int i = k + 1; i < *length; ++i) b[i] += a[i];
  }
  UserReduction reduction_;
};

}  // namespace tethersim::mpi
