// Owner-computes messages as bytes: a batch of outcomes and withdrawals
// reads back as it was written, every bit of keys and records kept, and a
// batch cut short or corrupted is an error, never a read past its end.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "awkward_particle.hpp"
#include "engine_test_support.hpp"
#include "tethersim/decomposition/outcome_codec.hpp"
#include "tethersim/decomposition/record_codec.hpp"

namespace tethersim::testing {
namespace {

engine::EventKey key_of(double time, int priority, std::uint64_t tie, std::uint16_t identity, ParticleId lower) {
  engine::EventKey k;
  k.time = time;
  k.priority = priority;
  k.tie = tie;
  k.identity = identity;
  k.lower = lower;
  return k;
}

engine::EventOutcome outcome_of(ParticleId first, std::size_t count) {
  engine::EventOutcome o;
  o.key = key_of(0.1 + static_cast<double>(first), -3, 0xfedcba9876543210ULL + first, 0x0302, first);
  for (std::size_t k = 0; k < count; ++k) {
    engine::ParticleRecord r;
    r.particle = awkward_particle(first + k, 2);
    r.reaction_times = {0.5 + static_cast<double>(k), std::numeric_limits<double>::infinity()};
    r.tethers = {first + k + 1};
    r.loaded_edges.push_back({first + k, first + k + 1, Vec3(0.1, -0.2, 0.3), 2.5, 99});
    o.records.push_back(r);
    o.read_hashes.push_back(0x9e3779b97f4a7c15ULL * (first + k));
  }
  return o;
}

decomposition::Bytes bytes_of(const engine::ParticleRecord& r) {
  decomposition::Bytes b;
  decomposition::append_record(b, r);
  return b;
}

struct Read {
  std::vector<engine::EventOutcome> outcomes;
  std::vector<engine::EventKey> withdrawals;
  std::vector<char> order;  // 'o' (an outcome) or 'w' (a withdrawal)
};

Read read_batch(const decomposition::Bytes& batch) {
  Read r;
  decomposition::read_outcome_batch(
      batch.data(), batch.size(),
      [&](engine::EventOutcome&& o) {
        r.outcomes.push_back(std::move(o));
        r.order.push_back('o');
      },
      [&](const engine::EventKey& k) {
        r.withdrawals.push_back(k);
        r.order.push_back('w');
      });
  return r;
}

void expect_same(const engine::EventOutcome& a, const engine::EventOutcome& b) {
  EXPECT_TRUE(a.key == b.key);
  EXPECT_EQ(a.read_hashes, b.read_hashes);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t k = 0; k < a.records.size(); ++k) EXPECT_EQ(bytes_of(a.records[k]), bytes_of(b.records[k]));
  ASSERT_EQ(a.introductions.size(), b.introductions.size());
  for (std::size_t k = 0; k < a.introductions.size(); ++k) {
    EXPECT_EQ(bytes_of(a.introductions[k]), bytes_of(b.introductions[k]));
  }
}

// An outcome that carries a loaded component's other members.
engine::EventOutcome with_introductions(ParticleId first) {
  engine::EventOutcome o = outcome_of(first, 1);
  o.introductions = outcome_of(first + 100, 3).records;
  return o;
}

TEST(OutcomeCodec, ABatchReadsBackInOrderWithEveryBit) {
  const engine::EventOutcome first = outcome_of(10, 2), second = with_introductions(40), empty = outcome_of(7, 0);
  const engine::EventKey extreme = key_of(std::nextafter(2.0, 3.0), std::numeric_limits<int>::min(), 5, 0xffff,
                                          std::numeric_limits<ParticleId>::max());
  decomposition::Bytes batch;
  decomposition::append_outcome(batch, first);
  decomposition::append_withdrawal(batch, extreme);
  decomposition::append_outcome(batch, second);
  decomposition::append_withdrawal(batch, first.key);
  decomposition::append_outcome(batch, empty);
  const Read r = read_batch(batch);
  EXPECT_EQ(r.order, (std::vector<char>{'o', 'w', 'o', 'w', 'o'}));
  ASSERT_EQ(r.outcomes.size(), 3U);
  expect_same(r.outcomes[0], first);
  expect_same(r.outcomes[1], second);
  expect_same(r.outcomes[2], empty);
  ASSERT_EQ(r.withdrawals.size(), 2U);
  EXPECT_TRUE(r.withdrawals[0] == extreme);
  EXPECT_TRUE(r.withdrawals[1] == first.key);
  EXPECT_TRUE(read_batch({}).order.empty());
}

TEST(OutcomeCodec, ABatchCutShortOrCorruptedIsAnError) {
  decomposition::Bytes batch;
  decomposition::append_outcome(batch, outcome_of(3, 2));
  decomposition::append_outcome(batch, with_introductions(5));
  decomposition::append_withdrawal(batch, key_of(1.0, 0, 0, 0, 0));
  for (std::size_t cut : {std::size_t{1}, std::size_t{9}, batch.size() / 2}) {
    const decomposition::Bytes shorter(batch.begin(), batch.end() - static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(read_batch(shorter), std::runtime_error) << "cut by " << cut;
  }
  decomposition::Bytes unknown = batch;
  unknown[0] = 9;  // no such message
  EXPECT_THROW(read_batch(unknown), std::runtime_error);
  engine::EventOutcome uneven = outcome_of(3, 2);
  uneven.read_hashes.pop_back();
  decomposition::Bytes out;
  EXPECT_THROW(decomposition::append_outcome(out, uneven), std::logic_error);
}

}  // namespace
}  // namespace tethersim::testing
