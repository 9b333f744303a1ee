#pragma once
// The end of a run: summary.json and the table printed on the terminal.

#include <cstdio>
#include <string>

#include "observables.hpp"

namespace tethersim::app {

struct RunTotals {
  double start_time = 0.0;
  double end_time = 0.0;
  double wall_seconds = 0.0;
  int ranks = 1;
  ObservableSample initial;
  ObservableSample final;
  std::size_t peak_resident_bytes = 0;
  std::size_t baseline_resident_bytes = 0;
};

std::string summary_json(const Model& model, const engine::Engine& engine, const RunTotals& totals);
void print_summary(std::FILE* out, const Model& model, const engine::Engine& engine,
                   const RunTotals& totals);

// Writes a file completely under a temporary name, then renames it: a
// reader never sees half a file, and a failure leaves the old one intact.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace tethersim::app
