// Placing the planes between blocks (load_balancer.hpp).
#include "tethersim/decomposition/load_balancer.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace tethersim::decomposition {

LoadBalancer::LoadBalancer(BalanceMode mode, const GridShape& sectors, int interval, double threshold)
    : mode_(mode), sectors_(sectors), interval_(interval), threshold_(threshold) {
  for (std::size_t k = 0; k < 3; ++k) {
    work_[k].assign(static_cast<std::size_t>(sectors[k]), 0.0);
    residents_[k].assign(static_cast<std::size_t>(sectors[k]), 0.0);
  }
}

bool LoadBalancer::due() {
  if (mode_ == BalanceMode::off) return false;
  if (++windows_since_check_ < static_cast<std::uint64_t>(interval_)) return false;
  windows_since_check_ = 0;
  return true;
}

std::vector<double> LoadBalancer::take_work(double period_seconds, double move_seconds, double move_particles) {
  std::vector<double> work;
  for (auto* counts : {&work_, &residents_}) {
    for (auto& slab : *counts) {
      work.insert(work.end(), slab.begin(), slab.end());
      std::fill(slab.begin(), slab.end(), 0.0);
    }
  }
  // In the order of Scalar.
  work.push_back(std::exchange(event_seconds_, 0.0));
  work.push_back(std::exchange(tick_seconds_, 0.0));
  work.push_back(period_seconds);
  work.push_back(move_seconds);
  work.push_back(move_particles);
  return work;
}

std::vector<double> LoadBalancer::weighed(const std::vector<double>& summed) const {
  const std::size_t layers = layer_count();
  const double* changed = summed.data();
  const double* residents = changed + layers;
  const double events = scalar(summed, Scalar::event_seconds), ticks = scalar(summed, Scalar::tick_seconds);
  // Totals from the x axis (every axis counts each particle once).
  const auto x = static_cast<std::ptrdiff_t>(sectors_[0]);
  const double changed_total = std::accumulate(changed, changed + x, 0.0);
  const double resident_total = std::accumulate(residents, residents + x, 0.0);
  double per_changed = 1.0, per_resident = 0.0;
  if (events + ticks > 0.0) {
    // Windows without events still cost (their bookkeeping): with no
    // changed particle to put it on, it goes with the ticks'.
    per_changed = changed_total > 0.0 ? events / changed_total : 0.0;
    per_resident = resident_total > 0.0 ? (ticks + (changed_total > 0.0 ? 0.0 : events)) / resident_total : 0.0;
    if (per_changed == 0.0 && per_resident == 0.0) per_changed = 1.0;
  }
  std::vector<double> work(layers);
  for (std::size_t s = 0; s < layers; ++s) work[s] = changed[s] * per_changed + residents[s] * per_resident;
  return work;
}

CutPlanes LoadBalancer::planes(const CutPlanes& cuts, const GridShape& ranks, const std::vector<double>& summed,
                               const std::function<std::uint64_t()>& coin) {
  const std::vector<double> work = weighed(summed);
  // The ranks' mean time to the next check, and what a move costs per
  // particle a rank gains (the last move's seconds over its particles).
  const double rank_count = static_cast<double>(ranks[0]) * ranks[1] * ranks[2];
  const double horizon_seconds = scalar(summed, Scalar::period_seconds) / rank_count;
  const double moved_particles = scalar(summed, Scalar::move_particles);
  const double seconds_per_particle =
      moved_particles > 0.0 ? scalar(summed, Scalar::move_seconds) / moved_particles : 0.0;
  const std::size_t layers = layer_count();
  CutPlanes moved = cuts;
  std::size_t at = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const int n = sectors_[k];
    const double* w = work.data() + at;
    const double* residents = summed.data() + layers + at;
    at += static_cast<std::size_t>(n);
    if (ranks[k] == 1) continue;
    const MoveCost cost{horizon_seconds, seconds_per_particle, residents, rank_count / ranks[k]};
    place_axis(moved[k], w, n, coin, cost);
  }
  if (mode_ == BalanceMode::forced) forced_shift_ = -forced_shift_;
  return moved;
}

void LoadBalancer::place_axis(std::vector<int>& c, const double* w, int n,
                              const std::function<std::uint64_t()>& coin, const MoveCost& cost) const {
  const int parts = static_cast<int>(c.size()) - 1;
  const int min_width = n >= kMinBlockWidth * parts ? kMinBlockWidth : 1;
  // Every block at least min_width wide, inside the axis.
  auto clamp_widths = [&](std::vector<int>& cuts) {
    for (int b = 1; b < parts; ++b) {
      int& cut = cuts[static_cast<std::size_t>(b)];
      cut = std::clamp(cut, cuts[static_cast<std::size_t>(b - 1)] + min_width, n - (parts - b) * min_width);
    }
  };
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
    std::vector<int> placed = c;
    const double floor = 1e-3 * total / n;
    double sum = 0.0, grand = total + floor * n;
    int b = 1;
    for (int s = 0; s < n && b < parts; ++s) {
      sum += w[s] + floor;
      while (b < parts && sum >= grand * b / parts) placed[static_cast<std::size_t>(b++)] = s + 1;
    }
    clamp_widths(placed);
    if (cost.seconds_per_particle > 0.0) {
      // What balancing would save until the next check (the heaviest
      // slab's excess over the mean, as a share of its time), against what
      // the move costs the rank that gains most (a slab's gain shared by
      // its ranks).
      const double saved = cost.horizon_seconds * (1.0 - total / (parts * worst));
      double most = 0.0;
      for (std::size_t q = 0; q + 1 < placed.size(); ++q) {
        double gained = 0.0;
        for (int s = placed[q]; s < placed[q + 1]; ++s) {
          if (s < c[q] || s >= c[q + 1]) gained += cost.residents[s];
        }
        most = std::max(most, gained);
      }
      if (saved <= cost.seconds_per_particle * most / cost.ranks_per_slab) return;
    }
    c = placed;
    return;
  }
  clamp_widths(c);
}

}  // namespace tethersim::decomposition
