// Placing the planes between blocks (load_balancer.hpp).
#include "tethersim/decomposition/load_balancer.hpp"

#include <algorithm>
#include <numeric>

namespace tethersim::decomposition {

LoadBalancer::LoadBalancer(BalanceMode mode, const GridShape& sectors, int interval, double threshold)
    : mode_(mode), sectors_(sectors), interval_(interval), threshold_(threshold) {
  for (std::size_t k = 0; k < 3; ++k) work_[k].assign(static_cast<std::size_t>(sectors[k]), 0.0);
}

bool LoadBalancer::due() {
  if (mode_ == BalanceMode::off) return false;
  if (++windows_since_check_ < static_cast<std::uint64_t>(interval_)) return false;
  windows_since_check_ = 0;
  return true;
}

std::vector<double> LoadBalancer::take_work() {
  std::vector<double> work;
  for (const auto& slab : work_) work.insert(work.end(), slab.begin(), slab.end());
  for (auto& slab : work_) std::fill(slab.begin(), slab.end(), 0.0);
  return work;
}

CutPlanes LoadBalancer::planes(const CutPlanes& cuts, const GridShape& ranks, const std::vector<double>& work,
                               const std::function<std::uint64_t()>& coin) {
  CutPlanes moved = cuts;
  std::size_t at = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const int n = sectors_[k];
    const double* w = work.data() + at;
    at += static_cast<std::size_t>(n);
    if (ranks[k] == 1) continue;
    place_axis(moved[k], w, n, coin);
  }
  if (mode_ == BalanceMode::forced) forced_shift_ = -forced_shift_;
  return moved;
}

void LoadBalancer::place_axis(std::vector<int>& c, const double* w, int n,
                              const std::function<std::uint64_t()>& coin) const {
  const int parts = static_cast<int>(c.size()) - 1;
  const int min_width = n >= kMinBlockWidth * parts ? kMinBlockWidth : 1;
  if (mode_ == BalanceMode::forced) {
    // Planes move one layer back and forth: migration and rebuilding are
    // exercised whatever the load (tests).
    for (int b = 1; b < parts; ++b) c[static_cast<std::size_t>(b)] += forced_shift_;
  } else if (mode_ == BalanceMode::random) {
    // Anywhere the widths allow (clamped below): results must not care.
    for (int b = 1; b < parts; ++b) {
      c[static_cast<std::size_t>(b)] = static_cast<int>(coin() % static_cast<std::uint64_t>(n + 1));
    }
    std::sort(c.begin() + 1, c.end() - 1);
  } else {
    // Imbalance along this axis: the heaviest slab of blocks over the mean.
    std::vector<double> slab(static_cast<std::size_t>(parts), 0.0);
    for (int s = 0; s < n; ++s) {
      slab[static_cast<std::size_t>(std::upper_bound(c.begin(), c.end(), s) - c.begin() - 1)] += w[s];
    }
    const double total = std::accumulate(slab.begin(), slab.end(), 0.0);
    if (total <= 0.0) return;
    const double worst = *std::max_element(slab.begin(), slab.end());
    if (worst * parts <= threshold_ * total) return;
    // Cut where the cumulative work reaches each equal share (a little
    // work per layer keeps empty regions from collapsing).
    const double floor = 1e-3 * total / n;
    double sum = 0.0, grand = total + floor * n;
    int b = 1;
    for (int s = 0; s < n && b < parts; ++s) {
      sum += w[s] + floor;
      while (b < parts && sum >= grand * b / parts) c[static_cast<std::size_t>(b++)] = s + 1;
    }
  }
  // Keep every block at least min_width wide, inside the axis.
  for (int b = 1; b < parts; ++b) {
    int& cut = c[static_cast<std::size_t>(b)];
    cut = std::clamp(cut, c[static_cast<std::size_t>(b - 1)] + min_width, n - (parts - b) * min_width);
  }
}

}  // namespace tethersim::decomposition
