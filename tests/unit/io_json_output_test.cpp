// The JSON every output file shares (io/json_output): numbers read back as
// the same doubles, integral ones keep the form scripts compare as text,
// and non-finite ones and foreign bytes do not break a file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "tethersim/io/json_output.hpp"

namespace tethersim {
namespace {

std::string text_of(double x) { return json_number(x).dump(); }

TEST(JsonOutput, IntegralNumbersHaveNoFraction) {
  EXPECT_EQ(text_of(2.0), "2");
  EXPECT_EQ(text_of(-900.0), "-900");
  EXPECT_EQ(text_of(0.0), "0");
  EXPECT_EQ(text_of(1e16), "10000000000000000");  // as "%.17g" wrote it
}

TEST(JsonOutput, OtherNumbersAreShortestRoundTrip) {
  EXPECT_EQ(text_of(0.1), "0.1");
  EXPECT_EQ(text_of(3 * 0.1), "0.30000000000000004");
  EXPECT_EQ(text_of(2.5), "2.5");
  EXPECT_EQ(text_of(-0.0), "-0.0");  // the sign survives
  EXPECT_EQ(text_of(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(text_of(std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonOutput, EveryFiniteDoubleReadsBackExactly) {
  std::mt19937_64 bits(21);
  for (int k = 0; k < 100000; ++k) {
    const std::uint64_t word = bits();
    double x = 0.0;
    std::memcpy(&x, &word, sizeof x);
    if (!std::isfinite(x)) continue;
    const std::string text = text_of(x);
    const double back = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(std::memcmp(&x, &back, sizeof x), 0) << text;
  }
}

TEST(JsonOutput, TextKeepsKeyOrderAndEndsInANewline) {
  Json j;
  j["zeta"] = 1;
  j["alpha"] = json_number(0.5);
  EXPECT_EQ(json_text(j), "{\"zeta\":1,\"alpha\":0.5}\n");
  EXPECT_EQ(json_text(j, 2), "{\n  \"zeta\": 1,\n  \"alpha\": 0.5\n}\n");
}

TEST(JsonOutput, BytesThatAreNotUtf8AreReplaced) {
  Json j;
  j["path"] = std::string("run-\xe9t\xe9");  // Latin-1
  EXPECT_EQ(json_text(j), "{\"path\":\"run-\xef\xbf\xbdt\xef\xbf\xbd\"}\n");
}

}  // namespace
}  // namespace tethersim
