#pragma once
// Guards for what the TOML parser (toml11) does not check itself, or not
// with a message a user can act on (private to io/): text that is not
// UTF-8, nesting deep enough to exhaust the stack of its recursive descent,
// and numbers outside the range of their type, which it clamps silently
// (2^64 would become 2^63-1, 1e400 would become 1.8e308).

#include <string>

#include "toml_table.hpp"

namespace tethersim::io_detail {

// Far deeper than any model needs, far shallower than the stack allows.
inline constexpr int kMaxTomlNesting = 64;

// Throws InputError at the line of the first byte that is not part of
// UTF-8 text (TOML documents are UTF-8), naming the byte.
void check_toml_encoding(const std::string& text, const std::string& origin);

// `text` with every byte that is not part of UTF-8 text, and every control
// character but line breaks and tabs, written as \xHH, so that a message
// quoting it is text.
std::string printable_text(const std::string& text);

// Throws InputError at the line where arrays, inline tables or dotted keys
// nest deeper than kMaxTomlNesting. Reads the text only (strings and
// comments are skipped), so it runs before the parser.
void check_toml_nesting(const std::string& text, const std::string& origin);

// Throws InputError at the first integer or float of the document whose
// literal does not fit a 64-bit integer or a finite double. `key` names
// the document's root in messages ("" for a model file).
void check_toml_numbers(const TomlValue& value, const std::string& key);

}  // namespace tethersim::io_detail
