#pragma once
// The model-file reader's sections (private to io/). Each reads one part of
// the TOML document into ModelData, recording source lines as it goes.

#include <map>
#include <string>

#include "tethersim/io/model_file.hpp"
#include "toml_table.hpp"

namespace tethersim::io_detail {

struct ReadContext {
  explicit ReadContext(const std::string& file) : sources(file) {}

  SourceMap sources;
  std::string base_directory;  // for relative particle/tether file paths
  ModelFileOptions options;
  ModelData data;
  std::map<std::string, SpeciesIndex> species_by_name;

  // The species a value names, or an "unknown species" error at that value.
  SpeciesIndex species(const TableReader& table, const std::string& key,
                       const std::string& name) const;
};

void read_globals(TableReader& root, ReadContext& ctx);       // [model] [run] [physics]
void read_species(TableReader& root, ReadContext& ctx);       // [[species]]
void read_pairs(TableReader& root, ReadContext& ctx);         // [[pair]] [pair_defaults]
void read_external(TableReader& root, ReadContext& ctx);      // [[external]]
// A [[species]]' thermostat: its random impulses and drag settings derived.
void read_thermostat(TableReader& species_table, Species& s, const ReadContext& ctx);
// The drag of every thermostat, after the file's [[external]] (which must
// not drag a thermostat's species).
void add_thermostat_drags(ReadContext& ctx);
void read_action_potential(TableReader& root, ReadContext& ctx);  // [action_potential]
void read_rules(TableReader& root, ReadContext& ctx);         // [[attach]] [[detach]]
void read_initial(TableReader& root, ReadContext& ctx);       // [initial]
void read_domain(TableReader& root, ReadContext& ctx);        // [domain] (after [initial])
void read_output(TableReader& root, ReadContext& ctx);        // [output]

// Applies one "key.path=value" override to the document.
void apply_override(TomlValue& root, const std::string& assignment);

// "pi/16", "3*pi/32", "pi", or a plain number of radians.
std::optional<double> parse_angle(const TomlValue& value);

}  // namespace tethersim::io_detail
