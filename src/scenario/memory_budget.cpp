#include "tethersim/scenario/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "tethersim/model/number_format.hpp"

namespace tethersim::scenario {

double sector_count(const Model& model) {
  const Vec3 length = model.domain().length();
  double count = 1.0;
  for (int k = 0; k < 3; ++k) count *= std::max(1.0, std::floor(length[k] / model.sector_size()));
  return count;
}

std::optional<ModelProblem> memory_problem(const Model& model, std::uint64_t particles,
                                           const std::string& particle_key,
                                           double available_bytes) {
  if (auto problem = particle_count_problem(particles, particle_key, available_bytes)) {
    return problem;
  }
  const auto n = static_cast<double>(particles);
  const double sectors = sector_count(model);  // at most 2^31 - 1: Model refuses more
  const bool sparse = sparse_sector_grid(static_cast<std::uint64_t>(sectors), particles);
  const double particle_bytes = n * kBytesPerParticle;
  const double sector_bytes = sparse ? n * kSparseBytesPerParticle : sectors * kBytesPerSector;
  const double needed = particle_bytes + sector_bytes;
  if (available_bytes <= 0.0 || needed <= available_bytes) return std::nullopt;
  const std::string budget = "; this machine has " + format_estimate(available_bytes) + " bytes";
  if (sector_bytes > particle_bytes) {
    return ModelProblem{"domain.sector_size",
                        "the box holds " + format_estimate(sectors) + " sectors for " + format_estimate(n) +
                            " particles, needing at least " + format_estimate(needed) + " bytes" + budget +
                            " (set a larger domain.sector_size or a smaller box)"};
  }
  return ModelProblem{particle_key, "would make " + format_estimate(n) + " particles, needing at least " +
                                        format_estimate(needed) + " bytes with the sector grid" + budget};
}

std::optional<ModelProblem> particle_count_problem(std::uint64_t particles,
                                                   const std::string& key,
                                                   double available_bytes) {
  const auto n = static_cast<double>(particles);
  if (particles > kMaxParticles) {
    return ModelProblem{key, "would make " + format_estimate(n) + " particles; at most " +
                                 std::to_string(kMaxParticles) + " fit"};
  }
  const double needed = n * kBytesPerParticle;
  if (available_bytes <= 0.0 || needed <= available_bytes) return std::nullopt;
  return ModelProblem{key, "would make " + format_estimate(n) + " particles, needing at least " +
                               format_estimate(needed) + " bytes (" +
                               std::to_string(static_cast<int>(kBytesPerParticle)) +
                               " per particle); this machine has " + format_estimate(available_bytes) +
                               " bytes"};
}

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0.0;
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

}  // namespace tethersim::scenario
