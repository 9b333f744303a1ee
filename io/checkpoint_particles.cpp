#include "checkpoint_particles.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "record_columns.hpp"
#include "tethersim/engine/particle_words.hpp"

namespace tethersim::io_detail {

namespace {

using engine::ParticleSnapshot;

constexpr std::size_t kFields = engine::kParticleFieldCount;

// Format 1 hashes the fields in list order except the counter, which comes
// right after the species: the order of the record the hash was first
// computed from. Fields appended to the list come last.
constexpr std::array<std::size_t, kFields> kHashOrder = [] {
  const std::size_t species = engine::particle_field_index("species");
  const std::size_t counter = engine::particle_field_index("counter");
  std::array<std::size_t, kFields> order{};
  std::size_t n = 0;
  for (std::size_t k = 0; k < kFields; ++k) {
    if (k == counter) continue;
    order[n++] = k;
    if (k == species) order[n++] = counter;
  }
  return order;
}();

// The hash mixes words six at a time, then the groups' hashes: at most six
// groups.
constexpr std::size_t kHashWords = [] {
  std::size_t words = 1;  // the slot
  engine::for_each_particle_field([&](const auto& field) {
    words += std::remove_cvref_t<decltype(field)>::width;
  });
  return words;
}();
static_assert(kHashWords <= 36, "the checkpoint hash of a particle takes at most 36 words");

class GroupedHash {
 public:
  void add(std::uint64_t word) {
    words_[size_++] = word;
    if (size_ == words_.size()) flush();
  }
  std::uint64_t value() {
    if (size_ > 0) flush();
    return mix(groups_);
  }

 private:
  // Unused words are zeros: mix_hash's defaults.
  static std::uint64_t mix(const std::array<std::uint64_t, 6>& w) {
    return physics::mix_hash(w[0], w[1], w[2], w[3], w[4], w[5]);
  }
  void flush() {
    for (std::size_t k = size_; k < words_.size(); ++k) words_[k] = 0;
    groups_[groups_size_++] = mix(words_);
    size_ = 0;
  }
  std::array<std::uint64_t, 6> words_{};
  std::array<std::uint64_t, 6> groups_{};
  std::size_t size_ = 0;
  std::size_t groups_size_ = 0;
};

}  // namespace

void append_particle_row(std::vector<ParticleRow>& rows, const ParticleSnapshot& p, std::uint64_t slot) {
  ParticleRow& row = rows.emplace_back();  // value-initialised: padding zeroed
  row.slot = slot;
  engine::write_particle_bytes(p, row.bytes.data());
}

std::vector<H5Id> create_particle_columns(hid_t group, hsize_t total) {
  std::vector<H5Id> columns;
  engine::for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    columns.push_back(create_column_dataset<typename Field::ColumnScalar>(group, std::string(field.name), total,
                                                                           Field::width));
  });
  return columns;
}

void write_particle_rows(const std::vector<H5Id>& columns, const std::vector<ParticleRow>& rows, hsize_t first,
                         hsize_t most_rows, hid_t transfer) {
  // Each field straight from the rows' bytes, so that no particle is
  // decoded whole and no second copy of the rows is held while their
  // columns are written.
  std::size_t column = 0;  // the fields come in the order of `columns`
  engine::for_each_particle_field_at([&](const auto& field, std::size_t offset) {
    using Field = std::remove_cvref_t<decltype(field)>;
    using Column = typename Field::ColumnScalar;
    write_column_rows<Column>(
        columns[column++], rows, first, Field::width,
        [offset](const ParticleRow& row, Column* out) {
          for (std::size_t k = 0; k < Field::width; ++k) {
            out[k] = static_cast<Column>(engine::particle_field_scalar<Field>(row.bytes.data(), offset, k));
          }
        },
        most_rows, transfer);
  });
}

void write_particle_columns(hid_t group, const engine::ParticleSource& source, std::size_t slab_particles,
                            hid_t transfer, const SlabSeen& seen) {
  const hsize_t total = source.size();
  const std::vector<H5Id> sets = create_particle_columns(group, total);
  // A slab of particles is decoded once and each column takes its part:
  // reading the source once per column would decode every particle once
  // per column.
  std::vector<ParticleSnapshot> slab;
  std::vector<std::vector<double>> phi;
  std::vector<char> column;
  for (std::size_t begin = 0; begin < total; begin += slab_particles) {
    source.read(begin, std::min<std::size_t>(total, begin + slab_particles), slab, phi);
    seen(slab, phi, begin);
    std::size_t set = 0;
    engine::for_each_particle_field([&](const auto& field) {
      using Field = std::remove_cvref_t<decltype(field)>;
      using Column = typename Field::ColumnScalar;
      column.resize(slab.size() * Field::width * sizeof(Column));
      char* out = column.data();
      for (const ParticleSnapshot& p : slab) {
        for (std::size_t k = 0; k < Field::width; ++k, out += sizeof(Column)) {
          const auto value = static_cast<Column>(Field::get(p, k));
          std::memcpy(out, &value, sizeof value);
        }
      }
      write_rows(sets[set++], native_type<Column>(), {}, begin, slab.size(), column.data(), transfer);
    });
  }
}

