#include "toml_table.hpp"

#include <algorithm>
#include <cmath>

namespace tethersim::io_detail {

SourceLocation SourceMap::find(std::string key) const {
  for (;;) {
    const auto it = entries_.find(key);
    if (it != entries_.end()) return it->second;
    const auto dot = key.rfind('.');
    if (dot == std::string::npos) return {file_, 0};
    key.resize(dot);
  }
}

TomlValue parse_toml(std::istream& in, const std::string& name) { return toml::parse(in, name); }

SourceLocation location_of(const TomlValue& value) {
  const toml::source_location loc = value.location();
  SourceLocation where;
  where.file = loc.file_name();
  // Values from a --set override have no useful line number.
  where.line = where.file.rfind("--set ", 0) == 0 ? 0 : static_cast<int>(loc.line());
  return where;
}

const char* type_name(const TomlValue& value) {
  switch (value.type()) {
    case toml::value_t::empty: return "nothing";
    case toml::value_t::boolean: return "a boolean";
    case toml::value_t::integer: return "an integer";
    case toml::value_t::floating: return "a number";
    case toml::value_t::string: return "a string";
    case toml::value_t::offset_datetime:
    case toml::value_t::local_datetime:
    case toml::value_t::local_date:
    case toml::value_t::local_time: return "a date/time";
    case toml::value_t::array: return "an array";
    case toml::value_t::table: return "a table";
  }
  return "an unknown value";
}

std::optional<double> as_number(const TomlValue& value) {
  if (value.is_integer()) return static_cast<double>(value.as_integer());
  if (value.is_floating()) return value.as_floating();
  if (value.is_string()) {
    std::string s = value.as_string().str;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "inf" || s == "infinity" || s == "+inf") return kInfinity;
  }
  return std::nullopt;
}

TableReader::TableReader(const TomlValue& table, std::string key, SourceMap& sources)
    : table_(&table), key_(std::move(key)), sources_(&sources) {
  sources_->record(key_, location_of(table));
  if (!table.is_table()) fail_here(std::string("expected a table, got ") + type_name(table));
}

void TableReader::rekey(std::string key) {
  key_ = std::move(key);
  sources_->record(key_, location_of(*table_));
}

const TomlValue* TableReader::find(const std::string& name) const {
  const auto& t = table_->as_table();
  const auto it = t.find(name);
  return it == t.end() ? nullptr : &it->second;
}

bool TableReader::has(const std::string& name) const { return find(name) != nullptr; }

SourceLocation TableReader::where(const std::string& name) const {
  const TomlValue* v = find(name);
  return v ? location_of(*v) : location_of(*table_);
}

void TableReader::fail(const std::string& name, const std::string& message) const {
  throw InputError(where(name), key_.empty() ? name : key_ + "." + name, message);
}

void TableReader::fail_here(const std::string& message) const {
  throw InputError(location_of(*table_), key_, message);
}

const TomlValue& TableReader::use(const std::string& name) {
  asked_.insert(name);
  const TomlValue* v = find(name);
  sources_->record(key_.empty() ? name : key_ + "." + name, location_of(*v));
  return *v;
}

double TableReader::number(const std::string& name, double fallback) {
  asked_.insert(name);
  if (!has(name)) return fallback;
  const std::optional<double> x = as_number(use(name));
  if (!x) fail(name, std::string("expected a number (or inf), got ") + type_name(*find(name)));
  return *x;
}

double TableReader::required_number(const std::string& name) {
  asked_.insert(name);
  if (!has(name)) {
    refuse_misspelling_of(name);
    fail_here("missing required key '" + name + "'");
  }
  return number(name, 0.0);
}

std::int64_t TableReader::integer(const std::string& name, std::int64_t fallback) {
  asked_.insert(name);
  if (!has(name)) return fallback;
  const TomlValue& v = use(name);
  if (!v.is_integer()) fail(name, std::string("expected an integer, got ") + type_name(v));
  return v.as_integer();
}

std::string TableReader::text(const std::string& name, const std::string& fallback) {
  asked_.insert(name);
  if (!has(name)) return fallback;
  const TomlValue& v = use(name);
  if (!v.is_string()) fail(name, std::string("expected a string, got ") + type_name(v));
  return v.as_string().str;
}

