#include "icosphere.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tethersim::scenario {

namespace {

const int kFaces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                           {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                           {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                           {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};

std::vector<Vec3> icosahedron_vertices() {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  return {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
          {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
}

}  // namespace

Icosphere make_icosphere(int frequency) {
  const int f = frequency;
  const std::vector<Vec3> corners = icosahedron_vertices();
  std::vector<Vec3> points(corners.begin(), corners.end());

  // Points inside each icosahedron edge, created once from the canonical
  // (lower, higher) corner order so that both faces see the same bits.
  std::map<std::pair<int, int>, std::uint32_t> edge_base;
  for (const auto& face : kFaces) {
    for (int e = 0; e < 3; ++e) {
      const int u = std::min(face[e], face[(e + 1) % 3]);
      const int v = std::max(face[e], face[(e + 1) % 3]);
      if (!edge_base.emplace(std::make_pair(u, v), static_cast<std::uint32_t>(points.size()))
               .second) {
        continue;
      }
      for (int s = 1; s < f; ++s) {
        points.push_back((corners[u] * (f - s) + corners[v] * s) / f);
      }
    }
  }
  // Index of the point s steps from corner u towards corner v.
  auto on_edge = [&](int u, int v, int s) -> std::uint32_t {
    if (s == 0) return static_cast<std::uint32_t>(u);
    if (s == f) return static_cast<std::uint32_t>(v);
    if (u < v) return edge_base.at({u, v}) + static_cast<std::uint32_t>(s - 1);
    return edge_base.at({v, u}) + static_cast<std::uint32_t>(f - s - 1);
  };

  Icosphere sphere;
  for (const auto& face : kFaces) {
    const int a = face[0], b = face[1], c = face[2];
    // grid(i, j): i steps towards b, j steps towards c.
    std::vector<std::uint32_t> grid(static_cast<std::size_t>((f + 1) * (f + 1)));
    auto at = [&](int i, int j) -> std::uint32_t& {
      return grid[static_cast<std::size_t>(i * (f + 1) + j)];
    };
    for (int i = 0; i <= f; ++i) {
      for (int j = 0; i + j <= f; ++j) {
        if (j == 0) {
          at(i, j) = on_edge(a, b, i);
        } else if (i == 0) {
          at(i, j) = on_edge(a, c, j);
        } else if (i + j == f) {
          at(i, j) = on_edge(b, c, j);
        } else {
          at(i, j) = static_cast<std::uint32_t>(points.size());
          points.push_back((corners[a] * (f - i - j) + corners[b] * i + corners[c] * j) / f);
        }
      }
    }
    // Every lattice edge belongs to exactly one "up" triangle of its face.
    for (int i = 0; i < f; ++i) {
      for (int j = 0; i + j < f; ++j) {
        const std::uint32_t p = at(i, j), q = at(i + 1, j), r = at(i, j + 1);
        for (auto [x, y] : {std::make_pair(p, q), std::make_pair(p, r), std::make_pair(q, r)}) {
          sphere.edges.emplace_back(std::min(x, y), std::max(x, y));
        }
      }
    }
  }
  std::sort(sphere.edges.begin(), sphere.edges.end());
  sphere.edges.erase(std::unique(sphere.edges.begin(), sphere.edges.end()), sphere.edges.end());
  sphere.vertices.reserve(points.size());
  for (const Vec3& x : points) sphere.vertices.push_back(x.normalized());
  return sphere;
}

}  // namespace tethersim::scenario
