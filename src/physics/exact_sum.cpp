#include "tethersim/physics/exact_sum.hpp"

#include <cmath>
#include <cstdlib>

namespace tethersim::physics {

namespace {
constexpr int kBase = -1074;  // exponent of digit 0's lowest bit
constexpr std::int64_t kDigitRange = std::int64_t{1} << 32;
}  // namespace

void ExactSum::add(double x) {
  if (x == 0.0 || !std::isfinite(x)) {
    // Infinities and NaN have no exact sum: they poison the result.
    if (!std::isfinite(x)) digits_[kDigits - 1] += x > 0 ? (std::int64_t{1} << 40) : -(std::int64_t{1} << 40);
    return;
  }
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(x), &exponent);  // [0.5, 1)
  // x = mantissa * 2^(exponent - 53), mantissa an integer below 2^53;
  // subnormals give a smaller mantissa at the lowest exponent.
  int shift = exponent - 53 - kBase;
  auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  if (shift < 0) {
    mantissa >>= -shift;  // exact: subnormal bits below 2^-1074 are zero
    shift = 0;
  }
  const int digit = shift / 32;
  const int offset = shift % 32;
  // mantissa * 2^offset spans up to 85 bits: three digits.
  const std::uint64_t mask = 0xffffffffULL;
  const auto low = static_cast<std::int64_t>((mantissa << offset) & mask);
  const auto mid = static_cast<std::int64_t>(
      offset == 0 ? (mantissa >> 32) & mask : (mantissa >> (32 - offset)) & mask);
  const auto high = static_cast<std::int64_t>(offset == 0 ? 0 : mantissa >> (64 - offset));
  const std::int64_t sign = x < 0 ? -1 : 1;
  digits_[digit] += sign * low;
  if (digit + 1 < kDigits) digits_[digit + 1] += sign * mid;
  if (digit + 2 < kDigits) digits_[digit + 2] += sign * high;
  // Each addition moves a digit by less than 2^32: carry long before an
  // int64 could overflow.
  if (++additions_ == (1U << 30)) carry();
}

void ExactSum::add(const ExactSum& other) {
  const Digits d = other.canonical_digits();
  carry();
  for (int k = 0; k < kDigits; ++k) digits_[k] += d[k];
  carry();
}

void ExactSum::carry() {
  for (int k = 0; k + 1 < kDigits; ++k) {
    // Floor division keeps digit k in [0, 2^32).
    std::int64_t q = digits_[k] / kDigitRange;
    if (digits_[k] - q * kDigitRange < 0) --q;
    digits_[k] -= q * kDigitRange;
    digits_[k + 1] += q;
  }
  additions_ = 0;
}

ExactSum::Digits ExactSum::canonical_digits() const {
  ExactSum copy = *this;
  copy.carry();
  return copy.digits_;
}

ExactSum ExactSum::from_digits(const Digits& digits) {
  ExactSum s;
  s.digits_ = digits;
  s.carry();
  return s;
}

double ExactSum::value() const {
  Digits d = canonical_digits();
  // Work with the magnitude: negate a negative sum digit by digit.
  const bool negative = d[kDigits - 1] < 0;
  if (negative) {
    for (std::int64_t& digit : d) digit = -digit;
    ExactSum magnitude = from_digits(d);
    d = magnitude.digits_;
  }
  int top = kDigits - 1;
  while (top >= 0 && d[top] == 0) --top;
  if (top < 0) return 0.0;
  // The three leading digits (at least 65 significant bits) and a sticky
  // bit for anything below, summed from the top: a fixed procedure on a
  // canonical value, so equal sums give equal bits.
  double result = 0.0;
  for (int k = top; k >= 0 && k >= top - 2; --k) {
    result += std::ldexp(static_cast<double>(d[k]), kBase + 32 * k);
  }
  return negative ? -result : result;
}

}  // namespace tethersim::physics
