#pragma once
// Whether a run's particles and sector grid can fit in memory, decided from
// counts before anything is allocated: a parameter meaning billions of
// particles, or particles and a grid beyond the machine's memory, is refused
// with what it would need instead of growing until the machine runs out. A
// mostly empty box is not refused: its grid keeps occupied sectors only.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "tethersim/model/model.hpp"

namespace tethersim::scenario {

// What one particle costs at least: the hard-sphere benchmark's engine
// holds about 150 bytes per particle and peaks near 270 (runs with output,
// tethers or several ranks need more). A lower bound, so that only what
// cannot possibly fit is refused.
inline constexpr double kBytesPerParticle = 256.0;
// What one sector of a dense grid costs: the head of its particle list.
inline constexpr double kBytesPerSector = 4.0;
// A grid with more sectors than both of these allow (2^20, and 64 per
// particle: a dense gas has about one sector per 4 particles) keeps list
// heads for occupied sectors only (engine::SectorGrid), at most this much
// per particle: a mostly empty box costs memory by its particles, not its
// volume.
inline constexpr std::uint64_t kDenseSectorFloor = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kDenseSectorsPerParticle = 64;
inline constexpr double kSparseBytesPerParticle = 16.0;
// Whether a grid of `sectors` holding `particles` keeps only occupied sectors.
inline bool sparse_sector_grid(std::uint64_t sectors, std::uint64_t particles) {
  return sectors > kDenseSectorFloor && sectors / kDenseSectorsPerParticle > std::max<std::uint64_t>(particles, 1);
}
// Particles are numbered with 32-bit indices, one value kept as "none".
inline constexpr std::uint64_t kMaxParticles = 0xfffffffeULL;

// The sectors of the model's grid (every axis, at least one each).
double sector_count(const Model& model);

// Empty when `particles` particles can be numbered and fit in
// `available_bytes` (0: unknown), else the problem, under `key`. Needs only
// the count: the reader checks it before building the model, whose box a
// generator may derive from the same oversized parameters.
std::optional<ModelProblem> particle_count_problem(std::uint64_t particles,
                                                   const std::string& key,
                                                   double available_bytes);

// Empty when `particles` particles in the model's grid fit in
// `available_bytes` (0: unknown) and the grid is not mostly empty, else the
// problem: the key it concerns
// (`particle_key` or domain.sector_size, whichever needs the memory) and a
// message with the bytes needed.
std::optional<ModelProblem> memory_problem(const Model& model, std::uint64_t particles,
                                           const std::string& particle_key,
                                           double available_bytes);

// The machine's physical memory in bytes (0 when unknown).
double physical_memory_bytes();

}  // namespace tethersim::scenario
