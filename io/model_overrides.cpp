// --set key.path=value: edits the TOML document before it is read.
#include <charconv>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "model_reading.hpp"
#include "toml_limits.hpp"

namespace tethersim::io_detail {

namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream in(path);
  std::string part;
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The element of an array of tables picked by index, by name (species) or
// by "A-B" (pairs, either order).
TomlValue* select_element(TomlValue& array, const std::string& selector) {
  auto& items = array.as_array();
  if (is_index(selector)) {
    // An index too large for size_t selects nothing, like any index past the end.
    std::size_t i = 0;
    const auto [end, ec] = std::from_chars(selector.data(), selector.data() + selector.size(), i);
    return ec == std::errc() && i < items.size() ? &items[i] : nullptr;
  }
  for (TomlValue& item : items) {
    if (!item.is_table()) continue;
    const auto& t = item.as_table();
    if (auto it = t.find("name"); it != t.end() && it->second.is_string() &&
                                  it->second.as_string().str == selector) {
      return &item;
    }
    if (auto it = t.find("species"); it != t.end() && it->second.is_array() &&
                                     it->second.as_array().size() == 2) {
      const auto& s = it->second.as_array();
      if (!s[0].is_string() || !s[1].is_string()) continue;
      const std::string a = s[0].as_string().str, b = s[1].as_string().str;
      if (selector == a + "-" + b || selector == b + "-" + a) return &item;
    }
  }
  return nullptr;
}

// `text` as a TOML basic string: quotes, backslashes and control
// characters escaped (the text is UTF-8, checked before).
std::string quoted_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(byte));
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

// The document "value = TEXT", or nothing when that is not TOML with the
// one key `value` (text such as "1\nother = 2" would smuggle in a second).
std::optional<TomlValue> parse_as_toml(const std::string& text, const std::string& origin) {
  try {
    std::istringstream in("value = " + text + "\n");
    const TomlValue document = parse_toml(in, origin);
    if (document.as_table().size() != 1) return std::nullopt;
    return toml::find(document, "value");
  } catch (const toml::exception&) {
    return std::nullopt;
  } catch (const std::out_of_range&) {  // toml::find without the key
    return std::nullopt;
  }
}

// The value text as TOML, or as a bare string when it is not valid TOML
// (so --set initial.generator=presynaptic needs no quotes).
TomlValue parse_value(const std::string& text, const std::string& origin, const std::string& key) {
  check_toml_nesting(text, origin);
  if (std::optional<TomlValue> value = parse_as_toml(text, origin)) return *value;
  if (std::optional<TomlValue> value = parse_as_toml(quoted_string(text), origin)) return *value;
  // Not reached for UTF-8 text; a parser failure is still the override's.
  throw InputError({origin, 0}, key, "the value is neither TOML nor a plain string");
}

}  // namespace

void apply_override(TomlValue& root, const std::string& assignment) {
  // The override as one printable line: it names every message about it.
  const std::string origin = "--set " + printable_text(assignment);
  check_toml_encoding(assignment, origin);
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError({origin, 0}, "", "expected key=value, e.g. --set run.end_time=100");
  }
  const std::string path = assignment.substr(0, eq);
  const std::vector<std::string> parts = split_path(path);
  TomlValue* node = &root;
  // The path of `node`: problems with `part` are reported against its parent.
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (node->is_array()) {
      TomlValue* next = select_element(*node, part);
      if (next == nullptr) {
        throw InputError({origin, 0}, walked, "no element '" + part +
                                                  "' (use an index, a species name or a pair "
                                                  "like A-B)");
      }
      node = next;
    } else {
      if (!node->is_table()) {
        throw InputError({origin, 0}, walked, "is not a table, so it has no key '" + part + "'");
      }
      auto& table = node->as_table();
      if (!table.count(part)) table[part] = parse_value("{}", origin, walked);
      node = &table[part];
    }
    walked += (walked.empty() ? "" : ".") + part;
  }
  if (node->is_array()) {
    throw InputError({origin, 0}, path, "select one element of the array first (e.g. species.V.mass)");
  }
  if (!node->is_table()) throw InputError({origin, 0}, path, "the parent is not a table");
  node->as_table()[parts.back()] = parse_value(assignment.substr(eq + 1), origin, path);
}

}  // namespace tethersim::io_detail
