#pragma once
// The units a model's numbers are in ([model.units]): names only. The engine
// never converts anything; the names label the output (H5MD unit
// attributes, summary.json, plot axes) so that other tools read the numbers
// right. Unset names leave the output unlabelled (dimensionless).

#include <string>

namespace tethersim {

struct Units {
  std::string length;  // e.g. "nm"
  std::string time;    // e.g. "ns"
  std::string mass;    // e.g. "kDa"

  // Derived units in the H5MD notation (space-separated factors with signed
  // exponents, e.g. "nm ns-1"); empty when a factor's unit is unset.
  std::string velocity() const { return product({{&length, ""}, {&time, "-1"}}); }
  std::string momentum() const { return product({{&mass, ""}, {&length, ""}, {&time, "-1"}}); }
  std::string energy() const { return product({{&mass, ""}, {&length, "+2"}, {&time, "-2"}}); }

 private:
  struct Factor {
    const std::string* unit;
    const char* exponent;
  };
  static std::string product(std::initializer_list<Factor> factors) {
    std::string out;
    for (const Factor& f : factors) {
      if (f.unit->empty()) return "";
      if (!out.empty()) out += ' ';
      out += *f.unit + f.exponent;
    }
    return out;
  }
};

}  // namespace tethersim
