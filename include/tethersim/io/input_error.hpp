#pragma once
// A problem with something the user gave us (model file, --set override,
// particle file, checkpoint): one line naming where and what.

#include <stdexcept>
#include <string>

namespace tethersim {

struct SourceLocation {
  std::string file;  // a path, or "--set key=value" for an override
  int line = 0;      // 0 = unknown / whole file
};

class InputError : public std::runtime_error {
 public:
  // Rendered as "FILE:LINE: KEY: MESSAGE" (parts omitted when unknown).
  InputError(SourceLocation where, std::string key, std::string message);

  const SourceLocation& where() const { return where_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string key_;
  std::string message_;
};

}  // namespace tethersim
