#pragma once
// Reading TOML tables with key tracking (private to io/): every value read
// is recorded with its source line, and keys nobody asked for are reported
// as unknown, with a suggestion.

#include <istream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <toml.hpp>

#include "tethersim/io/input_error.hpp"
#include "tethersim/physics/vector.hpp"

namespace tethersim::io_detail {

using TomlValue = toml::value;

// Where each dotted key came from; lookups fall back to the closest
// recorded parent ("pair.V-S.blocking" -> "pair.V-S" -> "pair").
class SourceMap {
 public:
  explicit SourceMap(std::string file) : file_(std::move(file)) {}
  void record(const std::string& key, SourceLocation where) { entries_[key] = std::move(where); }
  SourceLocation find(std::string key) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::map<std::string, SourceLocation> entries_;
};

// The TOML document read from `in` (`name` names it in messages); throws
// toml::exception. Every reader parses through this one function, so that
// the parser's templates are compiled once, not in each file that reads.
TomlValue parse_toml(std::istream& in, const std::string& name);

SourceLocation location_of(const TomlValue& value);
const char* type_name(const TomlValue& value);

// Number from an integer, a float, or the strings "inf" / "infinity".
std::optional<double> as_number(const TomlValue& value);

class TableReader {
 public:
  TableReader(const TomlValue& table, std::string key, SourceMap& sources);

  const std::string& key() const { return key_; }
  // Renames the table in messages (e.g. "species.0" -> "species.V").
  void rekey(std::string key);
  bool has(const std::string& name) const;
  SourceLocation where(const std::string& name) const;

  [[noreturn]] void fail(const std::string& name, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const;
  // Before reporting a required key or table `name` as missing: a key of
  // this table nobody asked for that is close to it is a misspelling of
  // it, reported as unknown with "did you mean 'name'?". Returns otherwise.
  void refuse_misspelling_of(const std::string& name) const;

  double number(const std::string& name, double fallback);
  double required_number(const std::string& name);
  std::int64_t integer(const std::string& name, std::int64_t fallback);
  std::string text(const std::string& name, const std::string& fallback);
  std::string required_text(const std::string& name);
  bool flag(const std::string& name, bool fallback);
  // An array of `dimensions` or 3 numbers; missing components are 0.
  Vec3 vector(const std::string& name, const Vec3& fallback, int dimensions);
  std::optional<Vec3> optional_vector(const std::string& name, int dimensions);
  // A string or an array of strings.
  std::vector<std::string> text_list(const std::string& name);
  std::optional<TableReader> table(const std::string& name);
  std::vector<TableReader> tables(const std::string& name);
  // The raw value (marked as read), or nullptr.
  const TomlValue* raw(const std::string& name);
  std::vector<std::string> keys() const;

  // Reports the first key nobody asked for.
  void finish() const;

 private:
  const TomlValue* find(const std::string& name) const;
  const TomlValue& use(const std::string& name);
  [[noreturn]] void fail_unknown(const std::string& name, const std::string& suggestion) const;

  const TomlValue* table_;
  std::string key_;
  SourceMap* sources_;
  std::set<std::string> asked_;
};

// The closest candidate by edit distance (empty when none is close).
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tethersim::io_detail
