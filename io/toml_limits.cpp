#include "toml_limits.hpp"

#include <cerrno>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace tethersim::io_detail {

namespace {

// Steps over one string starting at text[i] (a quote), counting the lines it
// spans; returns the index just past its closing quote.
std::size_t skip_string(const std::string& text, std::size_t i, int& line) {
  const char quote = text[i];
  const bool multi = text.compare(i, 3, std::string(3, quote)) == 0;
  const bool escapes = quote == '"';
  i += multi ? 3 : 1;
  while (i < text.size()) {
    const char c = text[i];
    if (escapes && c == '\\') {
      i += 2;
      continue;
    }
    if (c == '\n') {
      ++line;
      if (!multi) return i;  // an unterminated string: the parser reports it
    }
    if (c == quote && (!multi || text.compare(i, 3, std::string(3, quote)) == 0)) {
      return i + (multi ? 3 : 1);
    }
    ++i;
  }
  return i;
}

// An override is one line of its own: its origin says which, and no line
// number is given for it.
int line_in(const std::string& origin, int line) { return origin.rfind("--set ", 0) == 0 ? 0 : line; }

[[noreturn]] void too_deep(const std::string& origin, int line) {
  throw InputError({origin, line_in(origin, line)}, "",
                   "TOML nested more than " + std::to_string(kMaxTomlNesting) +
                       " levels deep (arrays, inline tables or dotted keys)");
}

// The literal text of a value as written (toml11 keeps its region).
std::string literal_of(const TomlValue& value) {
  const toml::source_location loc = value.location();
  const std::string& line = loc.line_str();
  const std::size_t start = loc.column() > 0 ? loc.column() - 1 : 0;
  if (start >= line.size()) return {};
  std::string token = line.substr(start, loc.region());
  std::erase(token, '_');
  return token;
}

bool integer_fits(std::string token) {
  if (!token.empty() && token[0] == '+') token.erase(0, 1);
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && std::isalpha(static_cast<unsigned char>(token[1]))) {
    base = token[1] == 'x' ? 16 : token[1] == 'o' ? 8 : 2;
    token.erase(0, 2);
  }
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), x, base);
  return ec != std::errc::result_out_of_range;
}

// Empty when the literal is a finite double (or inf/nan, which TOML spells
// out), else what is wrong with it.
std::string float_problem(const std::string& token) {
  if (token.find_first_of("in") != std::string::npos) return {};  // inf, nan
  errno = 0;
  const double x = std::strtod(token.c_str(), nullptr);
  if (errno != ERANGE) return {};
  if (std::isinf(x)) return "is too large for a double (at most about 1.8e308)";
  if (x == 0.0 && token.find_first_of("123456789") < token.find_first_of("eE")) {
    return "is too small for a double (nonzero, but below about 4.9e-324)";
  }
  return {};
}

// The length of the UTF-8 sequence starting at text[i] (1 to 4), or 0 when
// the bytes there are not one: a stray continuation byte, a truncated
// sequence, an overlong form, a surrogate or a code point beyond U+10FFFF.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // overlong
    if (lead == 0xed) high = 0x9f;  // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // overlong
    if (lead == 0xf4) high = 0x8f;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return length;
}

std::string hex_byte(unsigned char c) {
  static const char* digits = "0123456789ABCDEF";
  return std::string("\\x") + digits[c >> 4] + digits[c & 15];
}

}  // namespace

void check_toml_encoding(const std::string& text, const std::string& origin) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_length(text, i);
    if (length == 0) {
      throw InputError({origin, line_in(origin, line)}, "",
                       "byte " + hex_byte(static_cast<unsigned char>(text[i])) + " at column " +
                           std::to_string(i - line_start + 1) +
                           " is not UTF-8 text, which TOML must be");
    }
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += length;
  }
}

std::string printable_text(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_length(text, i);
    const auto byte = static_cast<unsigned char>(text[i]);
    // Control characters too, but for the line breaks and tabs a message
    // folds into spaces anyway.
    const bool control =
        (byte < 0x20 && text[i] != '\n' && text[i] != '\r' && text[i] != '\t') || byte == 0x7f;
    if (length == 0 || control) {
      out += hex_byte(static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

void check_toml_nesting(const std::string& text, const std::string& origin) {
  int line = 1;
  int depth = 0;
  // Dotted keys nest tables too (a.b.c = 1). A dot counts as one unless it
  // is the first of its token and stands between digits (a float).
  int key_dots = 0;         // on this line
  int dots_in_token = 0;
  auto digit = [&](std::size_t j) {
    return j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]));
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '.') {
      const bool in_float = dots_in_token == 0 && i > 0 && digit(i - 1) && digit(i + 1);
      ++dots_in_token;
      if (!in_float && ++key_dots > kMaxTomlNesting) too_deep(origin, line);
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '=' || c == '[' ||
        c == ']' || c == '{' || c == '}') {
      dots_in_token = 0;
    }
    if (c == '"' || c == '\'') {
      i = skip_string(text, i, line);
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      ++line;
      key_dots = 0;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxTomlNesting) too_deep(origin, line);
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
    ++i;
  }
}

void check_toml_numbers(const TomlValue& value, const std::string& key) {
  if (value.is_table()) {
    for (const auto& [name, item] : value.as_table()) {
      check_toml_numbers(item, key.empty() ? name : key + "." + name);
    }
  } else if (value.is_array()) {
    const auto& items = value.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      check_toml_numbers(items[i], key + "." + std::to_string(i));
    }
  } else if (value.is_integer()) {
    const std::string token = literal_of(value);
    if (!integer_fits(token)) {
      throw InputError(location_of(value), key,
                       token + " does not fit a 64-bit integer (at most 9223372036854775807)");
    }
  } else if (value.is_floating()) {
    const std::string token = literal_of(value);
    const std::string problem = float_problem(token);
    if (!problem.empty()) throw InputError(location_of(value), key, token + " " + problem);
  }
}

}  // namespace tethersim::io_detail
