#include "tethersim/decomposition/record_codec.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

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

constexpr std::size_t kFixedBytes = 8 + 2 + 1 + 8 + 24 + 24 + 4 + 12 + 8 + 8 + 2 + 4 + 4;
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
  const engine::ParticleSnapshot& p = r.particle;
  put<std::uint64_t>(out, p.id);
  put<std::uint16_t>(out, p.species);
  put<std::uint8_t>(out, p.alive);
  put<double>(out, p.t0);
  put_vec(out, p.u0);
  put_vec(out, p.v);
  put<std::uint32_t>(out, p.counter);
  for (int k = 0; k < 3; ++k) put<std::int32_t>(out, p.sector[static_cast<std::size_t>(k)]);
  put<std::uint64_t>(out, p.ri_index);
  put<double>(out, p.ri_time);
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

std::vector<engine::ParticleRecord> read_records(const char* data, std::size_t size) {
  std::vector<engine::ParticleRecord> records;
  Reader in(data, size);
  while (!in.done()) {
    engine::ParticleRecord r;
    engine::ParticleSnapshot& p = r.particle;
    p.id = in.get<std::uint64_t>();
    p.species = in.get<std::uint16_t>();
    p.alive = in.get<std::uint8_t>();
    p.t0 = in.get<double>();
    p.u0 = in.get_vec();
    p.v = in.get_vec();
    p.counter = in.get<std::uint32_t>();
    for (int k = 0; k < 3; ++k) p.sector[static_cast<std::size_t>(k)] = in.get<std::int32_t>();
    p.ri_index = in.get<std::uint64_t>();
    p.ri_time = in.get<double>();
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
  return records;
}

}  // namespace tethersim::decomposition
