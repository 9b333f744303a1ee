#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

namespace tethersim::app {

std::string JsonWriter::quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string JsonWriter::number(double x) {
  if (!std::isfinite(x)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

void JsonWriter::key(const std::string& k) {
  if (!first_.back()) out_ += ",";
  first_.back() = false;
  out_ += "\n" + std::string(2 * static_cast<std::size_t>(depth_), ' ');
  if (!k.empty()) out_ += quote(k) + ": ";
}

JsonWriter& JsonWriter::begin_object(const std::string& k) {
  if (depth_ > 0) {
    key(k);
  }
  out_ += "{";
  first_.push_back(true);
  ++depth_;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  --depth_;
  first_.pop_back();
  out_ += "\n" + std::string(2 * static_cast<std::size_t>(depth_), ' ') + "}";
  return *this;
}

JsonWriter& JsonWriter::begin_array(const std::string& k) {
  key(k);
  out_ += "[";
  first_.push_back(true);
  ++depth_;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  --depth_;
  first_.pop_back();
  out_ += "]";
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& k, double x) {
  key(k);
  out_ += number(x);
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& k, std::uint64_t x) {
  key(k);
  out_ += std::to_string(x);
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& k, std::int64_t x) {
  key(k);
  out_ += std::to_string(x);
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& k, const std::string& s) {
  key(k);
  out_ += quote(s);
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& k, bool b) {
  key(k);
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::element(double x) {
  if (!first_.back()) out_ += ", ";
  first_.back() = false;
  out_ += number(x);
  return *this;
}

}  // namespace tethersim::app
