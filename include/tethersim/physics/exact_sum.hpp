#pragma once
// Exact sums of doubles: the sum does not depend on the order of the terms
// nor on how they are split among processes, so the kinetic energy and the
// momentum that any number of ranks report are the same bits
// (docs/physics.md, "Exact sums"). A fixed-point accumulator covering the whole double range:
// every double is an integer multiple of 2^-1074, held in 32-bit digits
// that are summed without rounding.

#include <array>
#include <cstdint>

namespace tethersim::physics {

class ExactSum {
 public:
  // 2^-1074 .. 2^1024 in 32-bit digits, and headroom for carries.
  static constexpr int kDigits = 68;
  using Digits = std::array<std::int64_t, kDigits>;

  void add(double x);
  // Adds another exact sum (e.g. another process's part).
  void add(const ExactSum& other);
  // The exact sum rounded to a double; the same bits for the same exact
  // value whatever the terms were.
  double value() const;

  // Digits in canonical form: every digit in [0, 2^32) but the last, which
  // holds the sign. Equal sums give equal digits; digits of several sums
  // can be added digit by digit (an MPI_SUM over int64 arrays) and read
  // back with from_digits.
  Digits canonical_digits() const;
  static ExactSum from_digits(const Digits& digits);

 private:
  void carry();
  Digits digits_{};
  std::uint32_t additions_ = 0;  // since the last carry
};

}  // namespace tethersim::physics
