#include "tethersim/engine/sector_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "tethersim/engine/free_storage.hpp"
#include "tethersim/scenario/memory_budget.hpp"

namespace tethersim::engine {

SectorGrid::SectorGrid(const Domain& domain, double sector_size, std::uint64_t particles)
    : SectorGrid(domain, sector_size) {
  storage_ = scenario::sparse_sector_grid(count_, particles) ? Storage::sparse : Storage::dense;
  if (storage_ == Storage::dense) heads_.assign(count_, kNoIndex);
}

SectorGrid::SectorGrid(const Domain& domain, double sector_size)
    : lo_(domain.lo), length_(domain.length()), hi_(domain.hi) {
  std::uint64_t count = 1;
  for (int k = 0; k < 3; ++k) {
    shape_[k] = static_cast<std::int32_t>(std::max(1.0, std::floor(length_[k] / sector_size)));
    edge_[k] = length_[k] / shape_[k];
    // A periodic axis needs at least 3 sectors to keep its 27 neighbours
    // distinct; narrower periodic axes carry no motion (unused dimensions).
    periodic_[k] = wraps(domain.boundary[k]) && shape_[k] >= 3;
    count *= static_cast<std::uint64_t>(shape_[k]);
  }
  count_ = count;
  int bits[3];
  for (int k = 0; k < 3; ++k) {
    bits[k] = std::bit_width(static_cast<std::uint32_t>(shape_[k] - 1));
    mask_[k] = (std::uint64_t{1} << bits[k]) - 1;
  }
  shift_[1] = bits[2];
  shift_[0] = bits[2] + bits[1];
  int t = 0;
  for (std::int64_t x = -1; x <= 1; ++x) {
    for (std::int64_t y = -1; y <= 1; ++y) {
      for (std::int64_t z = -1; z <= 1; ++z) interior_offsets_[t++] = (x * shape_[1] + y) * shape_[2] + z;
    }
  }
}

SectorCoords SectorGrid::coords_of(const Vec3& x) const {
  SectorCoords c{};
  for (int k = 0; k < 3; ++k) {
    const double f = std::floor((x[k] - lo_[k]) / edge_[k]);
    c[k] = static_cast<std::int32_t>(std::clamp(f, 0.0, static_cast<double>(shape_[k] - 1)));
  }
  return c;
}

Index SectorGrid::sparse_first(std::uint32_t sector) const { return sparse_heads_.first(sector); }
Index& SectorGrid::other_head(std::uint32_t sector) {
  return storage_ == Storage::paged ? paged_heads_.head(sector) : sparse_heads_.head(sector);
}
void SectorGrid::sparse_erase(std::uint32_t sector) { sparse_heads_.erase(sector); }

void SectorGrid::clear() {
  if (storage_ == Storage::sparse) {
    sparse_heads_.clear();
  } else if (storage_ == Storage::paged) {
    paged_heads_.clear();
  } else {
    std::fill(heads_.begin(), heads_.end(), kNoIndex);
  }
}

bool SectorGrid::keep_occupied_pages() {
  if (storage_ != Storage::dense) return false;
  PagedSectorHeads paged(heads_, count_);
  if (2 * paged.pages_held() > paged.pages()) return false;
  paged_heads_ = std::move(paged);
  storage_ = Storage::paged;
  free_storage(heads_);
  return true;
}

int SectorGrid::neighbourhood(const SectorCoords& c, std::array<std::uint32_t, 27>& out,
                              std::array<Vec3, 27>& shifts) const {
  // Away from every face (most sectors of a large grid): no wrap, no
  // shift, 27 neighbours at fixed offsets, in the order of the general
  // case below. A prediction asks for this; computing it through the
  // general case's loops took 9% of a membrane sheet's run.
  if (interior(c)) {
    interior_neighbourhood(c, out);
    shifts.fill(Vec3::Zero());
    return 27;
  }
  // Neighbour coordinates per axis, wrapped (with their shift) or dropped
  // at the faces.
  std::array<std::array<std::int32_t, 3>, 3> axis{};
  std::array<std::array<double, 3>, 3> shift{};
  std::array<int, 3> count{};
  for (int k = 0; k < 3; ++k) {
    for (int d = -1; d <= 1; ++d) {
      std::int32_t n = c[k] + d;
      double s = 0.0;
      if (n < 0 || n >= shape_[k]) {
        if (!periodic_[k]) continue;
        // Crossing the face from below means the neighbour is seen one box
        // length lower, and the other way round.
        s = n < 0 ? -length_[k] : length_[k];
        n = (n + shape_[k]) % shape_[k];
      }
      axis[k][count[k]] = n;
      shift[k][count[k]] = s;
      ++count[k];
    }
  }
  int total = 0;
  for (int x = 0; x < count[0]; ++x) {
    for (int y = 0; y < count[1]; ++y) {
      for (int z = 0; z < count[2]; ++z) {
        out[total] = linear({axis[0][x], axis[1][y], axis[2][z]});
        shifts[total] = Vec3(shift[0][x], shift[1][y], shift[2][z]);
        ++total;
      }
    }
  }
  return total;
}

std::size_t SectorGrid::memory_bytes() const {
  return heads_.capacity() * sizeof(Index) + (storage_ == Storage::paged ? paged_heads_.memory_bytes() : 0) +
         (storage_ == Storage::sparse ? sparse_heads_.memory_bytes() : 0);
}

}  // namespace tethersim::engine
