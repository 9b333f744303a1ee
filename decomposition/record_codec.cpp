#include "tethersim/decomposition/record_codec.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "tethersim/engine/particle_bytes.hpp"

namespace tethersim::decomposition {

namespace {

void put_vec(Bytes& out, const Vec3& v) {
  for (int k = 0; k < 3; ++k) put(out, v[k]);
}

Vec3 get_vec(ByteReader& in) {
  Vec3 v;
  for (int k = 0; k < 3; ++k) v[k] = in.get<double>();
  return v;
}

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
  reserve_for(out, record_size(r));
  const std::size_t at = out.size();
  out.resize(at + engine::kParticleBytes);
  engine::write_particle_bytes(r.particle, out.data() + at);
  put<std::uint16_t>(out, static_cast<std::uint16_t>(r.reaction_times.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.tethers.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.loaded_edges.size()));
  for (double phi : r.reaction_times) put<double>(out, phi);
  for (ParticleId t : r.tethers) put<std::uint64_t>(out, t);
  for (const engine::LoadedEdgeSnapshot& e : r.loaded_edges) append_loaded_edge(out, e);
}

void append_loaded_edge(Bytes& out, const engine::LoadedEdgeSnapshot& e) {
  put<std::uint64_t>(out, e.a);
  put<std::uint64_t>(out, e.b);
  put_vec(out, e.impulse);
  put<double>(out, e.time);
  put<std::uint64_t>(out, e.sequence);
}

engine::LoadedEdgeSnapshot read_loaded_edge(ByteReader& in) {
  engine::LoadedEdgeSnapshot e;
  e.a = in.get<std::uint64_t>();
  e.b = in.get<std::uint64_t>();
  e.impulse = get_vec(in);
  e.time = in.get<double>();
  e.sequence = in.get<std::uint64_t>();
  return e;
}

std::size_t most_records_in(std::size_t bytes) { return bytes / kFixedBytes; }

std::vector<engine::ParticleRecord> read_records(const char* data, std::size_t size) {
  std::vector<engine::ParticleRecord> records;
  read_records_into(data, size, records);
  return records;
}

namespace {

// Reads the next record of `in` into `r` (its lists emptied first, their
// storage kept).
void read_record(ByteReader& in, engine::ParticleRecord& r) {
  engine::read_particle_bytes(in.take(engine::kParticleBytes), r.particle);
  const auto phis = in.get<std::uint16_t>();
  const auto tethers = in.get<std::uint32_t>();
  const auto edges = in.get<std::uint32_t>();
  r.reaction_times.clear();
  r.tethers.clear();
  r.loaded_edges.clear();
  for (std::uint16_t k = 0; k < phis; ++k) r.reaction_times.push_back(in.get<double>());
  for (std::uint32_t k = 0; k < tethers; ++k) r.tethers.push_back(in.get<std::uint64_t>());
  for (std::uint32_t k = 0; k < edges; ++k) r.loaded_edges.push_back(read_loaded_edge(in));
}

}  // namespace

void read_records_into(const char* data, std::size_t size, std::vector<engine::ParticleRecord>& records) {
  ByteReader in(data, size, "particle record");
  while (!in.done()) {
    engine::ParticleRecord r;
    read_record(in, r);
    records.push_back(std::move(r));
  }
}

void read_records_each(const char* data, std::size_t size,
                       const std::function<void(const engine::ParticleRecord&)>& take) {
  ByteReader in(data, size, "particle record");
  engine::ParticleRecord r;
  while (!in.done()) {
    read_record(in, r);
    take(r);
  }
}

}  // namespace tethersim::decomposition
