#include "tethersim/decomposition/record_codec.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "tethersim/engine/particle_bytes.hpp"

namespace tethersim::decomposition {

namespace {

template <typename T>
void put(Bytes& out, const T& value) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

void put_vec(Bytes& out, const Vec3& v) {
  for (int k = 0; k < 3; ++k) put(out, v[k]);
}

class Reader {
 public:
  Reader(const char* data, std::size_t size) : data_(data), size_(size) {}
  template <typename T>
  T get() {
    if (at_ + sizeof(T) > size_) throw std::runtime_error("particle record buffer is truncated");
    T value;
    std::memcpy(&value, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  // The next `n` bytes, to be read in place.
  const char* take(std::size_t n) {
    if (at_ + n > size_) throw std::runtime_error("particle record buffer is truncated");
    const char* bytes = data_ + at_;
    at_ += n;
    return bytes;
  }
  Vec3 get_vec() {
    Vec3 v;
    for (int k = 0; k < 3; ++k) v[k] = get<double>();
    return v;
  }
  bool done() const { return at_ == size_; }

 private:
  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// The particle's fields, then the counts of its reaction times (16 bits),
// tethers and loaded edges (32 bits each).
constexpr std::size_t kFixedBytes = engine::kParticleBytes + 2 + 4 + 4;
constexpr std::size_t kEdgeBytes = 8 + 8 + 24 + 8 + 8;

}  // namespace

std::size_t record_size(const engine::ParticleRecord& r) {
  return kFixedBytes + 8 * r.reaction_times.size() + 8 * r.tethers.size() +
         kEdgeBytes * r.loaded_edges.size();
}

void append_record(Bytes& out, const engine::ParticleRecord& r) {
  // Geometric growth: reserving just this record's bytes would copy the
  // whole buffer for every record appended.
  const std::size_t needed = out.size() + record_size(r);
  if (needed > out.capacity()) out.reserve(std::max(needed, 2 * out.capacity()));
  const std::size_t at = out.size();
  out.resize(at + engine::kParticleBytes);
  engine::write_particle_bytes(r.particle, out.data() + at);
  put<std::uint16_t>(out, static_cast<std::uint16_t>(r.reaction_times.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.tethers.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.loaded_edges.size()));
  for (double phi : r.reaction_times) put<double>(out, phi);
  for (ParticleId t : r.tethers) put<std::uint64_t>(out, t);
  for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) {
    put<std::uint64_t>(out, e.a);
    put<std::uint64_t>(out, e.b);
    put_vec(out, e.impulse);
    put<double>(out, e.time);
    put<std::uint64_t>(out, e.sequence);
  }
}

std::size_t most_records_in(std::size_t bytes) { return bytes / kFixedBytes; }

std::vector<engine::ParticleRecord> read_records(const char* data, std::size_t size) {
  std::vector<engine::ParticleRecord> records;
  read_records_into(data, size, records);
  return records;
}

void read_records_into(const char* data, std::size_t size, std::vector<engine::ParticleRecord>& records) {
  Reader in(data, size);
  while (!in.done()) {
    engine::ParticleRecord r;
    engine::read_particle_bytes(in.take(engine::kParticleBytes), r.particle);
    const auto phis = in.get<std::uint16_t>();
    const auto tethers = in.get<std::uint32_t>();
    const auto edges = in.get<std::uint32_t>();
    for (std::uint16_t k = 0; k < phis; ++k) r.reaction_times.push_back(in.get<double>());
    for (std::uint32_t k = 0; k < tethers; ++k) r.tethers.push_back(in.get<std::uint64_t>());
    for (std::uint32_t k = 0; k < edges; ++k) {
      engine::LoadedEdgeSnapshot e;
      e.a = in.get<std::uint64_t>();
      e.b = in.get<std::uint64_t>();
      e.impulse = in.get_vec();
      e.time = in.get<double>();
      e.sequence = in.get<std::uint64_t>();
      r.loaded_edges.push_back(e);
    }
    records.push_back(std::move(r));
  }
}

}  // namespace tethersim::decomposition
