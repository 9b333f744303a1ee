#pragma once
// Reading model files (TOML, docs/model-format.md) into a validated Model.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tethersim/model/model.hpp"
#include "tethersim/io/input_error.hpp"
#include "tethersim/scenario/initial_particles.hpp"
#include "tethersim/scenario/initial_system.hpp"

namespace tethersim {

struct ModelFileOptions {
  // "key=value" overrides applied to the file before reading (--set).
  std::vector<std::string> overrides;
  // Restarts take the state from a checkpoint: skip reading the particle
  // and tether files named by [initial] (they may have moved since).
  bool skip_initial_files = false;
};

// Throws InputError (file, line, key, problem) for anything wrong: TOML
// syntax, unknown keys, wrong types, invalid values, unknown species,
// missing pairs, generator parameters, particle files, and the initial
// particles they all make together (scenario::build_initial_particles; not
// with skip_initial_files), and the counts the run would make over its
// length (scenario/run_budget.hpp: frames, samples, checkpoints, impulses).
// When `initial` is given, the built particles are handed over in it, so a
// run builds them once. When `warnings` is given, it receives one line
// ("FILE:LINE: KEY: estimate") for each large but possible count.
Model load_model_file(const std::string& path, const ModelFileOptions& options = {},
                      scenario::InitialParticles* initial = nullptr,
                      std::vector<std::string>* warnings = nullptr);

// The same from text already in memory; `path` names it in messages and
// resolves relative particle-file paths.
Model load_model_text(const std::string& text, const std::string& path,
                      const ModelFileOptions& options = {},
                      scenario::InitialParticles* initial = nullptr,
                      std::vector<std::string>* warnings = nullptr);

// A fresh start on several ranks: the initial state as a stream that each
// rank keeps its window of (scenario::InitialSystem), checked here like
// load_model_file checks it up to the overlapping pairs, which each rank
// looks for in its window (decomposition::DistributedEngine); `locate` gives
// the problem the ranks agree on its file, line and key, as the reader
// would have. `finish`, once no rank found an overlap, makes the checks one
// process makes after them (the action-potential anchors, the run size):
// it throws InputError, or returns the warnings.
struct StreamedInitial {
  std::optional<scenario::InitialSystem> system;
  scenario::InitialCounts counts;
  std::function<InputError(const ModelProblem&)> locate;
  std::function<std::vector<std::string>(const Model&)> finish;
};
Model load_model_streamed(const std::string& path, const ModelFileOptions& options, StreamedInitial& initial);

}  // namespace tethersim