void read_particle_columns(hid_t group, std::vector<ParticleSnapshot>& particles, hsize_t first) {
  engine::for_each_particle_field([&](const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    using Column = typename Field::ColumnScalar;
    read_column<Column>(group, std::string(field.name), particles, first, Field::width,
                        [](ParticleSnapshot& p, const Column* in) {
                          for (std::size_t k = 0; k < Field::width; ++k) {
                            Field::set(p, k, static_cast<typename Field::Scalar>(in[k]));
                          }
                        });
  });
}

std::uint64_t particle_hash(std::uint64_t slot, const ParticleSnapshot& p) {
  GroupedHash h;
  h.add(slot);
  engine::for_each_particle_field_in<kHashOrder>(
      [&](const auto& field) { engine::field_words(field, p, [&](std::uint64_t w) { h.add(w); }); });
  return h.value();
}

namespace {

// particle_hash_sum mixes this many particles side by side: their words
// transposed (words[w][lane]), so that each mixing step is one operation
// over all lanes, which a compiler can keep in vector registers.
constexpr std::size_t kLanes = 8;
constexpr std::size_t kGroups = (kHashWords + 5) / 6;
using Lanes = std::array<std::uint64_t, kLanes>;
using LaneWords = std::array<Lanes, 6 * kGroups>;

// GroupedHash's steps for every lane: each group of six words, then the
// groups (missing words and groups are zeros, as there). Returns the sum
// of the lanes' hashes.
[[gnu::always_inline]] inline std::uint64_t mix_lanes(const LaneWords& words) {
  std::array<Lanes, 6> groups{};
  for (std::size_t g = 0; g < kGroups; ++g) {
    Lanes h;
    h.fill(physics::kMixHashStart);
    for (std::size_t j = 0; j < 6; ++j) {
      for (std::size_t lane = 0; lane < kLanes; ++lane) h[lane] = physics::mix_hash_step(h[lane], words[6 * g + j][lane]);
    }
    groups[g] = h;
  }
  Lanes h;
  h.fill(physics::kMixHashStart);
  for (std::size_t j = 0; j < 6; ++j) {
    for (std::size_t lane = 0; lane < kLanes; ++lane) h[lane] = physics::mix_hash_step(h[lane], groups[j][lane]);
  }
  std::uint64_t sum = 0;
  for (std::uint64_t x : h) sum += x;
  return sum;
}

std::uint64_t mix_lanes_plain(const LaneWords& words) { return mix_lanes(words); }

#if defined(__GNUC__) && defined(__x86_64__)
// The same steps where the processor multiplies eight 64-bit lanes at once
// (AVX-512DQ): the hash was a third of a checkpoint's time on one rank,
// at the scalar units' throughput. The release build targets any x86-64,
// so the choice is made when the program runs.
[[gnu::target("avx512f,avx512dq,avx512vl")]] std::uint64_t mix_lanes_wide(const LaneWords& words) {
  return mix_lanes(words);
}
bool wide_lanes() { return __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"); }
#else
std::uint64_t mix_lanes_wide(const LaneWords& words) { return mix_lanes(words); }
bool wide_lanes() { return false; }
#endif

}  // namespace

std::uint64_t particle_hash_sum(std::span<const ParticleSnapshot> particles, std::span<const std::uint64_t> slots,
                                bool vectors) {
  const bool wide = vectors && wide_lanes();
  std::uint64_t sum = 0;
  std::size_t k = 0;
  LaneWords words{};  // zeros past each lane's last word, as GroupedHash pads
  for (; k + kLanes <= particles.size(); k += kLanes) {
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      std::size_t n = 0;
      words[n++][lane] = slots[k + lane];
      engine::for_each_particle_field_in<kHashOrder>([&](const auto& field) {
        engine::field_words(field, particles[k + lane], [&](std::uint64_t w) { words[n++][lane] = w; });
      });
    }
    sum += wide ? mix_lanes_wide(words) : mix_lanes_plain(words);
  }
  for (; k < particles.size(); ++k) sum += particle_hash(slots[k], particles[k]);
  return sum;
}

}  // namespace tethersim::io_detail
