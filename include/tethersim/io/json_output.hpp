#pragma once
// How tethersim writes JSON (summary.json, `tethersim info --json`,
// observables.jsonl): one library for every file, and one rule for numbers.

#include <nlohmann/json.hpp>

#include <string>

namespace tethersim {

// Keys stay in the order they were set: the files read like their
// documentation (docs/output-format.md) instead of alphabetically.
using Json = nlohmann::ordered_json;

// A double as tethersim writes it. Written text reads back as the same
// double (the shortest such text). Integral values keep the form they had
// before this library ("2", not "2.0"): scripts compare `end_time` and the
// like as text. NaN and infinities are null. -0 stays a double, so that
// its sign survives.
Json json_number(double x);

// `value` as text: on one line (indent < 0) or indented, ending in a
// newline. Bytes that are not UTF-8 (a path in another encoding) become
// U+FFFD instead of failing the write.
std::string json_text(const Json& value, int indent = -1);

}  // namespace tethersim