std::string TableReader::required_text(const std::string& name) {
  asked_.insert(name);
  if (!has(name)) {
    refuse_misspelling_of(name);
    fail_here("missing required key '" + name + "'");
  }
  return text(name, "");
}

bool TableReader::flag(const std::string& name, bool fallback) {
  asked_.insert(name);
  if (!has(name)) return fallback;
  const TomlValue& v = use(name);
  if (!v.is_boolean()) fail(name, std::string("expected true or false, got ") + type_name(v));
  return v.as_boolean();
}

std::optional<Vec3> TableReader::optional_vector(const std::string& name, int dimensions) {
  asked_.insert(name);
  if (!has(name)) return std::nullopt;
  const TomlValue& v = use(name);
  const std::string expected = "expected an array of " + std::to_string(dimensions) +
                               (dimensions == 3 ? "" : " or 3") + " numbers";
  if (!v.is_array()) fail(name, expected + ", got " + type_name(v));
  const auto& items = v.as_array();
  if (items.size() != static_cast<std::size_t>(dimensions) && items.size() != 3) {
    fail(name, expected + ", got " + std::to_string(items.size()));
  }
  Vec3 out = Vec3::Zero();
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::optional<double> x = as_number(items[k]);
    if (!x) fail(name, expected + ", got " + type_name(items[k]) + " in it");
    out[static_cast<int>(k)] = *x;
  }
  return out;
}

Vec3 TableReader::vector(const std::string& name, const Vec3& fallback, int dimensions) {
  return optional_vector(name, dimensions).value_or(fallback);
}

std::vector<std::string> TableReader::text_list(const std::string& name) {
  asked_.insert(name);
  if (!has(name)) return {};
  const TomlValue& v = use(name);
  if (v.is_string()) return {v.as_string().str};
  if (!v.is_array()) fail(name, std::string("expected a string or an array of strings, got ") +
                                    type_name(v));
  std::vector<std::string> out;
  for (const TomlValue& item : v.as_array()) {
    if (!item.is_string()) {
      fail(name, std::string("expected an array of strings, got ") + type_name(item) + " in it");
    }
    out.push_back(item.as_string().str);
  }
  return out;
}

std::optional<TableReader> TableReader::table(const std::string& name) {
  asked_.insert(name);
  if (!has(name)) return std::nullopt;
  const TomlValue& v = use(name);
  if (!v.is_table()) fail(name, std::string("expected a table, got ") + type_name(v));
  return TableReader(v, key_.empty() ? name : key_ + "." + name, *sources_);
}

std::vector<TableReader> TableReader::tables(const std::string& name) {
  asked_.insert(name);
  if (!has(name)) return {};
  const TomlValue& v = use(name);
  const std::string key = key_.empty() ? name : key_ + "." + name;
  if (v.is_table()) return {TableReader(v, key, *sources_)};
  if (!v.is_array()) fail(name, std::string("expected [[") + name + "]] tables, got " + type_name(v));
  std::vector<TableReader> out;
  const auto& items = v.as_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_table()) {
      fail(name, std::string("expected [[") + name + "]] tables, got " + type_name(items[i]));
    }
    out.emplace_back(items[i], key + "." + std::to_string(i), *sources_);
  }
  return out;
}

const TomlValue* TableReader::raw(const std::string& name) {
  asked_.insert(name);
  return has(name) ? &use(name) : nullptr;
}

std::vector<std::string> TableReader::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : table_->as_table()) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

void TableReader::fail_unknown(const std::string& name, const std::string& suggestion) const {
  const std::string where_text = key_.empty() ? "at the top level" : "in [" + key_ + "]";
  throw InputError(location_of(*find(name)), key_.empty() ? name : key_ + "." + name,
                   "unknown key '" + name + "' " + where_text +
                       (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)"));
}

void TableReader::refuse_misspelling_of(const std::string& name) const {
  for (const std::string& k : keys()) {
    if (!asked_.count(k) && !closest_name(k, {name}).empty()) fail_unknown(k, name);
  }
}

void TableReader::finish() const {
  for (const std::string& k : keys()) {
    if (asked_.count(k)) continue;
    fail_unknown(k, closest_name(k, std::vector<std::string>(asked_.begin(), asked_.end())));
  }
}

}  // namespace tethersim::io_detail
