#include "tethersim/io/input_error.hpp"

namespace tethersim {

namespace {
std::string render(const SourceLocation& where, const std::string& key,
                   const std::string& message) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) out += ":" + std::to_string(where.line);
    out += ": ";
  }
  if (!key.empty()) out += key + ": ";
  out += message;
  // One line, always: fold any newline a library handed us.
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}
}  // namespace

InputError::InputError(SourceLocation where, std::string key, std::string message)
    : std::runtime_error(render(where, key, message)),
      where_(std::move(where)),
      key_(std::move(key)),
      message_(std::move(message)) {}

}  // namespace tethersim
