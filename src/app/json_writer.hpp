#pragma once
// A small writer of JSON objects for run summaries (flat values, nested
// objects and arrays; numbers round-trip; non-finite numbers become null).

#include <cstdint>
#include <string>
#include <vector>

namespace tethersim::app {

class JsonWriter {
 public:
  JsonWriter& begin_object(const std::string& key = "");
  JsonWriter& end_object();
  JsonWriter& begin_array(const std::string& key);
  JsonWriter& end_array();
  JsonWriter& value(const std::string& key, double x);
  JsonWriter& value(const std::string& key, std::uint64_t x);
  JsonWriter& value(const std::string& key, std::int64_t x);
  JsonWriter& value(const std::string& key, int x) { return value(key, static_cast<std::int64_t>(x)); }
  JsonWriter& value(const std::string& key, const std::string& s);
  JsonWriter& value(const std::string& key, const char* s) { return value(key, std::string(s)); }
  JsonWriter& value(const std::string& key, bool b);
  // Array elements (no key).
  JsonWriter& element(double x);
  std::string str() const { return out_ + "\n"; }

 private:
  void key(const std::string& k);
  static std::string quote(const std::string& s);
  static std::string number(double x);
  std::string out_;
  std::vector<bool> first_{true};  // per open container: nothing written yet
  int depth_ = 0;
};

}  // namespace tethersim::app
