#pragma once
// Particle records as bytes, for sending between ranks (halos, migration,
// rebalancing, gathering). Every bit of the state travels unchanged: a
// record is the particle's fields (engine/particle_bytes.hpp), the counts of
// what is attached to it, its reaction times, tether partners and loaded
// edges.

#include <cstddef>
#include <functional>
#include <vector>

#include "tethersim/decomposition/byte_buffer.hpp"
#include "tethersim/engine/snapshot.hpp"

namespace tethersim::decomposition {

void append_record(Bytes& out, const engine::ParticleRecord& record);

// Reads the records of a buffer written by append_record (in order).
// Throws std::runtime_error on a malformed buffer.
std::vector<engine::ParticleRecord> read_records(const char* data, std::size_t size);
// The same, appended to `records`.
void read_records_into(const char* data, std::size_t size, std::vector<engine::ParticleRecord>& records);
// The same, each record handed to `take` in turn (one scratch record, valid
// during the call): no vector of them all.
void read_records_each(const char* data, std::size_t size,
                       const std::function<void(const engine::ParticleRecord&)>& take);
// The most records `bytes` bytes of them can hold (each takes at least a
// fixed part).
std::size_t most_records_in(std::size_t bytes);

// One loaded edge, as a record carries it (also sent bare, as a link).
void append_loaded_edge(Bytes& out, const engine::LoadedEdgeSnapshot& edge);
engine::LoadedEdgeSnapshot read_loaded_edge(ByteReader& in);

// Bytes one record takes.
std::size_t record_size(const engine::ParticleRecord& record);

}  // namespace tethersim::decomposition
