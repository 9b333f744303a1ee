#pragma once
// Buffers of bytes that travel between ranks: trivially copyable values
// appended in order, and read back in the same order with every read
// checked against the buffer's end (a truncated buffer is an error, never
// a read past it).

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tethersim::decomposition {

using Bytes = std::vector<char>;

template <typename T>
void put(Bytes& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

// Grows `out` geometrically to hold `more` bytes beyond its size: reserving
// just one item's bytes would copy the whole buffer for every item.
inline void reserve_for(Bytes& out, std::size_t more) {
  const std::size_t needed = out.size() + more;
  if (needed > out.capacity()) out.reserve(std::max(needed, 2 * out.capacity()));
}

class ByteReader {
 public:
  // `what` names the buffer's contents in the error a truncated one raises.
  ByteReader(const char* data, std::size_t size, const char* what) : data_(data), size_(size), what_(what) {}

  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  // The next `n` bytes, to be read in place.
  const char* take(std::size_t n) {
    if (n > size_ - at_) throw std::runtime_error(std::string(what_) + " buffer is truncated");
    const char* bytes = data_ + at_;
    at_ += n;
    return bytes;
  }
  bool done() const { return at_ == size_; }

 private:
  const char* data_;
  std::size_t size_;
  const char* what_;
  std::size_t at_ = 0;
};

}  // namespace tethersim::decomposition
