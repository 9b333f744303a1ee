#pragma once
// What a run writes and how often.

#include <array>
#include <string>
#include <vector>

#include "tethersim/physics/vector.hpp"

namespace tethersim {

struct OutputSettings {
  std::string directory = "tethersim-output";
  double frame_interval = kInfinity;       // simulated time between trajectory frames
  std::vector<std::string> frame_fields{"position", "velocity", "species", "id", "tethers"};
  // How much a frame costs on disk (checkpoints are never reduced: they
  // must restart exactly). Single precision stores positions and velocities
  // as 32-bit floats (about 7 significant digits, half the bytes);
  // compression is the deflate level (0 = none, 1-9) of the frame datasets,
  // with the shuffle filter before it; frame_species keeps only particles of
  // these species in frames (empty: every particle), the observables still
  // count every particle.
  bool frame_single_precision = false;
  int frame_compression = 0;
  std::vector<std::string> frame_species;
  double observables_interval = kInfinity; // simulated time between observable samples
  double checkpoint_interval = kInfinity;  // simulated time between checkpoints
  double checkpoint_wall_minutes = 0.0;    // 0 = no wall-clock checkpoints
  double progress_seconds = 10.0;          // wall seconds between progress lines
  // Observables beyond energy and momentum: clusters of these species
  // (connected through tethers, hubs excluded), and particles of the first
  // species of each pair tethered to one of the second (docked vesicles).
  std::vector<std::string> cluster_species;
  std::vector<std::array<std::string, 2>> tethered_pairs;
};

}  // namespace tethersim
