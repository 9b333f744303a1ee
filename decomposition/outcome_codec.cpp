// Owner-computes messages as bytes: a tag, the key field by field (no
// padding travels), then an outcome's records.
#include "tethersim/decomposition/outcome_codec.hpp"

#include <cstdint>
#include <stdexcept>

#include "tethersim/decomposition/record_codec.hpp"

namespace tethersim::decomposition {

namespace {

enum class Tag : std::uint8_t { outcome = 1, withdrawal = 2 };

void append_key(Bytes& out, const engine::EventKey& key) {
  put(out, key.time);
  put(out, static_cast<std::int32_t>(key.priority));
  put(out, key.tie);
  put(out, key.identity);
  put(out, key.lower);
}

engine::EventKey read_key(ByteReader& in) {
  engine::EventKey key;
  key.time = in.get<double>();
  key.priority = in.get<std::int32_t>();
  key.tie = in.get<std::uint64_t>();
  key.identity = in.get<std::uint16_t>();
  key.lower = in.get<ParticleId>();
  return key;
}

// The records' bytes are counted first, so that the reader hands exactly
// them to the record codec.
void append_records(Bytes& out, const std::vector<engine::ParticleRecord>& records) {
  const std::size_t length_at = out.size();
  put(out, std::uint64_t{0});
  const std::size_t records_at = out.size();
  for (const engine::ParticleRecord& r : records) append_record(out, r);
  const std::uint64_t length = out.size() - records_at;
  std::memcpy(out.data() + length_at, &length, sizeof length);
}

std::vector<engine::ParticleRecord> read_counted_records(ByteReader& in, std::size_t n, const char* what) {
  const auto length = static_cast<std::size_t>(in.get<std::uint64_t>());
  std::vector<engine::ParticleRecord> records = read_records(in.take(length), length);
  if (records.size() != n) {
    throw std::runtime_error(std::string("owner-computes batch: an outcome's ") + what + " do not match their count");
  }
  return records;
}

}  // namespace

void append_outcome(Bytes& out, const engine::EventOutcome& outcome) {
  if (outcome.records.size() != outcome.read_hashes.size()) {
    throw std::logic_error("an outcome with " + std::to_string(outcome.records.size()) + " records and " +
                           std::to_string(outcome.read_hashes.size()) + " read hashes");
  }
  put(out, Tag::outcome);
  append_key(out, outcome.key);
  put(out, static_cast<std::uint32_t>(outcome.records.size()));
  for (std::uint64_t h : outcome.read_hashes) put(out, h);
  append_records(out, outcome.records);
  // The loaded components' members the event left as they were (ghosts
  // one layer deep: EventOutcome::introductions).
  put(out, static_cast<std::uint32_t>(outcome.introductions.size()));
  if (!outcome.introductions.empty()) append_records(out, outcome.introductions);
}

void append_withdrawal(Bytes& out, const engine::EventKey& key) {
  put(out, Tag::withdrawal);
  append_key(out, key);
}

void read_outcome_batch(const char* data, std::size_t size,
                        const std::function<void(engine::EventOutcome&&)>& outcome,
                        const std::function<void(const engine::EventKey&)>& withdrawal) {
  ByteReader in(data, size, "owner-computes batch");
  while (!in.done()) {
    const auto tag = in.get<Tag>();
    if (tag == Tag::withdrawal) {
      withdrawal(read_key(in));
      continue;
    }
    if (tag != Tag::outcome) throw std::runtime_error("owner-computes batch: unknown message tag");
    engine::EventOutcome o;
    o.key = read_key(in);
    const auto n = in.get<std::uint32_t>();
    o.read_hashes.resize(n);
    for (std::uint64_t& h : o.read_hashes) h = in.get<std::uint64_t>();
    o.records = read_counted_records(in, n, "records");
    const auto introductions = in.get<std::uint32_t>();
    if (introductions != 0) o.introductions = read_counted_records(in, introductions, "introductions");
    outcome(std::move(o));
  }
}

}  // namespace tethersim::decomposition
