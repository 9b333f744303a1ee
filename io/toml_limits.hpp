#pragma once
// Guards for what the TOML parser (toml11) does not check itself (private
// to io/): nesting deep enough to exhaust the stack of its recursive
// descent, and numbers outside the range of their type, which it clamps
// silently (2^64 would become 2^63-1, 1e400 would become 1.8e308).

#include <string>

#include "toml_table.hpp"

namespace tethersim::io_detail {

// Far deeper than any model needs, far shallower than the stack allows.
inline constexpr int kMaxTomlNesting = 64;

// Throws InputError at the line where arrays, inline tables or dotted keys
// nest deeper than kMaxTomlNesting. Reads the text only (strings and
// comments are skipped), so it runs before the parser.
void check_toml_nesting(const std::string& text, const std::string& origin);

// Throws InputError at the first integer or float of the document whose
// literal does not fit a 64-bit integer or a finite double. `key` names
// the document's root in messages ("" for a model file).
void check_toml_numbers(const TomlValue& value, const std::string& key);

}  // namespace tethersim::io_detail
