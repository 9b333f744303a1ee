#include "particle_csv.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace tethersim::io_detail {

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) out.push_back(trim(cell));
  return out;
}

// Reads the data lines of a CSV file, calling row(cells, line) for each.
class CsvReader {
 public:
  CsvReader(std::string path, std::string key) : path_(std::move(path)), key_(std::move(key)) {
    in_.open(path_);
    if (!in_) throw InputError({path_, 0}, key_, "cannot open the file (does it exist?)");
  }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError({path_, line}, key_, message);
  }

  // The header's columns, by name.
  std::map<std::string, std::size_t> header() {
    std::vector<std::string> cells;
    if (!next(cells)) fail(0, "the file is empty (expected a header line)");
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (!columns.emplace(cells[i], i).second) fail(line_, "column '" + cells[i] + "' appears twice");
    }
    header_size_ = cells.size();
    return columns;
  }

  bool next(std::vector<std::string>& cells) {
    std::string text;
    while (std::getline(in_, text)) {
      ++line_;
      text = trim(text);
      if (text.empty() || text[0] == '#') continue;
      cells = split(text);
      if (header_size_ != 0 && cells.size() != header_size_) {
        fail(line_, "expected " + std::to_string(header_size_) + " columns, got " +
                        std::to_string(cells.size()));
      }
      return true;
    }
    return false;
  }

  int line() const { return line_; }

  double number(const std::string& cell, const char* column) const {
    double x = 0.0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
    if (ec != std::errc() || end != cell.data() + cell.size()) {
      fail(line_, std::string("column ") + column + ": '" + cell + "' is not a number");
    }
    return x;
  }

  ParticleId id(const std::string& cell, const char* column) const {
    ParticleId x = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
    if (ec != std::errc() || end != cell.data() + cell.size()) {
      fail(line_, std::string("column ") + column + ": '" + cell +
                      "' is not a particle id (a non-negative integer)");
    }
    return x;
  }

 private:
  std::string path_;
  std::string key_;
  std::ifstream in_;
  int line_ = 0;
  std::size_t header_size_ = 0;
};

}  // namespace

std::vector<CsvParticle> read_particle_csv(
    const std::string& path, const std::string& key,
    const std::function<SpeciesIndex(const std::string& name, int line)>& resolve_species) {
  CsvReader csv(path, key);
  const auto columns = csv.header();
  static const char* known[] = {"id", "species", "x", "y", "z", "vx", "vy", "vz"};
  for (const auto& [name, index] : columns) {
    if (std::find(std::begin(known), std::end(known), name) == std::end(known)) {
      csv.fail(csv.line(), "unknown column '" + name + "' (known: id, species, x, y, z, vx, vy, vz)");
    }
  }
  for (const char* required : {"species", "x"}) {
    if (!columns.count(required)) csv.fail(csv.line(), std::string("missing column '") + required + "'");
  }
  std::vector<CsvParticle> out;
  std::vector<std::string> cells;
  while (csv.next(cells)) {
    CsvParticle p;
    p.line = csv.line();
    p.spec.species = resolve_species(cells[columns.at("species")], csv.line());
    if (columns.count("id")) {
      p.spec.id = csv.id(cells[columns.at("id")], "id");
      p.has_id = true;
    }
    static const char* position_columns[3] = {"x", "y", "z"};
    static const char* velocity_columns[3] = {"vx", "vy", "vz"};
    for (int k = 0; k < 3; ++k) {
      if (columns.count(position_columns[k])) {
        p.spec.position[k] = csv.number(cells[columns.at(position_columns[k])], position_columns[k]);
      }
      if (columns.count(velocity_columns[k])) {
        p.spec.velocity[k] = csv.number(cells[columns.at(velocity_columns[k])], velocity_columns[k]);
      }
    }
    out.push_back(p);
  }
  // A file that names no particle is a mistake (a truncated export), not
  // a request for an empty run.
  if (out.empty()) csv.fail(csv.line(), "the file has a header but no particles");
  return out;
}

std::vector<TetherSpec> read_tether_csv(const std::string& path, const std::string& key) {
  CsvReader csv(path, key);
  const auto columns = csv.header();
  if (columns.size() != 2 || !columns.count("a") || !columns.count("b")) {
    csv.fail(csv.line(), "expected the header 'a,b'");
  }
  std::vector<TetherSpec> out;
  std::vector<std::string> cells;
  while (csv.next(cells)) {
    out.push_back({csv.id(cells[columns.at("a")], "a"), csv.id(cells[columns.at("b")], "b")});
  }
  return out;
}

}  // namespace tethersim::io_detail
